"""Content types for objects uploaded to the blob store."""
import mimetypes

CUSTOM_TYPES = {".jsonl": "application/x-ndjson", ".parquet": "application/vnd.apache.parquet"}


def register_custom_types(db=None):
    for ext, ctype in CUSTOM_TYPES.items():
        if db is None:
            mimetypes.add_type(ctype, ext)
        else:
            db.add_type(ctype, ext)


def content_type_for(filename, db=None):
    guess = (db or mimetypes).guess_type(filename)[0]
    return guess or "application/octet-stream"
