import support_ticket_sequence_b_desk as desk


def test_first_ticket_number():
    d = desk.TicketDesk()
    assert d.open("printer on fire") == "T-0001"


def test_reopen_keeps_number():
    d = desk.TicketDesk()
    n = d.open("vpn down")
    d.close(n)
    d.tickets[n]["state"] = "open"
    assert d.tickets[n]["subject"] == "vpn down"
