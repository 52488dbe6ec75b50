"""Docs tooling: a preview server runs in a child process; the search index is built by a worker pool."""
import multiprocessing as mp

CTX = mp.get_context("fork")


def _serve(stop):
    stop.wait(30)  # stands in for the HTTP preview server loop


class PreviewServer:
    def __init__(self):
        self.stop = CTX.Event()
        self.proc = None

    def start(self):
        self.proc = CTX.Process(target=_serve, args=(self.stop,), name="docs-preview", daemon=True)
        self.proc.start()
        return self

    def close(self):
        self.stop.set()
        self.proc.join(10)


def _index_page(page):
    return page, len(page.split())


def build_index(pages, workers=2):
    pool = CTX.Pool(workers)
    try:
        return dict(pool.map(_index_page, pages))
    finally:
        pool.close()
        pool.join()
