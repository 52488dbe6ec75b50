def check_things():
    for _ in range(3):
        try:
            act()
            break
        except Exception:
            pass
