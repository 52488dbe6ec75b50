def test_broken(:
    try: pass
