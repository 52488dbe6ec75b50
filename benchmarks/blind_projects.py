"""Blind projects: `lanegate run` on heads written for real libraries lanegate was never tuned on.

A sibling of `real_projects.py` (its download, environment and measuring helpers are imported from
there): four small pure-Python libraries that no benchmark, corpus or trial of lanegate used,
each pinned by version and sdist sha256, unpacked into a git repository whose base commit is the
sdist as released plus the `lanegate.toml` that `lanegate init` writes there (what a new user
commits first; only a hang guard is added to it). On each, six heads written in the project's own
style, as a user of the docs would write them (new tests call a `lanegate.oracles` oracle on
Hypothesis or pytest inputs):

- honest-new: a new function with a property test (must pass);
- honest-fix: a fix or refactor of an existing function, with a test that pins it (must pass);
- wrong: a real-looking bug in an existing function and a test that is true of the wrong code
  (must fail);
- flaky: a new test that depends on time, order, randomness or the hash seed (must fail with a
  `flake-` rule);
- human-fix, human-docs: ordinary human commits (a fix with a plain unit test; a docs change or a
  refactor), judged with `--authorship human` (must pass).

Printed per project and head: the expected and actual verdict, the failing rule ids (with each
fail's message when the verdict is not as expected), and the CPU of `lanegate run` (sandboxed
children counted: `real_projects.measured` reads `RUSAGE_CHILDREN` of a parent process, and
`lanegate run` reaps its sandboxes' orphans) against one plain run of the project's own suite at
that head. Ends with the rates per kind of head and the median and worst CPU ratio.

    python benchmarks/blind_projects.py [--smoke] [--only NAME ...] [--heads HEAD ...] [--work DIR]

`--smoke` judges toolz's honest-new head only. Exit 0 only when every verdict is as expected.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.real_projects import (  # noqa: E402
    CACHE,
    BenchError,
    Project,
    _git,
    _run,
    fetch,
    make_env,
    measured,
    phases,
)

# a hang guard, not a speed target (the shared 2-core machine runs at load 10 and more)
HANG_GUARD = (
    "\n# added by benchmarks/blind_projects.py: a hang guard\n[lane]\nmax_wall_seconds = 900\n"
)
EXCLUDE = "*.egg-info/\n__pycache__/\n.hypothesis/\n.lanegate/\nbuild/\n.eggs/\n"


@dataclass(frozen=True, slots=True)
class Head:
    """One pull request: edits of the base's files (an `old` of "" appends `new`, creating the
    file), who wrote it and the verdict it must get."""

    name: str
    message: str
    edits: tuple[tuple[str, str, str], ...]
    human: bool = False
    expect: str = "pass"
    rule_prefix: str = ""  # a fail must name a rule starting with this ("" for any)


@dataclass(frozen=True, slots=True)
class Blind:
    """One pinned real project and its heads."""

    project: Project
    heads: tuple[Head, ...]


def _project(name: str, version: str, sha256: str, covers: str, *deps: str) -> Project:
    return Project(name, version, sha256, covers, module="", import_path="", deps=deps)


# ---------------------------------------------------------------------------------------- toolz
TOOLZ_T = "toolz/tests/test_itertoolz.py"
TOOLZ_M = "toolz/itertoolz.py"
TOOLZ_IMPORTS = "from operator import add, mul\n"


def _toolz_imports(extra: str) -> tuple[str, str, str]:
    return (TOOLZ_T, TOOLZ_IMPORTS, TOOLZ_IMPORTS + extra)


TOOLZ = Blind(
    _project(
        "toolz",
        "1.0.0",
        "2c86e3d9a04798ac556793bced838816296a2f085017664e4995cb40a1047a02",
        "tests inside the package (toolz/tests), setup.py with versioneer",
    ),
    (
        Head(
            "honest-new",
            "Add runs: run-length encoding of a sequence",
            (
                (
                    TOOLZ_M,
                    "",
                    '''

def runs(seq):
    """ Each run of equal consecutive elements as (element, length)

    >>> list(runs('aaabcc'))
    [('a', 3), ('b', 1), ('c', 2)]

    See Also:
        groupby
        frequencies
    """
    it = iter(seq)
    try:
        current = next(it)
    except StopIteration:
        return
    length = 1
    for item in it:
        if item == current:
            length += 1
        else:
            yield current, length
            current, length = item, 1
    yield current, length
''',
                ),
                _toolz_imports(
                    "\nfrom hypothesis import given, strategies as st\n\n"
                    "from lanegate.oracles import equivalent\n"
                    "from toolz.itertoolz import runs\n"
                ),
                (
                    TOOLZ_T,
                    "",
                    """

