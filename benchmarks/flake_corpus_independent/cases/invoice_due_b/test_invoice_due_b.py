from datetime import date, timedelta


def due_label(issued):
    due = issued + timedelta(days=14)
    return f"due {due.day} {due:%b}"


def test_due_label():
    today = date.today()
    assert due_label(today) == f"due {today.day + 14} {today:%b}"
