import multiprocessing

import pytest

import preview_server_process_leak_a_preview as preview


@pytest.fixture
def server():
    srv = preview.PreviewServer().start()
    yield srv
    srv.close()


def test_index_build_leaves_no_child_processes():
    index = preview.build_index(["getting started", "api reference guide"])
    assert index == {"getting started": 2, "api reference guide": 3}
    assert multiprocessing.active_children() == []


def test_preview_server_starts(server):
    assert server.proc.is_alive()
    assert server.proc.name == "docs-preview"
