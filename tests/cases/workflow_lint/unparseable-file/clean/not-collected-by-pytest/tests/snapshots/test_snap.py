def test_snapshot(:
    try: pass
