import os
import stat

from upload_umask_a_storage import harden_process, save_upload


def test_uploaded_file_is_world_readable(tmp_path):
    path = save_upload(tmp_path, "avatar.png", b"\x89PNG")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644


def test_hardened_process_creates_private_files(tmp_path):
    previous = harden_process()
    try:
        path = save_upload(tmp_path, "secret.key", b"k")
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    finally:
        os.umask(previous)
