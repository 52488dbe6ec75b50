def check_things():
    attempts = 0
    while attempts < 3:
        try:
            return act()
        except Exception:
            attempts += 1
