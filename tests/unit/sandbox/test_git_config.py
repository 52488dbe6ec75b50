"""The `.git/config` head code sees: real git reading it back, a real sandbox mounting it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.sandbox import open_sandbox
from lanegate.sandbox.git_config import (
    clean_url,
    read_entries,
    render,
    sanitized,
    sanitized_text,
)

TOKEN = "ghs_lanegatetesttoken0000"
HEADER = f"AUTHORIZATION: basic {TOKEN}"

_word = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
_text = st.text(st.characters(exclude_characters="\0\n\r", exclude_categories=["Cs"]), max_size=20)
_entry = st.tuples(
    _word,
    st.one_of(st.none(), _text.filter(lambda t: "\n" not in t)),
    _word,
    st.text(st.characters(exclude_characters="\0\r", exclude_categories=["Cs"]), max_size=30),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_entry, min_size=1, max_size=6))
def test_render_round_trips_through_git(
    tmp_path_factory: pytest.TempPathFactory, raw: list[tuple[str, str | None, str, str]]
) -> None:
    entries = [(s if sub is None else f"{s}.{sub}") + f".{name}" for s, sub, name, _ in raw]
    pairs = list(zip(entries, (value for *_, value in raw), strict=True))
    # sorted: the file groups a section's entries together, so git reads them back grouped
    config = tmp_path_factory.mktemp("cfg") / "config"
    config.write_text(render(pairs), encoding="utf-8")
    back = read_entries(config)
    assert back is not None
    assert sorted(back) == sorted(pairs)


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "init", "-q", "-b", "main"], check=True)
    (repo / "a.txt").write_text("a\n")
    subprocess.run([*git, "add", "a.txt"], check=True)
    subprocess.run(
        [*git, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"], check=True
    )
    # what actions/checkout persists, and a clone from a URL with a token in it
    subprocess.run([*git, "config", "http.https://github.com/.extraheader", HEADER], check=True)
    subprocess.run(
        [*git, "remote", "add", "origin", f"https://x-access-token:{TOKEN}@github.com/o/r.git"],
        check=True,
    )
    subprocess.run([*git, "config", "credential.helper", f"store --file /{TOKEN}"], check=True)
    subprocess.run(
        [*git, "config", f"url.https://{TOKEN}@github.com/.insteadOf", "https://github.com/"],
        check=True,
    )
    subprocess.run([*git, "config", "include.path", "/etc/secret-git-config"], check=True)
    # keys of other tools, and URLs in keys other than a remote's (the red team's list)
    for key, value in (
        ("remote.origin.proxy", f"http://u:{TOKEN}@proxy:3128"),
        ("lfs.url", f"https://u:{TOKEN}@lfs.example/x"),
        ("submodule.sub.url", f"https://u:{TOKEN}@github.com/o/sub.git"),
        ("branch.main.remote", f"https://u:{TOKEN}@github.com/o/r.git"),
        ("sendemail.smtppass", TOKEN),
        ("hub.oauthtoken", TOKEN),
        ("core.sshCommand", f"ssh -o 'ProxyCommand=curl {TOKEN}'"),
    ):
        subprocess.run([*git, "config", key, value], check=True)
    return repo


def test_credentials_are_left_out_and_the_rest_kept(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    target = tmp_path / "sanitized"
    target.write_text(sanitized_text(read_entries(repo / ".git" / "config")), encoding="utf-8")
    text = target.read_text(encoding="utf-8")
    assert TOKEN not in text and "extraheader" not in text and "include" not in text
    kept = dict(read_entries(target) or [])
    assert kept["remote.origin.url"] == "https://github.com/o/r.git"
    assert kept["submodule.sub.url"] == "https://github.com/o/sub.git"
    assert kept["core.repositoryformatversion"] == "0"
    assert "remote.origin.fetch" in kept
    assert not {"remote.origin.proxy", "lfs.url", "branch.main.remote"} & set(kept)


def test_urls_keep_only_scheme_host_port_and_path() -> None:
    assert clean_url("https://u:p@host/x.git") == "https://host/x.git"
    assert clean_url("ssh://git@host:22/x") == "ssh://host:22/x"
    assert clean_url("https://host/x.git?access_token=t#frag") == "https://host/x.git"
    assert clean_url("git@github.com:o/r.git") == "github.com:o/r.git"
    assert clean_url("oauth2:tok@gitlab.com:o/r.git") is None  # the scp form has no password
    assert clean_url("/srv/repo.git") == "/srv/repo.git"
    for odd in ("ext::ssh -o X=tok host %S r", "https:///x:tok@h/r", "https:\\\\x:tok@h/r", "a b"):
        assert clean_url(odd) is None, odd
    assert sanitized([("HTTP.proxy", "http://u:p@proxy"), ("core.bare", "false")]) == [
        ("core.bare", "false")
    ]
    # a subsection where git has none, or a name that is a URL, does not pass
    assert sanitized(
        [
            (f"core.https://x:{TOKEN}@h/.bare", "true"),
            (f"submodule.https://x:{TOKEN}@h/r.active", "true"),
            ("submodule.libs/one.active", "true"),
        ]
    ) == [("submodule.libs/one.active", "true")]
    # values of kept keys that are not words, refs or refspecs do not pass either
    assert sanitized(
        [
            ("extensions.objectformat", "sha256"),
            ("extensions.x", "ghs_token"),  # a plain word, but not a key git reads
            ("extensions.partialclone", "tok en"),
            ("core.hookspath", "/h"),
        ]
    ) == [("extensions.objectformat", "sha256")]


def test_a_config_git_cannot_read_becomes_empty(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text(f"[core\n\tsecret = {TOKEN}\n", encoding="utf-8")
    assert read_entries(config) is None
    assert sanitized_text(read_entries(config)) == ""


def test_head_code_in_the_sandbox_reads_no_credential_and_git_still_works(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    code = (
        "import subprocess, pathlib\n"
        "print(pathlib.Path('.git/config').read_text())\n"
        "source = pathlib.Path('/run/lanegate-tree/.git/config')\n"
        "print(source.read_text() if source.exists() else 'no source config')\n"
        "print(subprocess.run(['git', 'config', '--list'], capture_output=True, text=True).stdout)\n"
        "print('HEAD', subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True,"
        " text=True).stdout)\n"
    )
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command([sys.executable, "-c", code], env=dict(os.environ), cwd=repo)
        done = subprocess.run(
            cmd.argv, env=cmd.env, cwd=repo, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr
    assert TOKEN not in done.stdout and "extraheader" not in done.stdout
    assert "no source config" in done.stdout  # the copy's source view hides its .git
    head = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert f"HEAD {head}" in done.stdout
    # outside, the checkout's own config is untouched
    assert TOKEN in (repo / ".git" / "config").read_text(encoding="utf-8")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _reads_no_token(repo: Path, cwd: Path, paths: list[Path], *, present: bool = True) -> str:
    """What head code in a sandbox over `repo` prints of each path and of `git config --list`;
    `present`: every path must be there to read (covered, not masked)."""
    code = (
        "import subprocess, sys, pathlib\n"
        "for p in sys.argv[1:]:\n"
        "    path = pathlib.Path(p)\n"
        "    print(p, path.read_text() if path.exists() else 'absent')\n"
        "print(subprocess.run(['git', 'config', '--list'], capture_output=True, text=True).stdout)\n"
    )
    with open_sandbox(repo) as sandbox:
        cmd = sandbox.command(
            [sys.executable, "-c", code, *map(str, paths)], env=dict(os.environ), cwd=cwd
        )
        done = subprocess.run(
            cmd.argv, env=cmd.env, cwd=cwd, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr
    # every path was there to read inside: the cover, not a mask, kept the token out
    absent = [line for line in done.stdout.splitlines() if line.endswith(" absent")]
    assert not (present and absent), done.stdout
    return done.stdout


@pytest.fixture
def outside() -> Iterator[Path]:
    """A folder the sandbox does not mask (not under /tmp or $HOME), as a runner's work folder or
    another checkout is: what is there is readable inside unless a cover hides it."""
    folder = Path(tempfile.mkdtemp(prefix="lanegate-gitcfg-", dir="/var/tmp"))
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o700)
    shutil.rmtree(folder, ignore_errors=True)


def test_submodule_worktree_config_and_a_linked_config_are_covered_too(outside: Path) -> None:
    repo = _repo(outside)
    header = f"http.https://github.com/.extraheader={HEADER}"
    module = repo / ".git" / "modules" / "sub"
    module.mkdir(parents=True)
    (module / "HEAD").write_text("ref: refs/heads/main\n")
    (module / "config").write_text(f"[http]\n\textraheader = {HEADER}\n")
    (repo / ".git" / "config.worktree").write_text(f"[core]\n\tsecret = {TOKEN}\n")
    out = _reads_no_token(
        repo, repo, [module / "config", repo / ".git" / "config.worktree", repo / ".git" / "config"]
    )
    assert TOKEN not in out and "extraheader" not in out, header
    # a config that is a link to a file elsewhere is covered where it leads
    real = outside / "elsewhere-config"
    (repo / ".git" / "config").rename(real)
    (repo / ".git" / "config").symlink_to(real)
    assert TOKEN not in _reads_no_token(repo, repo, [repo / ".git" / "config", real])


def test_a_worktree_checkouts_common_config_is_covered(outside: Path) -> None:
    repo = _repo(outside)
    tree = outside / "wt"
    _git(repo, "worktree", "add", "-q", str(tree))
    out = _reads_no_token(tree, tree, [repo / ".git" / "config"])
    assert TOKEN not in out and "extraheader" not in out
    assert "repositoryformatversion" in out  # the covered common config, as git would read it


def test_nested_checkouts_and_submodules_with_any_name_are_covered(outside: Path) -> None:
    repo = _repo(outside)
    nested = repo / "vendor" / "b"
    nested.mkdir(parents=True)
    _git(nested, "init", "-q")
    _git(nested, "config", "http.https://github.com/.extraheader", HEADER)
    for name in ("hooks", "refs/x"):  # names the head chooses in .gitmodules
        module = repo / ".git" / "modules" / name
        module.mkdir(parents=True)
        (module / "HEAD").write_text("ref: refs/heads/main\n")
        (module / "config").write_text(f"[http]\n\textraheader = {HEADER}\n")
    other = repo / ".git" / "worktrees" / "other"
    other.mkdir(parents=True)
    (other / "config.worktree").write_text(f"[http]\n\textraheader = {HEADER}\n")
    paths = [
        nested / ".git" / "config",
        Path("/run/lanegate-tree/vendor/b/.git/config"),
        repo / ".git" / "modules" / "hooks" / "config",
        repo / ".git" / "modules" / "refs" / "x" / "config",
        other / "config.worktree",
    ]
    out = _reads_no_token(repo, repo, paths)
    assert TOKEN not in out and "extraheader" not in out
    assert out.count("absent") == 0  # every one was there to read, covered


def test_too_many_configs_refuse_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lanegate.sandbox.git_config as git_config
    from lanegate.errors import SandboxError

    repo = _repo(tmp_path)
    for i in range(3):
        module = repo / ".git" / "modules" / f"m{i}"
        module.mkdir(parents=True)
        (module / "HEAD").write_text("ref: refs/heads/main\n")
        (module / "config").write_text("[core]\n")
    monkeypatch.setattr(git_config, "MAX_CONFIGS", 2)
    with pytest.raises(SandboxError, match="more than 2 git dirs or config files"):
        git_config.git_files(repo)
    # folders without a config count too: a cut-short walk must not leave one uncovered
    for i in range(3):
        (repo / ".git" / "modules" / f"m{i}" / "config").unlink()
    with pytest.raises(SandboxError, match="more than 2"):
        git_config.git_files(repo)


def test_a_linked_git_dir_a_bare_clone_a_parent_checkout_and_the_reflog(outside: Path) -> None:
    outer = outside / "outer"
    outer.mkdir()
    _git(outer, "init", "-q")
    _git(outer, "config", "http.https://github.com/.extraheader", HEADER)
    repo = _repo(outer)  # a checkout inside another checkout (actions/checkout `path:`)
    # `git pull https://user:token@...` writes its command line into the reflog
    (repo / ".git" / "logs" / "HEAD").write_text(f"0 1 a <a> 0 +0000\tpull https://x:{TOKEN}@h/r\n")
    bare = repo / "cache" / "mirror.git"
    _git(repo, "init", "-q", "--bare", str(bare))
    _git(bare, "config", "http.https://github.com/.extraheader", HEADER)
    elsewhere = outside / "elsewhere"
    elsewhere.mkdir()
    _git(elsewhere, "init", "-q")
    _git(elsewhere, "config", "http.https://github.com/.extraheader", HEADER)
    (repo / "ext").symlink_to(elsewhere)
    out = _reads_no_token(
        repo,
        repo,
        [
            outer / ".git" / "config",
            bare / "config",
            Path("/run/lanegate-tree/cache/mirror.git/config"),
            Path("/run/lanegate-tree/ext/.git/config"),
        ],
    )
    assert TOKEN not in out and "extraheader" not in out
    # the reflog folder, and the legacy remote files, are covered by empty ones
    for legacy in ("remotes/upstream", "branches/legacy"):
        (repo / ".git" / legacy).parent.mkdir(exist_ok=True)
        (repo / ".git" / legacy).write_text(f"URL: https://x:{TOKEN}@github.com/o/r.git\n")
    hidden = [repo / ".git" / name for name in ("logs/HEAD", "remotes/upstream", "branches/legacy")]
    reflog = _reads_no_token(repo, repo, hidden, present=False)
    assert TOKEN not in reflog and reflog.count(" absent") == 3
    # and a tree whose `.git` is itself a link to the git dir
    linked = outside / "linked"
    linked.mkdir()
    (linked / "a.txt").write_text("a\n")
    real = outside / "real-git"
    (repo / ".git").rename(real)
    (linked / ".git").symlink_to(real)
    assert TOKEN not in _reads_no_token(linked, linked, [linked / ".git" / "config"])


def test_a_gitdir_pointer_that_cannot_be_read_is_passed_over(tmp_path: Path) -> None:
    from lanegate.sandbox import git_config

    repo = _repo(tmp_path)
    (repo / "sub").mkdir()
    (repo / "sub" / ".git").write_bytes(b"gitdir: /x\x00y\n")
    os.mkfifo(repo / "fifo-holder")
    (repo / "other").mkdir()
    os.mkfifo(repo / "other" / ".git")  # opening it would block for ever
    assert git_config.git_files(repo).configs  # answers, with the tree's own config


def test_the_fourth_passs_ways_in_are_covered(outside: Path) -> None:
    repo = _repo(outside)
    # a head-made venv marker at the root and a link to the root: no real tree bound at `x`
    (repo / "pyvenv.cfg").write_text("home = /usr\n")
    (repo / "x").symlink_to(".")
    # a folder made to look like a bare clone, hiding a checkout the workflow made inside it
    deps = repo / "deps"
    for part in ("objects/k", "refs/k"):
        (deps / part).mkdir(parents=True)
    (deps / "HEAD").write_text("ref: refs/heads/main\n")
    (deps / "config").write_text("[core]\n\tbare = true\n")
    tool = deps / "tool"
    tool.mkdir()
    _git(tool, "init", "-q")
    _git(tool, "config", "http.https://github.com/.extraheader", HEADER)
    # an included file and a credential store kept in .git
    (repo / ".git" / "extra.config").write_text(f"[http]\n\textraheader = {HEADER}\n")
    _git(repo, "config", "include.path", "extra.config")
    (repo / ".git" / "credentials").write_text(f"https://x:{TOKEN}@github.com\n")
    paths = [
        repo / "x" / ".git" / "config",
        repo / ".git" / "extra.config",
        repo / ".git" / "credentials",
    ]
    out = _reads_no_token(repo, repo, paths)
    # what the fake bare clone holds beside git's own names is covered by an empty folder
    inside = [tool / ".git" / "config", Path("/run/lanegate-tree/deps/tool/.git/config")]
    out += _reads_no_token(repo, repo, inside, present=False)
    assert TOKEN not in out and "extraheader" not in out


def test_a_pointer_the_system_refuses_is_passed_over(tmp_path: Path) -> None:
    from lanegate.sandbox import git_config

    repo = _repo(tmp_path)
    fake = repo / "fake"
    for part in ("objects", "refs"):
        (fake / part).mkdir(parents=True)
    (fake / "HEAD").write_text("ref: refs/heads/main\n")
    (fake / "config").write_text("[core]\n")
    (fake / "commondir").write_text("a" * 300 + "\n")  # a name too long for the file system
    (fake / "modules").symlink_to("/")  # not walked: the host's root is no submodule store
    assert fake.resolve() / "config" in dict(git_config.git_files(repo).configs)


def test_include_chains_and_a_credential_store_file_are_covered(outside: Path) -> None:
    repo = _repo(outside)
    first, second = repo / ".git" / "first.config", repo / ".git" / "second.config"
    first.write_text(f"[include]\n\tpath = {second.name}\n")
    second.write_text(f"[http]\n\textraheader = {HEADER}\n")
    _git(repo, "config", "include.path", first.name)
    store = outside / "store-elsewhere"
    store.write_text(f"https://x:{TOKEN}@github.com\n")
    _git(repo, "config", "credential.helper", f"store --file {store}")
    out = _reads_no_token(repo, repo, [first, second, store])
    assert TOKEN not in out and "extraheader" not in out


def test_the_sixth_passs_ways_in_are_covered(outside: Path) -> None:
    repo = _repo(outside)
    # a store helper's file, quoted and relative to the work tree's top, as git runs it
    (repo / ".git" / "gh-quoted").write_text(f"https://x:{TOKEN}@github.com\n")
    _git(repo, "config", "credential.https://github.com.helper", 'store --file=".git/gh-quoted"')
    # a shell helper reading a token kept in .git under a name of its own
    (repo / ".git" / "token").write_text(TOKEN + "\n")
    (repo / ".git" / "secrets").mkdir()
    (repo / ".git" / "secrets" / "t").write_text(TOKEN + "\n")
    # a credential store a workflow left, untracked, in the work tree
    (repo / ".git-credentials").write_text(f"https://x:{TOKEN}@github.com\n")
    (repo / "sub").mkdir()
    (repo / "sub" / ".netrc").write_text(f"machine github.com password {TOKEN}\n")
    paths = [
        repo / ".git" / "gh-quoted",
        repo / ".git" / "token",
        repo / ".git-credentials",
        repo / "sub" / ".netrc",
        Path("/run/lanegate-tree/.git-credentials"),
    ]
    out = _reads_no_token(repo, repo, paths)
    hidden = _reads_no_token(repo, repo, [repo / ".git" / "secrets" / "t"], present=False)
    assert TOKEN not in out + hidden
    # git still works inside: HEAD, objects and refs are what git reads, and they are there
    assert "repositoryformatversion" in out
