import threading

SESSIONS = {}


def schedule_expiry(delay):
    timer = threading.Timer(delay, SESSIONS.clear)
    timer.daemon = True
    timer.start()
    return timer


def handle_request(sid):
    page = "".join(f"<p>{sid}:{i}</p>" for i in range(100000))
    return SESSIONS.get(sid), len(page)