def _runs_by_groupby(seq):
    return [(key, len(list(group))) for key, group in itertools.groupby(seq)]


@given(st.lists(st.sampled_from('abc'), max_size=12))
def test_runs(seq):
    equivalent(lambda s: list(runs(s)), _runs_by_groupby, seq)
    equivalent(lambda s: list(runs(iter(s))), _runs_by_groupby, seq)
""",
                ),
            ),
        ),
        Head(
            "honest-fix",
            "Fix tail(0, seq) returning the whole sequence for sequences",
            (
                (
                    TOOLZ_M,
                    "        return seq[-n:]\n",
                    "        return seq[-n:] if n > 0 else seq[:0]\n",
                ),
                _toolz_imports(
                    "\nfrom hypothesis import given, strategies as st\n\n"
                    "from lanegate.oracles import equivalent\n"
                ),
                (
                    TOOLZ_T,
                    "",
                    """

@given(st.lists(st.integers(), max_size=8), st.integers(0, 10))
def test_tail_takes_at_most_n(seq, n):
    equivalent(lambda s, k: list(tail(k, s)), lambda s, k: s[max(len(s) - k, 0):], seq, n)
    equivalent(lambda s, k: list(tail(k, iter(s))), lambda s, k: s[max(len(s) - k, 0):], seq, n)
""",
                ),
            ),
        ),
        Head(
            "wrong",
            "take_nth: start at the nth item",
            (
                (
                    TOOLZ_M,
                    "    return itertools.islice(seq, 0, None, n)\n",
                    "    return itertools.islice(seq, n - 1, None, n)\n",
                ),
                _toolz_imports(
                    "\nfrom hypothesis import given, strategies as st\n\n"
                    "from lanegate.oracles import ordered\n"
                ),
                (
                    TOOLZ_T,
                    "",
                    """

@given(st.integers(0, 30), st.integers(1, 5))
def test_take_nth_keeps_order(size, n):
    ordered(list(take_nth(n, range(size))))
""",
                ),
            ),
            expect="fail",
        ),
        Head(
            "flaky",
            "Test random_sample on a range (randomness: an unseeded state)",
            (
                _toolz_imports("\nimport pytest\n\nfrom lanegate.oracles import ordered\n"),
                (
                    TOOLZ_T,
                    "",
                    """

@pytest.mark.parametrize('n', [10, 20])
def test_random_sample_of_a_range(n):
    sample = list(random_sample(0.1, range(n)))
    ordered(sample)
    assert sample, "a tenth of the items is at least one"
""",
                ),
            ),
            expect="fail",
            rule_prefix="flake-",
        ),
        Head(
            "human-fix",
            "Fix interpose raising StopIteration on an empty sequence",
            (
                (TOOLZ_M, "    next(inposed)\n", "    next(inposed, None)\n"),
                (
                    TOOLZ_T,
                    "",
                    """

def test_interpose_empty():
    assert list(interpose("a", [])) == []
    assert list(interpose("a", iter([]))) == []
