import re

from voucher_double_chars_a_vouchers import has_double, new_voucher


def test_voucher_format():
    assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", new_voucher())


def test_voucher_is_phone_friendly():
    code = new_voucher().replace("-", "")
    assert len(code) == 10
    assert not has_double(code), code
