"""Ticket attachments: stored under a random name, listed for the ticket view."""
import itertools
import uuid
from dataclasses import dataclass, field

_seq = itertools.count(1)


@dataclass
class Attachment:
    filename: str
    size: int
    stored_as: str = field(default_factory=lambda: uuid.uuid4().hex)
    seq: int = field(default_factory=lambda: next(_seq))


class Ticket:
    def __init__(self):
        self._files = {}

    def attach(self, filename, data):
        att = Attachment(filename, len(data))
        self._files[att.stored_as] = att
        return att

    def listing(self):
        return [a.filename for a in sorted(self._files.values(), key=lambda a: a.seq)]
