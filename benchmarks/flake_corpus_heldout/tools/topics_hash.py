TOPICS = []
def T(**kw): TOPICS.append(kw)

T(topic="tag_normalize", cls="hash-seed", node="test_normalize_tags_keeps_first_seen_order",
  trigger="dedupe through set(): iteration order of 2 str depends on PYTHONHASHSEED (about 44% of seeds)",
  robust="PYTHONHASHSEED (dict.fromkeys keeps insertion order)",
  common={},
  flaky={"appmod.py": '''
def normalize_tags(tags):
    return ",".join(set(t.strip().lower() for t in tags if t.strip()))
''', "TEST": '''
from appmod import normalize_tags


def test_normalize_tags_keeps_first_seen_order():
    assert normalize_tags(["Beta", "alpha ", "beta", ""]) == "beta,alpha"
'''},
  stable={"appmod.py": '''
def normalize_tags(tags):
    return ",".join(dict.fromkeys(t.strip().lower() for t in tags if t.strip()))
''', "TEST": '''
from appmod import normalize_tags


def test_normalize_tags_keeps_first_seen_order():
    assert normalize_tags(["Beta", "alpha ", "beta", ""]) == "beta,alpha"
'''})

T(topic="query_cache_key", cls="hash-seed", node="test_cache_key_ignores_param_order",
  trigger="set iteration order depends on insertion order when str hashes collide in the small table (about 30% of hash seeds)",
  robust="PYTHONHASHSEED (sorted key)",
  common={},
  flaky={"appmod.py": '''
def cache_key(endpoint, params):
    return endpoint + "?" + "&".join(set(params))
''', "TEST": '''
from appmod import cache_key


def test_cache_key_ignores_param_order():
    a = cache_key("/prices", ["region", "tier", "currency"])
    b = cache_key("/prices", ["currency", "tier", "region"])
    assert a == b
'''},
  stable={"appmod.py": '''
def cache_key(endpoint, params):
    return endpoint + "?" + "&".join(sorted(set(params)))
''', "TEST": '''
from appmod import cache_key


def test_cache_key_ignores_param_order():
    a = cache_key("/prices", ["region", "tier", "currency"])
    b = cache_key("/prices", ["currency", "tier", "region"])
    assert a == b
'''})

T(topic="user_sharding", cls="hash-seed", node="test_users_land_on_different_shards",
  trigger="shard = hash(str) % 4 changes with PYTHONHASHSEED; alice and bob share a shard for about 25% of seeds",
  robust="PYTHONHASHSEED (zlib.crc32 is stable)",
  common={},
  flaky={"appmod.py": '''
SHARDS = 4


def shard_for(user_id):
    return hash(user_id) % SHARDS
''', "TEST": '''
from appmod import SHARDS, shard_for


def test_users_land_on_different_shards():
    assert 0 <= shard_for("alice") < SHARDS
    assert shard_for("alice") != shard_for("bob")
'''},
  stable={"appmod.py": '''
import zlib

SHARDS = 4


def shard_for(user_id):
    return zlib.crc32(user_id.encode()) % SHARDS
''', "TEST": '''
from appmod import SHARDS, shard_for


def test_users_land_on_different_shards():
    assert 0 <= shard_for("alice") < SHARDS
    assert shard_for("alice") != shard_for("bob")
'''})

T(topic="missing_permissions", cls="hash-seed", node="test_error_message_lists_missing",
  trigger="message built from a set difference of str; its order follows PYTHONHASHSEED (about 44% of seeds)",
  robust="PYTHONHASHSEED (sorted before formatting)",
  common={},
  flaky={"appmod.py": '''
class PermissionDenied(Exception):
    pass


def require(granted, needed):
    missing = set(needed) - set(granted)
    if missing:
        raise PermissionDenied("missing permissions: " + ", ".join(missing))
''', "TEST": '''
import pytest

from appmod import PermissionDenied, require


def test_error_message_lists_missing():
    with pytest.raises(PermissionDenied) as exc:
        require(granted=["read"], needed=["read", "write", "delete"])
    assert str(exc.value) == "missing permissions: delete, write"
'''},
  stable={"appmod.py": '''
class PermissionDenied(Exception):
    pass


def require(granted, needed):
    missing = set(needed) - set(granted)
    if missing:
        raise PermissionDenied("missing permissions: " + ", ".join(sorted(missing)))
''', "TEST": '''
import pytest

from appmod import PermissionDenied, require


def test_error_message_lists_missing():
    with pytest.raises(PermissionDenied) as exc:
        require(granted=["read"], needed=["read", "write", "delete"])
    assert str(exc.value) == "missing permissions: delete, write"
'''})

