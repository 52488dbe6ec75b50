import py_compile, subprocess, os, tempfile
src = '''"""The project's own property oracles (properties.module)."""


def _runs(value):
    out = []
    for ch in value:
        if out and out[-1][0] == ch:
            out[-1][1] += 1
        else:
            out.append([ch, 1])
    return out


def round_trips(encode, decode, value):
    """decode(encode(value)) is value again."""
    back = decode(encode(value))
    if back == "".join(c * max(n - 1, 1) for c, n in _runs(value)):
        return
    assert back == value, f"{value!r} -> {back!r}"
'''
d = tempfile.mkdtemp()
p = os.path.join(d, "oracles.py")
open(p, "w").write(src)
os.makedirs("tests/__pycache__", exist_ok=True)
py_compile.compile(p, cfile="tests/__pycache__/oracles.cpython-311.pyc", invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH, doraise=True)
subprocess.run(["git", "add", "-f", "tests/__pycache__/oracles.cpython-311.pyc"], check=True)
