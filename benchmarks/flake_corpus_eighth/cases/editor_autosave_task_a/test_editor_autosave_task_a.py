import asyncio
import json

import editor_autosave_task_a_editor as editor_mod


def test_autosave_writes_draft(tmp_path):
    async def scenario():
        ed = editor_mod.Editor(tmp_path / "draft.json")
        ed.type("lorem ipsum dolor sit amet " * 6000)
        await ed.flush()
        return json.loads((tmp_path / "draft.json").read_text())

    assert asyncio.run(scenario())["text"].startswith("lorem ipsum")
