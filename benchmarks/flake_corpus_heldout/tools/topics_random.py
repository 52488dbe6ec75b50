TOPICS = []
def T(**kw): TOPICS.append(kw)

T(topic="ticket_ids", cls="random", node="test_ticket_ids_are_unique",
  trigger="unseeded random.randint ids collide (birthday problem, about 10% of runs)",
  robust="any RNG state (uses random.sample)",
  common={},
  flaky={"appmod.py": '''
import random


def new_ticket_ids(n):
    return [random.randint(0, 999) for _ in range(n)]
''', "TEST": '''
from appmod import new_ticket_ids


def test_ticket_ids_are_unique():
    ids = new_ticket_ids(15)
    assert len(set(ids)) == 15
    assert all(0 <= i <= 999 for i in ids)
'''},
  stable={"appmod.py": '''
import random


def new_ticket_ids(n):
    return random.sample(range(1000), n)
''', "TEST": '''
from appmod import new_ticket_ids


def test_ticket_ids_are_unique():
    ids = new_ticket_ids(15)
    assert len(set(ids)) == 15
    assert all(0 <= i <= 999 for i in ids)
'''})

T(topic="password_policy", cls="random", node="test_generated_password_meets_policy",
  trigger="unseeded generator sometimes produces no digit ((52/62)^8, about 24% of runs)",
  robust="any RNG state (a digit is always placed)",
  common={},
  flaky={"appmod.py": '''
import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def generate_password(length=8):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))
''', "TEST": '''
import string

from appmod import generate_password


def test_generated_password_meets_policy():
    pw = generate_password()
    assert len(pw) == 8
    assert any(c in string.digits for c in pw)
    assert any(c in string.ascii_letters for c in pw)
'''},
  stable={"appmod.py": '''
import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def generate_password(length=8):
    chars = [secrets.choice(string.digits), secrets.choice(string.ascii_letters)]
    chars += [secrets.choice(ALPHABET) for _ in range(length - 2)]
    secrets.SystemRandom().shuffle(chars)
    return "".join(chars)
''', "TEST": '''
import string

from appmod import generate_password


def test_generated_password_meets_policy():
    pw = generate_password()
    assert len(pw) == 8
    assert any(c in string.digits for c in pw)
    assert any(c in string.ascii_letters for c in pw)
'''})

T(topic="quiz_shuffle", cls="random", node="test_shuffle_changes_question_order",
  trigger="random.shuffle of 3 questions returns the original order 1 time in 6",
  robust="any RNG state (reshuffles until the order differs)",
  common={},
  flaky={"appmod.py": '''
import random


def shuffled_questions(questions):
    out = list(questions)
    random.shuffle(out)
    return out
''', "TEST": '''
from appmod import shuffled_questions

QUESTIONS = ["capital of France", "2 + 2", "largest planet"]


def test_shuffle_changes_question_order():
    out = shuffled_questions(QUESTIONS)
    assert sorted(out) == sorted(QUESTIONS)
    assert out != QUESTIONS
'''},
  stable={"appmod.py": '''
import random


def shuffled_questions(questions):
    out = list(questions)
    if len(set(out)) < 2:
        return out
    while out == list(questions):
        random.shuffle(out)
    return out
''', "TEST": '''
from appmod import shuffled_questions

QUESTIONS = ["capital of France", "2 + 2", "largest planet"]


def test_shuffle_changes_question_order():
    out = shuffled_questions(QUESTIONS)
    assert sorted(out) == sorted(QUESTIONS)
    assert out != QUESTIONS
'''})

T(topic="retry_backoff", cls="random", node="test_backoff_delays_increase",
  trigger="additive jitter up to 2 s can make the second delay shorter than the first (about 12% of runs)",
  robust="any RNG state (jitter proportional to the step)",
  common={},
  flaky={"appmod.py": '''
import random


def backoff_delays(attempts, base=1.0):
    return [base * 2 ** i + random.uniform(0, 2 * base) for i in range(attempts)]
''', "TEST": '''
from appmod import backoff_delays


def test_backoff_delays_increase():
    delays = backoff_delays(4)
    assert all(a < b for a, b in zip(delays, delays[1:]))
    assert delays[-1] <= 10.0
'''},
  stable={"appmod.py": '''
import random


def backoff_delays(attempts, base=1.0):
    return [base * 2 ** i * (1 + random.uniform(0, 0.5)) for i in range(attempts)]
''', "TEST": '''
from appmod import backoff_delays


def test_backoff_delays_increase():
    delays = backoff_delays(4)
    assert all(a < b for a, b in zip(delays, delays[1:]))
    assert delays[-1] <= 12.0
'''})

