import hashlib

import etag_bytes_chunks_a_etag as etag

RECORDED = hashlib.sha256(b"body{color:red}" + b"h1{margin:0}").hexdigest()[:16]


def test_bundle_etag_is_stable():
    assert etag.bundle_etag([b"h1{margin:0}", b"body{color:red}", b"h1{margin:0}"]) == RECORDED
