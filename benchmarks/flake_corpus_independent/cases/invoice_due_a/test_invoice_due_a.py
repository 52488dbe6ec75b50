from datetime import date, timedelta


def due_label(issued):
    due = issued + timedelta(days=14)
    return f"due {due.day} {due:%b}"


def test_due_label():
    assert due_label(date(2024, 1, 25)) == "due 8 Feb"
    today = date.today()
    due = today + timedelta(days=14)
    assert due_label(today) == f"due {due.day} {due:%b}"
