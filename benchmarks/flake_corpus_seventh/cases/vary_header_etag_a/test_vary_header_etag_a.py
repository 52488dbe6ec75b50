import vary_header_etag_a_cache as cache

REQUEST = {"Accept-Encoding": "gzip", "Accept-Language": "de-DE", "X-Currency": "EUR"}


def test_etag_matches_cdn_record():
    # value recorded from the CDN logs for this page and request
    tag = cache.etag(b"<h1>Angebote</h1>", REQUEST, "Accept-Encoding, Accept-Language, X-Currency")
    assert tag == 'W/"11b62dc7772cf909"'


def test_etag_changes_with_language():
    a = cache.etag(b"x", {"Accept-Language": "de"}, "Accept-Language")
    b = cache.etag(b"x", {"Accept-Language": "fr"}, "Accept-Language")
    assert a != b
