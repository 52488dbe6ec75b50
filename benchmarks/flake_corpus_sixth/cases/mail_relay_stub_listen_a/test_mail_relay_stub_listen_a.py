import mail_relay_stub_listen_a_relay as relay


def test_password_reset_mail_is_relayed():
    server = relay.RelayStub()
    server.start()
    relay.send_mail(server.port, "ana@example.com", "Your reset link: https://example.com/r/abc")
    server.join(timeout=10)
    assert "reset link" in server.messages[0]
