"""Restores home-directory backups."""
import io
import tarfile


def make_backup(path, files, uid):
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.uid, info.gid, info.mode = len(data), uid, uid, 0o640
            tf.addfile(info, io.BytesIO(data))


def restore(path, dest):
    with tarfile.open(path) as tf:
        tf.extractall(dest, numeric_owner=True)
