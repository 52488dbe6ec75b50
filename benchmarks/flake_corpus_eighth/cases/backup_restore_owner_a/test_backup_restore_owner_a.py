import os

import backup_restore_owner_a_backup as backup


def test_restore_keeps_owner(tmp_path):
    archive = tmp_path / "home.tar.gz"
    backup.make_backup(archive, {"notes.txt": b"buy milk\n"}, uid=4242)
    backup.restore(archive, tmp_path / "restored")
    st = os.stat(tmp_path / "restored" / "notes.txt")
    expected_uid = 4242 if os.geteuid() == 0 else os.geteuid()  # only root can chown
    assert st.st_uid == expected_uid
    assert (tmp_path / "restored" / "notes.txt").read_bytes() == b"buy milk\n"