""",
                ),
            ),
            human=True,
        ),
        Head(
            "human-docs",
            "frequencies: use collections.Counter; say what it returns",
            (
                (
                    TOOLZ_M,
                    "    d = collections.defaultdict(int)\n    for item in seq:\n"
                    "        d[item] += 1\n    return dict(d)\n",
                    "    return dict(collections.Counter(seq))\n",
                ),
                (
                    TOOLZ_M,
                    '    """ Find number of occurrences of each value in seq\n',
                    '    """ Find number of occurrences of each value in seq\n\n'
                    "    Returns a plain dict, in the order the values first occur.\n",
                ),
            ),
            human=True,
        ),
    ),
)

# ----------------------------------------------------------------------------------- inflection
INFL_T = "test_inflection.py"
INFL_M = "inflection/__init__.py"
INFL_IMPORTS = "import pytest\n"


def _infl_imports(extra: str) -> tuple[str, str, str]:
    return (INFL_T, INFL_IMPORTS, INFL_IMPORTS + extra)


INFLECTION = Blind(
    _project(
        "inflection",
        "0.5.1",
        "1a29730d366e996aaacffb2f1f1cb9593dc38e2ddd30c91250c6dde09ea9b417",
        "one module and one test file at the root, module-level rule tables",
    ),
    (
        Head(
            "honest-new",
            "Add pluralize_count",
            (
                (
                    INFL_M,
                    "def parameterize(string: str, separator: str = '-') -> str:\n",
                    '''def pluralize_count(count: int, word: str) -> str:
    """
    Return the count followed by the word, pluralized unless the count is one.

    Examples::

        >>> pluralize_count(1, "post")
        '1 post'
        >>> pluralize_count(3, "octopus")
        '3 octopi'

    """
    if abs(count) == 1:
        return "{} {}".format(count, word)
    return "{} {}".format(count, pluralize(word))


def parameterize(string: str, separator: str = '-') -> str:
''',
                ),
                _infl_imports(
                    "from hypothesis import given, strategies as st\n\n"
                    "from lanegate.oracles import equivalent\n"
                ),
                (
                    INFL_T,
                    "",
                    """

@given(st.integers(-3, 3), st.sampled_from(SINGULAR_TO_PLURAL))
def test_pluralize_count(count, pair):
    singular, plural = pair
    equivalent(
        lambda n: inflection.pluralize_count(n, singular),
        lambda n: "%d %s" % (n, singular if n in (1, -1) else plural),
        count,
    )
""",
                ),
            ),
        ),
        Head(
            "honest-fix",
            "humanize: ignore leading underscores, as Rails does",
            (
                (
                    INFL_M,
                    '    word = re.sub(r"_id$", "", word)\n',
                    '    word = word.lstrip(\'_\')\n    word = re.sub(r"_id$", "", word)\n',
                ),
                _infl_imports(
                    "from hypothesis import given, strategies as st\n\n"
                    "from lanegate.oracles import equivalent\n"
                ),
                (
                    INFL_T,
                    "",
                    """

@given(st.text(alphabet="abdi_", max_size=10))
def test_humanize_ignores_leading_underscores(word):
    equivalent(inflection.humanize, lambda w: inflection.humanize(w.lstrip("_")), word)
""",
                ),
            ),
        ),
        Head(
            "wrong",
            "ordinal: drop the redundant abs()",
            (
                (INFL_M, "    number = abs(int(number))\n", "    number = int(number)\n"),
                _infl_imports(
                    "from hypothesis import given, strategies as st\n\n"
                    "from lanegate.oracles import equivalent\n"
                ),
                (
                    INFL_T,
                    "",
                    """

def _english_suffix(number):
    if 10 < number % 100 < 14:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


@given(st.integers(0, 10 ** 6))
def test_ordinal_suffix(number):
    equivalent(inflection.ordinal, _english_suffix, number)
""",
                ),
            ),
            expect="fail",
        ),
        Head(
            "flaky",
            "Test a custom plural rule (order: a rule table shared by the tests)",
            (
                _infl_imports("\nfrom lanegate.oracles import equivalent\n"),
                (
                    INFL_T,
                    "",
                    """

@pytest.mark.parametrize("word", ["cactus", "Cactus"])
def test_pluralize_cactus_is_uncounted_by_default(word):
    equivalent(inflection.pluralize, lambda w: w, word)


@pytest.mark.parametrize("singular", ["cactus", "Cactus"])
def test_pluralize_with_a_custom_rule(singular):
    inflection.PLURALS.insert(0, (r"(?i)(cact)us$", r"\\1i"))
    equivalent(inflection.pluralize, lambda w: w[:-2] + "i", singular)
""",
                ),
            ),
            expect="fail",
            rule_prefix="flake-",
        ),
        Head(
            "human-fix",
            "dasherize: replace spaces too",
            (
                (
                    INFL_M,
                    "    return word.replace('_', '-')\n",
                    "    return word.replace('_', '-').replace(' ', '-')\n",
                ),
                (
                    INFL_T,
                    "",
                    """

def test_dasherize_replaces_spaces():
    assert inflection.dasherize("puni puni") == "puni-puni"
    assert inflection.dasherize("puni_puni puni") == "puni-puni-puni"
""",
                ),
            ),
            human=True,
        ),
        Head(
            "human-docs",
            "README: installation and a short example",
            (
                (
                    "README.rst",
                    "Resources\n---------\n",
                    """Installation
------------

::

    pip install inflection

Usage
-----

::

    >>> import inflection
    >>> inflection.pluralize("octopus")
    'octopi'
    >>> inflection.underscore("DeviceType")
    'device_type'

Resources
---------
""",
                ),
            ),
            human=True,
        ),
    ),
)

