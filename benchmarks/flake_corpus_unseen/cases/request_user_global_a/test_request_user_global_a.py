import time
from concurrent.futures import ThreadPoolExecutor

from request_user_global_a_webapp import handle

USERS = [f"user{i}" for i in range(12)]


def test_each_request_renders_its_own_user():
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = []
        for u in USERS:
            futures.append((u, pool.submit(handle, u)))
            time.sleep(0)  # the accept loop yields between requests of a page load burst
        pages = {u: f.result() for u, f in futures}
    for u, page in pages.items():
        assert page.startswith(f"Hello {u},"), (u, page)
