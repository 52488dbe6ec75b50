"""Autosave for the document editor."""
import asyncio
import json


class Editor:
    def __init__(self, path):
        self.path = path
        self.text = ""
        self._pending = set()

    def type(self, text):
        self.text += text
        task = asyncio.get_running_loop().create_task(self._save())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _save(self):
        snapshot = {"text": self.text, "words": self.text.split()}
        await asyncio.to_thread(self.path.write_text, json.dumps(snapshot, indent=2))

    async def flush(self):
        while self._pending:
            await asyncio.gather(*list(self._pending))
