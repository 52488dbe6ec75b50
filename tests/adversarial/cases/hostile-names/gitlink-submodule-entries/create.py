
import os
import subprocess
sha = "0123456789abcdef0123456789abcdef01234567"
for path in ("tests/vendored", "tests/test_vendored.py", "demo_lib/vendored"):
    os.makedirs(path, exist_ok=True)
    subprocess.run(["git", "update-index", "--add", "--cacheinfo", "160000,%s,%s" % (sha, path)],
                   check=True)
