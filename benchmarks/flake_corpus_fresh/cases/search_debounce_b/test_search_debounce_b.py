import time

from search_debounce_b_debounce import Debouncer, ManualTimer


def test_burst_of_keystrokes_fires_one_search():
    searches = []
    debouncer = Debouncer(0.02, lambda: searches.append("q"), timer_factory=ManualTimer)
    for _ in range(6):
        debouncer.trigger()
        time.sleep(0.01)
    ManualTimer.fire_all()
    assert searches == ["q"]
