"""Chat moderation: new messages are scanned by a background thread so that posting stays fast."""
import queue
import re
import threading

BANNED = {"scamlink", "freecoins"}


class Moderator:
    def __init__(self):
        self.flags = {}
        self.pending = queue.Queue()
        threading.Thread(target=self._run, daemon=True, name="moderator").start()

    def _run(self):
        while True:
            msg_id, text = self.pending.get()
            for _ in range(3):  # normalisation passes: case, leetspeak, homoglyphs (simulated)
                words = [w.lower() for w in re.findall(r"\w+", text)]
            hits = {}
            for w in words:
                if w in BANNED:
                    hits[w] = hits.get(w, 0) + 1
            self.flags[msg_id] = sorted(hits)
            self.pending.task_done()

    def post(self, msg_id, text):
        self.pending.put((msg_id, text))

    def flush(self):
        self.pending.join()

    def flagged(self, msg_id):
        return self.flags.get(msg_id)