# ------------------------------------------------------------------------------------- jmespath
JMES_T = "tests/test_functions.py"
JMES_M = "jmespath/functions.py"
JMES_HEADER = """import statistics

from hypothesis import given, strategies as st

import jmespath
from lanegate.oracles import {oracle}
from tests import unittest
"""

JMESPATH = Blind(
    _project(
        "jmespath",
        "1.0.1",
        "90261b206d6defd58fdd5e85f478bf633a2901798906be2ad389150c5c60edbe",
        "unittest classes, a tests package, functions found by name on a metaclass",
    ),
    (
        Head(
            "honest-new",
            "Add a median() function",
            (
                (
                    JMES_M,
                    "    def _func_sum(self, arg):\n        return sum(arg)\n",
                    """    def _func_sum(self, arg):
        return sum(arg)

    @signature({"types": ['array-number']})
    def _func_median(self, arg):
        if not arg:
            return None
        ordered = sorted(arg)
        middle = len(ordered) // 2
        if len(ordered) % 2:
            return ordered[middle]
        return (ordered[middle - 1] + ordered[middle]) / 2.0
""",
                ),
                (
                    JMES_T,
                    "",
                    JMES_HEADER.format(oracle="equivalent")
                    + """

def _median(numbers):
    return statistics.median(numbers) if numbers else None


class TestMedian(unittest.TestCase):
    @given(st.lists(st.integers(-1000, 1000), max_size=15))
    def test_median_matches_statistics(self, numbers):
        equivalent(lambda xs: jmespath.search('median(@)', xs), _median, numbers)
""",
                ),
            ),
        ),
        Head(
            "honest-fix",
            "avg: return early for an empty array",
            (
                (
                    JMES_M,
                    "        if arg:\n            return sum(arg) / float(len(arg))\n"
                    "        else:\n            return None\n",
                    "        if not arg:\n            return None\n        return sum(arg) / len(arg)\n",
                ),
                (
                    JMES_T,
                    "",
                    JMES_HEADER.format(oracle="equivalent")
                    + """

class TestAvg(unittest.TestCase):
    @given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=15))
    def test_avg_matches_fmean(self, numbers):
        equivalent(lambda xs: jmespath.search('avg(@)', xs),
                   statistics.fmean, numbers)
""",
                ),
            ),
        ),
        Head(
            "wrong",
            "avg: integer arithmetic for integer arrays",
            (
                (
                    JMES_M,
                    "            return sum(arg) / float(len(arg))\n",
                    "            return sum(arg) // len(arg)\n",
                ),
                (
                    JMES_T,
                    "",
                    JMES_HEADER.format(oracle="ordered")
                    + """

class TestAvg(unittest.TestCase):
    @given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=15))
    def test_avg_is_between_min_and_max(self, numbers):
        avg = jmespath.search('avg(@)', numbers)
        ordered([min(numbers), avg, max(numbers)])
""",
                ),
            ),
            expect="fail",
        ),
        Head(
            "flaky",
            "Test keys() of an object built from a set (the hash seed orders it)",
            (
                (
                    JMES_T,
                    "",
                    JMES_HEADER.format(oracle="equivalent")
                    + """

class TestKeys(unittest.TestCase):
    @given(st.sets(st.sampled_from(['alpha', 'beta']), min_size=2))
    def test_keys_of_an_object_built_from_a_set(self, names):
        data = {name: len(name) for name in names}
        equivalent(lambda d: jmespath.search('keys(@)', d), sorted, data)
""",
                ),
            ),
            expect="fail",
            rule_prefix="flake-",
        ),
        Head(
            "human-fix",
            "to_number: NaN and infinities are not JSON numbers",
            (
                (
                    JMES_M,
                    "                try:\n                    return float(arg)\n"
                    "                except ValueError:\n                    return None\n",
                    "                try:\n                    number = float(arg)\n"
                    "                except ValueError:\n                    return None\n"
                    "                if math.isinf(number) or math.isnan(number):\n"
                    "                    return None\n                return number\n",
                ),
                (
                    JMES_T,
                    "",
                    """import jmespath
from tests import unittest


class TestToNumber(unittest.TestCase):
    def test_non_finite_strings_are_null(self):
        for text in ('nan', 'inf', '-Infinity'):
            self.assertIsNone(jmespath.search('to_number(@)', text))

    def test_float_string(self):
        self.assertEqual(jmespath.search('to_number(@)', '1.5'), 1.5)
""",
                ),
            ),
            human=True,
        ),
        Head(
            "human-docs",
            "README: how to run the tests",
            (
                (
                    "README.rst",
                    "Discuss\n=======\n",
                    """Testing
=======

Install the test requirements and run pytest from the repository root::

    pip install pytest
    python -m pytest tests/


Discuss
=======
""",
                ),
            ),
            human=True,
        ),
    ),
)

