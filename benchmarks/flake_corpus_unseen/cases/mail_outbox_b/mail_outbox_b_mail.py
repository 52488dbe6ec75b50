"""Transactional e-mail. In tests the locmem backend collects messages in `outbox`."""
from dataclasses import dataclass

outbox = []


@dataclass
class Message:
    to: str
    subject: str
    body: str


def send(to, subject, body):
    outbox.append(Message(to, subject, body))


def send_welcome(user_email, name):
    send(user_email, f"Welcome, {name}!", "Thanks for signing up.")


def send_password_reset(user_email, token):
    send(user_email, "Reset your password", f"https://shop.example.test/reset/{token}")
