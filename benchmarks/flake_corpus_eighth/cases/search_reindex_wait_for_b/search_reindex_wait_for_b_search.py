"""Search index maintenance for the help centre."""
import asyncio
import re


def reindex(docs):
    index = {}
    for doc_id, text in docs.items():
        for word in re.findall(r"[a-z]+", text.lower()):
            index.setdefault(word, set()).add(doc_id)
    return index


async def reindex_async(docs, timeout):
    return await asyncio.wait_for(asyncio.to_thread(reindex, docs), timeout)
