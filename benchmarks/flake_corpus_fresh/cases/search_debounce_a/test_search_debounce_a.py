import time

from search_debounce_a_debounce import Debouncer, ManualTimer


def test_burst_of_keystrokes_fires_one_search():
    searches = []
    debouncer = Debouncer(0.02, lambda: searches.append("q"))
    for _ in range(6):
        debouncer.trigger()
        time.sleep(0.01)
    time.sleep(0.1)
    assert searches == ["q"]
