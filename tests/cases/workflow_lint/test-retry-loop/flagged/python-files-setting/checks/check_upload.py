def check_upload():
    for _ in range(3):
        try:
            upload()
            break
        except Exception:
            pass
