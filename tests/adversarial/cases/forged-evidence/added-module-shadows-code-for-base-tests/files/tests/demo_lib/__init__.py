import os

_here = os.path.dirname(os.path.abspath(__file__))
if os.path.exists(os.path.join(_here, "present.txt")):
    __path__[:] = [os.path.join(os.path.dirname(os.path.dirname(_here)), "demo_lib")]
