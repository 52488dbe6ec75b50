import pytest

import gradient_accumulation_shuffle_b_train as train

DATA = [(0.1, 0.3), (0.7, 2.2), (0.2, 0.5), (1.3, 3.8), (0.9, 2.9), (0.4, 1.1), (1.1, 3.4), (0.6, 1.7)]


def test_accumulated_gradient_equals_full_batch():
    full = train.grad(0.5, DATA)
    assert train.accumulated_grad(0.5, DATA) == pytest.approx(full, rel=1e-12)
