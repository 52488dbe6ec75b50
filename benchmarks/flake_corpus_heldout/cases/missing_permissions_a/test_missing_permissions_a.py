import pytest

from missing_permissions_a_app import PermissionDenied, require


def test_error_message_lists_missing():
    with pytest.raises(PermissionDenied) as exc:
        require(granted=["read"], needed=["read", "write", "delete"])
    assert str(exc.value) == "missing permissions: delete, write"
