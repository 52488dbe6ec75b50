import threading

N = 45000


class Indexer:
    def __init__(self, docs):
        self.docs = docs
        self.index = None
        self.done = False
        self.thread = threading.Thread(target=self._build, daemon=True)

    def _build(self):
        index = {}
        for i, doc in enumerate(self.docs):
            for word in doc.split():
                index.setdefault(word, set()).add(i)
        self.index = index
        self.done = True

    def start(self):
        self.thread.start()

    def wait(self, timeout):
        self.thread.join(timeout)
        return self.done


def test_index_ready_after_start():
    docs = [f"doc {i} lorem ipsum {i % 97} dolor sit amet {i % 13}" for i in range(N)]
    ix = Indexer(docs)
    ix.start()
    assert ix.wait(timeout=30)
    assert ix.index["lorem"] == set(range(N))
