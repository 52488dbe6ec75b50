import otp_code_digits_b_otp as otp


def test_codes_have_six_digits():
    for _ in range(2):
        code = otp.new_code()
        assert len(code) == 6 and code.isdigit(), code
