import os

LINKS = {
    'tests/data/outside': '../../../victim',
}
for rel, target in LINKS.items():
    if os.path.lexists(rel):
        os.remove(rel)
    os.makedirs(os.path.dirname(rel) or '.', exist_ok=True)
    os.symlink(target, rel)