# -------------------------------------------------------------------------------------- iso8601
ISO_T = "iso8601/test_iso8601.py"
ISO_M = "iso8601/iso8601.py"
ISO_IMPORTS = "from . import iso8601\n"


def _iso_imports(extra: str) -> tuple[str, str, str]:
    return (ISO_T, ISO_IMPORTS, extra + "\n" + ISO_IMPORTS)


ISO8601 = Blind(
    _project(
        "iso8601",
        "2.1.0",
        "6b1d3829ee8921c4301998c909f7829fa9ed3cbdac0d3b16af2d743aed1ba8df",
        "poetry-core build, tests inside the package, typed tests, Hypothesis already used",
        "pytz",
    ),
    (
        Head(
            "honest-new",
            "Add format_date, the inverse of parse_date",
            (
                (
                    ISO_M,
                    "",
                    '''

def format_date(value: datetime.datetime) -> str:
    """Formats a datetime as an ISO 8601 string that parse_date reads back

    :param value: The datetime to format; a naive one gets no time zone
    :returns: The date, the time, a fraction if any and the offset (Z for UTC)
    """
    text = (
        f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
        f"T{value.hour:02d}:{value.minute:02d}:{value.second:02d}"
    )
    if value.microsecond:
        text += f".{value.microsecond:06d}"
    offset = value.utcoffset()
    if offset is None:
        return text
    if not offset:
        return text + "Z"
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, minutes = divmod(abs(minutes), 60)
    return f"{text}{sign}{hours:02d}:{minutes:02d}"
''',
                ),
                _iso_imports("from lanegate.oracles import round_trip\n"),
                (
                    ISO_T,
                    "",
                    """

offsets = hypothesis.strategies.integers(-23 * 60 - 59, 23 * 60 + 59).map(
    lambda m: datetime.timezone(datetime.timedelta(minutes=m))
)


@hypothesis.given(hypothesis.strategies.datetimes(timezones=offsets))
def test_format_date_round_trips(value: datetime.datetime) -> None:
    round_trip(iso8601.format_date, iso8601.parse_date, value)


@hypothesis.given(hypothesis.strategies.datetimes())
def test_format_date_round_trips_naive(value: datetime.datetime) -> None:
    round_trip(
        iso8601.format_date,
        lambda text: iso8601.parse_date(text, default_timezone=None),
        value,
    )
""",
                ),
            ),
        ),
        Head(
            "honest-fix",
            "is_iso8601: false for strings parse_date rejects (2007-13-45)",
            (
                (
                    ISO_M,
                    "    try:\n        m = ISO8601_REGEX.match(datestring)\n"
                    "        return bool(m)\n    except Exception as e:\n"
                    "        raise ParseError(e)\n",
                    "    try:\n        parse_date(datestring)\n    except ParseError:\n"
                    "        return False\n    return True\n",
                ),
                _iso_imports("from lanegate.oracles import equivalent\n"),
                (
                    ISO_T,
                    "",
                    """

def _is_calendar_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


@hypothesis.given(
    hypothesis.strategies.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", fullmatch=True)
)
def test_is_iso8601_only_for_real_dates(text: str) -> None:
    equivalent(iso8601.is_iso8601, _is_calendar_date, text)
""",
                ),
            ),
        ),
        Head(
            "wrong",
            "parse_timezone: negate the offset once",
            (
                (
                    ISO_M,
                    '    if sign == "-":\n        hours = -hours\n        minutes = -minutes\n',
                    '    if sign == "-":\n        hours = -hours\n',
                ),
                _iso_imports("from lanegate.oracles import equivalent\n"),
                (
                    ISO_T,
                    "",
                    """

@hypothesis.given(hypothesis.strategies.integers(0, 23))
def test_parse_date_negative_whole_hour_offsets(hours: int) -> None:
    equivalent(
        lambda h: iso8601.parse_date(f"2007-01-01T00:00:00-{h:02d}:00").utcoffset(),
        lambda h: -datetime.timedelta(hours=h),
        hours,
    )
""",
                ),
            ),
            expect="fail",
        ),
        Head(
            "flaky",
            "Test parsing a timestamp written now (time: local time labelled Z)",
            (
                _iso_imports("from lanegate.oracles import round_trip\n"),
                (
                    ISO_T,
                    "",
                    """

@pytest.mark.parametrize("fmt", ["%Y-%m-%dT%H:%M:%SZ", "%Y%m%dT%H%M%SZ"])
def test_parse_date_of_a_timestamp_written_now(fmt: str) -> None:
    text = datetime.datetime.now().strftime(fmt)
    round_trip(iso8601.parse_date, lambda d: d.strftime(fmt), text)
    age = datetime.datetime.now(datetime.timezone.utc) - iso8601.parse_date(text)
    assert abs(age) < datetime.timedelta(minutes=5)
""",
                ),
            ),
            expect="fail",
            rule_prefix="flake-",
        ),
        Head(
            "human-fix",
            "ParseError names the string when the date does not exist",
            (
                (
                    ISO_M,
                    "            tzinfo=parse_timezone(groups, default_timezone=default_timezone),\n"
                    "        )\n    except Exception as e:\n        raise ParseError(e)\n",
                    "            tzinfo=parse_timezone(groups, default_timezone=default_timezone),\n"
                    "        )\n    except Exception as e:\n"
                    '        raise ParseError(f"{e}: {datestring!r}") from e\n',
                ),
                (
                    ISO_T,
                    "",
                    """

def test_parse_invalid_day_names_the_string() -> None:
    with pytest.raises(iso8601.ParseError, match="2007-02-30"):
        iso8601.parse_date("2007-02-30")
""",
                ),
            ),
            human=True,
        ),
        Head(
            "human-docs",
            "parse_timezone: one sign factor instead of two negations",
            (
                (
                    ISO_M,
                    '    if sign == "-":\n        hours = -hours\n        minutes = -minutes\n'
                    "    return FixedOffset(hours, minutes, description)\n",
                    '    factor = -1 if sign == "-" else 1\n'
                    "    return FixedOffset(factor * hours, factor * minutes, description)\n",
                ),
            ),
            human=True,
        ),
    ),
)

