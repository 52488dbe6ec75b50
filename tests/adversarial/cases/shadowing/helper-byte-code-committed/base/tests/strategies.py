from hypothesis import strategies as st

letters = st.text(alphabet="abc", max_size=12)