T(topic="enum_flags_render", cls="unordered", node="test_render_channels",
  trigger="set of Enum members: Enum hash is hash(name), so iteration order follows PYTHONHASHSEED",
  robust="PYTHONHASHSEED (renders in declaration order)",
  common={},
  flaky={"appmod.py": '''
import enum


class Channel(enum.Enum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"


def enabled_channels(prefs):
    return {Channel(p) for p in prefs}


def render(channels):
    return " + ".join(c.value for c in channels)
''', "TEST": '''
from appmod import enabled_channels, render


def test_render_channels():
    assert render(enabled_channels(["sms", "email"])) == "email + sms"
'''},
  stable={"appmod.py": '''
import enum


class Channel(enum.Enum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"


def enabled_channels(prefs):
    return {Channel(p) for p in prefs}


def render(channels):
    return " + ".join(c.value for c in Channel if c in channels)
''', "TEST": '''
from appmod import enabled_channels, render


def test_render_channels():
    assert render(enabled_channels(["sms", "email"])) == "email + sms"
'''})

T(topic="cart_total_float", cls="float", node="test_cart_total",
  trigger="float sum over a str-keyed set: summation order follows PYTHONHASHSEED; 0.7+0.2+0.1 gives 0.9999999999999999 (about 1/3 of seeds)",
  robust="PYTHONHASHSEED, summation order (math.fsum)",
  common={},
  flaky={"appmod.py": '''
PRICES = {"apple": 0.1, "melon": 0.7, "pear": 0.2}


def cart_total(skus):
    return sum(PRICES[s] for s in set(skus))
''', "TEST": '''
from appmod import cart_total


def test_cart_total():
    assert cart_total(["apple", "melon", "pear", "apple"]) == 1.0
'''},
  stable={"appmod.py": '''
import math

PRICES = {"apple": 0.1, "melon": 0.7, "pear": 0.2}


def cart_total(skus):
    return math.fsum(PRICES[s] for s in set(skus))
''', "TEST": '''
from appmod import cart_total


def test_cart_total():
    assert cart_total(["apple", "melon", "pear", "apple"]) == 1.0
'''})

T(topic="leaderboard_ties", cls="hash-seed", node="test_leaderboard_order",
  trigger="stable sort of names taken from a set: tied scores keep set order, which follows PYTHONHASHSEED",
  robust="PYTHONHASHSEED (explicit name tiebreak)",
  common={},
  flaky={"appmod.py": '''
def leaderboard(scores):
    players = set(scores)
    return sorted(players, key=lambda p: -scores[p])
''', "TEST": '''
from appmod import leaderboard


def test_leaderboard_order():
    scores = {"dana": 7, "carol": 9, "erin": 7, "bo": 3}
    assert leaderboard(scores) == ["carol", "dana", "erin", "bo"]
'''},
  stable={"appmod.py": '''
def leaderboard(scores):
    players = set(scores)
    return sorted(players, key=lambda p: (-scores[p], p))
''', "TEST": '''
from appmod import leaderboard


def test_leaderboard_order():
    scores = {"dana": 7, "carol": 9, "erin": 7, "bo": 3}
    assert leaderboard(scores) == ["carol", "dana", "erin", "bo"]
'''})

T(topic="export_files_order", cls="io", node="test_parts_are_merged_in_write_order",
  trigger="os.listdir order on ext4 follows a hash of random (uuid) file names, not creation order (about 50%)",
  robust="directory order (sorted by sequence number)",
  common={},
  flaky={"appmod.py": '''
import os
import uuid


def write_parts(directory, chunks):
    for seq, chunk in enumerate(chunks):
        name = f"{uuid.uuid4().hex[:12]}-{seq:04d}.part"
        with open(os.path.join(directory, name), "w") as fh:
            fh.write(chunk)


def merge_parts(directory):
    out = []
    for name in os.listdir(directory):
        with open(os.path.join(directory, name)) as fh:
            out.append(fh.read())
    return "".join(out)
''', "TEST": '''
from appmod import merge_parts, write_parts


def test_parts_are_merged_in_write_order(tmp_path):
    write_parts(tmp_path, ["header\\n", "row1\\n"])
    assert merge_parts(tmp_path) == "header\\nrow1\\n"
'''},
  stable={"appmod.py": '''
import os
import uuid


def write_parts(directory, chunks):
    for seq, chunk in enumerate(chunks):
        name = f"{uuid.uuid4().hex[:12]}-{seq:04d}.part"
        with open(os.path.join(directory, name), "w") as fh:
            fh.write(chunk)


def merge_parts(directory):
    out = []
    names = sorted(os.listdir(directory), key=lambda n: int(n.rsplit("-", 1)[1].split(".")[0]))
    for name in names:
        with open(os.path.join(directory, name)) as fh:
            out.append(fh.read())
    return "".join(out)
''', "TEST": '''
from appmod import merge_parts, write_parts


def test_parts_are_merged_in_write_order(tmp_path):
    write_parts(tmp_path, ["header\\n", "row1\\n"])
    assert merge_parts(tmp_path) == "header\\nrow1\\n"
'''})
