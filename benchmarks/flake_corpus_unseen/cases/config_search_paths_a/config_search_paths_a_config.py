"""Find the tool's config file: project directory first, then the user's config directory."""
from pathlib import Path


def search_path(project_dir, user_dir, extra=()):
    dirs = [Path(project_dir), Path(user_dir), *map(Path, extra)]
    return list(dict.fromkeys(d.resolve() for d in dirs))


def find_config(project_dir, user_dir, extra=(), name="lintrc.toml"):
    for d in search_path(project_dir, user_dir, extra):
        candidate = d / name
        if candidate.exists():
            return candidate
    return None
