def stubborn(tries, needed):
    def wrap(test):
        def run(*args):
            attempts = successes = 0
            while successes < needed:
                attempts += 1
                try:
                    test(*args)
                    successes += 1
                except BaseException:
                    if attempts >= tries:
                        raise

        return run

    return wrap


@stubborn(3, 1)
def test_value():
    assert True
