from hypothesis import given, settings, strategies as st

from kvline import dump_pairs, load_pairs
from lanegate.oracles import round_trip

atoms = st.text(alphabet=st.characters(blacklist_characters=";=:", blacklist_categories=("Cs",)), max_size=10)


@settings(deadline=None)
@given(st.dictionaries(atoms.filter(bool), atoms, max_size=6))
def test_dump_load_round_trip(pairs):
    round_trip(dump_pairs, load_pairs, pairs)
