import py_compile, subprocess, os, tempfile
d = tempfile.mkdtemp(); p = os.path.join(d, "strategies.py")
open(p, "w").write('from hypothesis import strategies as st\n\nletters = st.text(alphabet="abc", max_size=1)\n')
os.makedirs("tests/__pycache__", exist_ok=True)
py_compile.compile(p, cfile="tests/__pycache__/strategies.cpython-311.pyc", invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH, doraise=True)
subprocess.run(["git", "add", "-f", "tests/__pycache__/strategies.cpython-311.pyc"], check=True)
