import os


def save_upload(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def harden_process():
    """Make every file this worker creates private. Returns the previous umask."""
    return os.umask(0o077)