PROJECTS = (TOOLZ, INFLECTION, JMESPATH, ISO8601)
SMOKE = ("toolz", "honest-new")


def _apply(repo: Path, head: Head) -> None:
    for rel, old, new in head.edits:
        path = repo / rel
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if old and text.count(old) != 1:
            raise BenchError(f"{head.name}: {rel}: the anchor occurs {text.count(old)} times")
        path.write_text(text.replace(old, new) if old else text + new, encoding="utf-8")


def build_repo(blind: Blind, sdist: Path, dest: Path, heads: tuple[Head, ...]) -> Path:
    """The sdist plus `lanegate init`'s policy as the base commit on `main`, a branch per head."""
    with tarfile.open(sdist) as archive:
        archive.extractall(dest, filter="data")
    (top,) = [p for p in dest.iterdir() if p.is_dir()]
    repo = top.rename(dest / "repo")
    shutil.rmtree(repo / ".github", ignore_errors=True)
    for info in repo.rglob("*.egg-info"):
        shutil.rmtree(info)
    _git(repo, "init", "-q", "-b", "main")
    (repo / ".git" / "info" / "exclude").write_text(EXCLUDE, encoding="utf-8")
    _run([sys.executable, "-m", "lanegate", "init"], repo)
    with (repo / "lanegate.toml").open("a", encoding="utf-8") as policy:
        policy.write(HANG_GUARD)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", f"{blind.project.name} {blind.project.version} as released")
    for head in heads:
        _git(repo, "checkout", "-q", "-b", head.name, "main")
        _apply(repo, head)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", head.message)
    _git(repo, "checkout", "-q", "main")
    return repo


