from attachment_listing_b_attachments import Ticket


def test_attachments_listed_in_upload_order():
    t = Ticket()
    t.attach("screenshot.png", b"\x89PNG...")
    t.attach("server.log", b"ERROR boom\n")
    assert t.listing() == ["screenshot.png", "server.log"]
