import os
import time

import pytest

import unix_socket_fixed_path_a_agent as agent_mod


@pytest.fixture
def agent(tmp_path):
    a = agent_mod.Agent(str(tmp_path / "agent.sock"))
    yield a
    a.close()


def test_agent_answers_status(agent):
    for expected_jobs in range(1, 11):
        status = agent_mod.request_status(agent.path)
        assert status == {"pid": os.getpid(), "jobs": expected_jobs}
        time.sleep(0.003)  # the CLI polls the agent while a job runs