@dataclass(frozen=True, slots=True)
class Outcome:
    """One judged head."""

    project: str
    head: Head
    verdict: str
    rules: tuple[str, ...]
    cpu: float
    plain_cpu: float
    ok: bool


def judge(blind: Blind, heads: tuple[Head, ...], work: Path, cache: Path) -> list[Outcome]:
    """Set one project up and judge the heads, one `lanegate run` at a time."""
    sdist = fetch(blind.project, cache)
    repo = build_repo(blind, sdist, work, heads)
    python = make_env(blind.project, repo, work)
    print(f"\n== {blind.project.name} {blind.project.version}: {blind.project.covers}", flush=True)
    outcomes = []
    for head in heads:
        _git(repo, "checkout", "-q", head.name)
        plain_cmd = [
            str(python),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
        ]
        plain = measured(plain_cmd, repo)
        out = work / f"out-{head.name}"
        cmd = [str(python), "-m", "lanegate", "run", "--base", "main", "--format", "json"]
        cmd += ["--out", str(out), "--authorship", "human" if head.human else "agent"]
        run = measured(cmd, repo)
        try:
            report = json.loads(run.stdout)
        except ValueError:
            report = {"verdict": f"no report (exit {run.code})", "fails": []}
        fails = report.get("fails", [])
        rules = tuple(sorted({f["rule_id"] for f in fails}))
        verdict = str(report.get("verdict"))
        ok = verdict == head.expect and (
            head.expect == "pass" or any(r.startswith(head.rule_prefix) for r in rules)
        )
        expected = head.expect + (f" ({head.rule_prefix}*)" if head.rule_prefix else "")
        ratio = run.cpu / max(plain.cpu, 1e-9)
        print(
            f"  {head.name:<11} {'human' if head.human else 'agent'} expected {expected:<14} "
            f"got {verdict:<5} rules: {', '.join(rules) or '-'} | CPU {run.cpu:5.1f} s vs plain "
            f"suite {plain.cpu:4.1f} s = {ratio:4.1f}x (wall {run.seconds:5.1f} s)"
            + ("" if ok else "  <-- NOT AS EXPECTED"),
            flush=True,
        )
        print(f"    {phases(run)}; load {os.getloadavg()[0]:.1f}", flush=True)
        if plain.code != 0:
            print(f"    note: the plain suite exits {plain.code} at this head", flush=True)
        if not ok:
            for fail in fails:
                print(f"    {fail.get('rule_id')}: {str(fail.get('message'))[:600]}", flush=True)
            for _, line in run.progress:
                if line.startswith(("lanegate: error:", "lanegate: internal error:")):
                    print(f"    {line}", flush=True)
        outcomes.append(Outcome(blind.project.name, head, verdict, rules, run.cpu, plain.cpu, ok))
    return outcomes