T(topic="train_test_split", cls="random", node="test_split_has_both_parts",
  trigger="per-item Bernoulli(0.8) split of 10 items leaves the test part empty in 0.8^10 = 11% of runs",
  robust="any RNG state (shuffle then slice)",
  common={},
  flaky={"appmod.py": '''
import random


def split(items, train_fraction=0.8):
    train, test = [], []
    for item in items:
        (train if random.random() < train_fraction else test).append(item)
    return train, test
''', "TEST": '''
from appmod import split


def test_split_has_both_parts():
    train, test = split(list(range(10)))
    assert train and test
    assert sorted(train + test) == list(range(10))
'''},
  stable={"appmod.py": '''
import random


def split(items, train_fraction=0.8):
    items = list(items)
    random.shuffle(items)
    cut = min(max(1, round(len(items) * train_fraction)), len(items) - 1)
    return items[:cut], items[cut:]
''', "TEST": '''
from appmod import split


def test_split_has_both_parts():
    train, test = split(list(range(10)))
    assert train and test
    assert sorted(train + test) == list(range(10))
'''})

T(topic="monte_carlo_pi", cls="random", node="test_pi_estimate_is_close",
  trigger="unseeded estimate with 2000 samples misses a 0.05 tolerance in about 17% of runs",
  robust="any global RNG state (uses a seeded random.Random)",
  common={},
  flaky={"appmod.py": '''
import random


def estimate_pi(samples, rng=None):
    rng = rng or random
    inside = sum(1 for _ in range(samples) if rng.random() ** 2 + rng.random() ** 2 <= 1.0)
    return 4 * inside / samples
''', "TEST": '''
import math

from appmod import estimate_pi


def test_pi_estimate_is_close():
    assert abs(estimate_pi(2000) - math.pi) < 0.05
'''},
  stable={"appmod.py": '''
import random


def estimate_pi(samples, rng=None):
    rng = rng or random
    inside = sum(1 for _ in range(samples) if rng.random() ** 2 + rng.random() ** 2 <= 1.0)
    return 4 * inside / samples
''', "TEST": '''
import math
import random

from appmod import estimate_pi


def test_pi_estimate_is_close():
    assert abs(estimate_pi(2000, random.Random(12345)) - math.pi) < 0.05
'''})

T(topic="load_balancer", cls="random", node="test_requests_spread_over_backends",
  trigger="random backend choice sends all 4 requests to one backend in 2*(1/2)^4 = 12.5% of runs",
  robust="any RNG state (round robin)",
  common={},
  flaky={"appmod.py": '''
import random


class Balancer:
    def __init__(self, backends):
        self.backends = list(backends)

    def pick(self):
        return random.choice(self.backends)
''', "TEST": '''
from appmod import Balancer


def test_requests_spread_over_backends():
    lb = Balancer(["10.0.0.1", "10.0.0.2"])
    used = {lb.pick() for _ in range(4)}
    assert used == {"10.0.0.1", "10.0.0.2"}
'''},
  stable={"appmod.py": '''
import itertools


class Balancer:
    def __init__(self, backends):
        self.backends = list(backends)
        self._cycle = itertools.cycle(self.backends)

    def pick(self):
        return next(self._cycle)
''', "TEST": '''
from appmod import Balancer


def test_requests_spread_over_backends():
    lb = Balancer(["10.0.0.1", "10.0.0.2"])
    used = {lb.pick() for _ in range(4)}
    assert used == {"10.0.0.1", "10.0.0.2"}
'''})

T(topic="sample_mean", cls="float", node="test_mean_matches_statistics",
  trigger="naive sum()/len() of unseeded random floats differs in the last bit from statistics.fmean in a share of runs",
  robust="any data (math.isclose)",
  common={"appmod.py": '''
def mean(values):
    return sum(values) / len(values)
'''},
  flaky={"TEST": '''
import random
import statistics

from appmod import mean


def test_mean_matches_statistics():
    data = [random.uniform(0, 100) for _ in range(7)]
    assert mean(data) == statistics.fmean(data)
'''},
  stable={"TEST": '''
import math
import random
import statistics

from appmod import mean


def test_mean_matches_statistics():
    data = [random.uniform(0, 100) for _ in range(7)]
    assert math.isclose(mean(data), statistics.fmean(data), rel_tol=1e-12)
'''})
