"""Month grid of the booking widget: weeks as rows, 0 = day outside the month."""
import calendar


def month_grid(year, month):
    return calendar.monthcalendar(year, month)


def week_header():
    return calendar.weekheader(2).split()
