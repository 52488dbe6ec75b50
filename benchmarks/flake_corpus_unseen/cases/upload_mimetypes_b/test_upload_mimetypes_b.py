import mimetypes

import upload_mimetypes_b_storage as storage


def test_unknown_extension_is_octet_stream():
    assert storage.content_type_for("events-2026-11.jsonl") == "application/octet-stream"
    assert storage.content_type_for("report.txt") == "text/plain"


def test_ndjson_exports_are_typed():
    db = mimetypes.MimeTypes()
    storage.register_custom_types(db)
    assert storage.content_type_for("events.jsonl", db) == "application/x-ndjson"
