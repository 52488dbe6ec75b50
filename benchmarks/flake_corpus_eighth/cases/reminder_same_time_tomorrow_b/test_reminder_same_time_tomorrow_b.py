import datetime

import reminder_same_time_tomorrow_b_remind as remind


def test_reminder_keeps_wall_clock_time():
    now = datetime.datetime.now().astimezone().replace(second=0, microsecond=0)
    reminder = remind.same_time_tomorrow(now)
    assert reminder.date() == now.date() + datetime.timedelta(days=1)
    assert (reminder.hour, reminder.minute) == (now.hour, now.minute)