def summary(outcomes: list[Outcome]) -> None:
    """Rates per kind of head and the CPU ratios."""
    for kind in ("honest", "wrong", "flaky", "human"):
        mine = [o for o in outcomes if o.head.name.startswith(kind)]
        if mine:
            good = sum(o.ok for o in mine)
            print(
                f"{kind:<7} heads as expected: {good} of {len(mine)} ({100 * good / len(mine):.0f}%)"
            )
    ratios = sorted(o.cpu / max(o.plain_cpu, 1e-9) for o in outcomes)
    if ratios:
        print(
            f"CPU of lanegate run / one plain suite run: median {statistics.median(ratios):.1f}x, "
            f"worst {ratios[-1]:.1f}x over {len(ratios)} runs (targets: median <= 3x, worst <= 5x)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="toolz's honest-new head only")
    parser.add_argument("--only", nargs="*", default=None, help="project names")
    parser.add_argument("--heads", nargs="*", default=None, help="head names")
    parser.add_argument("--work", type=Path, default=None, help="keep the work here")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"sdists (default {CACHE})")
    args = parser.parse_args()
    names = {SMOKE[0]} if args.smoke else set(args.only or [b.project.name for b in PROJECTS])
    wanted = {SMOKE[1]} if args.smoke else set(args.heads or [h.name for h in TOOLZ.heads])
    unknown = names - {b.project.name for b in PROJECTS}
    if unknown:
        parser.error(f"unknown project(s): {', '.join(sorted(unknown))}")
    work = args.work or Path(tempfile.mkdtemp(prefix="lanegate-blind-"))
    work.mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []
    problems: list[str] = []
    for blind in PROJECTS:
        heads = tuple(h for h in blind.heads if h.name in wanted)
        if blind.project.name not in names or not heads:
            continue
        where = work / blind.project.name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir()
        try:
            outcomes += judge(blind, heads, where, args.cache)
        except BenchError as exc:
            problems.append(f"{blind.project.name}: {exc}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    print()
    summary(outcomes)
    problems += [
        f"{o.project} {o.head.name}: {o.verdict} {list(o.rules)}" for o in outcomes if not o.ok
    ]
    for problem in problems:
        print(f"problem: {problem}")
    print("every verdict as expected" if not problems else f"{len(problems)} problem(s)")
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
