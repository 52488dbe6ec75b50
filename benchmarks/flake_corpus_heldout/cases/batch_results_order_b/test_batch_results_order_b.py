from concurrent.futures import ThreadPoolExecutor

from batch_results_order_b_app import score


def run_batch(items):
    with ThreadPoolExecutor(max_workers=4) as ex:
        return list(ex.map(score, items))


def test_results_in_submission_order():
    assert run_batch([1, 2, 3, 4]) == [1, 4, 9, 16]
