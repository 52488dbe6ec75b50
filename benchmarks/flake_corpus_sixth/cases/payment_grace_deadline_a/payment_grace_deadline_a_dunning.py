"""Payment reminders: customers get three more days after the reminder."""
from datetime import date, timedelta


def grace_deadline(today=None):
    today = today or date.today()
    return today + timedelta(days=3)


def reminder_text(invoice):
    return f"Invoice {invoice} is overdue. Please pay by {grace_deadline():%d %b %Y}."
