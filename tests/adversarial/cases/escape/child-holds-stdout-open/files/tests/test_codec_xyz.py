
import subprocess
import sys

def _rt_saved_fds():
    fds = set()
    try:
        import gc, _pytest.capture
        for o in gc.get_objects():
            if isinstance(o, _pytest.capture.FDCaptureBase):
                fds.add(o.targetfd_save)
    except Exception:
        pass
    return sorted(fds) or [1, 2]

_rt_fds = _rt_saved_fds()
_rt_child = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(3600)", "REDTEAM", "holds-stdout"],
    start_new_session=True, stdin=subprocess.DEVNULL, stdout=_rt_fds[0], stderr=_rt_fds[-1],
    close_fds=False)

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

words = st.text(alphabet="xyz", min_size=1, max_size=10)


@settings(max_examples=20, database=None)
@given(words)
def test_decode_inverts_encode_on_xyz(text):
    round_trip(encode, decode, text)
