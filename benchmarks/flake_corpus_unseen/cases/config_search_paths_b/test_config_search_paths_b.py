from config_search_paths_b_config import find_config


def test_project_config_wins(tmp_path):
    project, user = tmp_path / "project", tmp_path / "home" / ".config" / "lint"
    for d in (project, user):
        d.mkdir(parents=True)
        (d / "lintrc.toml").write_text(f"# {d.name}\n")
    found = find_config(project, user, extra=[project])
    assert found == (project / "lintrc.toml").resolve()
