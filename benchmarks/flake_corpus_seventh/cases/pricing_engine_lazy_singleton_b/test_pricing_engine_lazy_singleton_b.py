import threading

import pricing_engine_lazy_singleton_b_pricing as pricing


def test_engine_loaded_once_under_concurrency():
    start = threading.Barrier(8)
    results = []

    def request(i):
        start.wait()
        results.append(pricing.quote(f"PRD-{i:04d}", 1000, 10))

    threads = [threading.Thread(target=request, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    assert pricing.PricingEngine.loads == 1
