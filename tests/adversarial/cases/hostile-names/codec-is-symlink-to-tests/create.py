import os

LINKS = {
    'demo_lib/codec.py': '../tests/data/codec_impl.py',
}
for rel, target in LINKS.items():
    if os.path.lexists(rel):
        os.remove(rel)
    os.makedirs(os.path.dirname(rel) or '.', exist_ok=True)
    os.symlink(target, rel)
