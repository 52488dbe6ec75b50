from hypothesis import given, settings, strategies as st

from lanegate.oracles import round_trip
from netaddr import format_hostport, parse_hostport

hosts = st.from_regex(r"[a-z][a-z0-9.-]{0,20}", fullmatch=True)


@settings(deadline=None)
@given(hosts, st.integers(1, 65535))
def test_hostport_round_trip(host, port):
    round_trip(lambda hp: format_hostport(*hp), parse_hostport, (host, port))
