import credit_note_numbers_b_credit as credit


def test_amount_is_negative():
    assert credit.format_amount(1999) == "-19.99 EUR"


def test_first_credit_note_number():
    book = credit.CreditNoteBook()
    assert book.issue("INV-7", 1999) == "CN-00001"
    assert book.issue("INV-8", 500) == "CN-00002"
