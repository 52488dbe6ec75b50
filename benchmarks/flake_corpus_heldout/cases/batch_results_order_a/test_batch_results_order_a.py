from concurrent.futures import ThreadPoolExecutor

from batch_results_order_a_app import score


def run_batch(items):
    results = []
    with ThreadPoolExecutor(max_workers=4) as ex:
        for item in items:
            ex.submit(score, item).add_done_callback(lambda f: results.append(f.result()))
    return results


def test_results_in_submission_order():
    assert run_batch([1, 2, 3, 4]) == [1, 4, 9, 16]
