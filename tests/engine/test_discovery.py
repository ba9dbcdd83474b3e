import os
import random
import subprocess
import time
from pathlib import Path

import pytest
from tests.history_repo import Repo

from spyglass.engine import discovery
from spyglass.engine.discovery import (
    check_path,
    discover,
    is_secret_file,
    looks_binary,
)
from spyglass.engine.filerules import SKIP_REASONS
from spyglass.engine.gitindex import read_index, tracked_paths
from spyglass.engine.settings import Settings


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """No user git config or global excludes leak into the tests."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


def make(root: Path, tree: dict[str, str | bytes | None]) -> Path:
    """Create files (str/bytes content) and folders (None) below ``root``; ``.git/`` makes it a repo top."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    for rel, content in tree.items():
        p = root / rel
        if content is None:
            p.mkdir(parents=True, exist_ok=True)
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content)
    return root


def indexed(root: Path, settings: Settings | None = None) -> set[str]:
    return {f.path for f in discover(root, settings or Settings()).files}


def all_files(root: Path) -> list[str]:
    """Every file-like entry in the tree (no link followed), .git excluded."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        rel_dir = Path(dirpath).relative_to(root)
        out += [(rel_dir / n).as_posix() for n in filenames]
        out += [(rel_dir / d).as_posix() for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
    return sorted(out)


def assert_check_path_agrees(root: Path, settings: Settings) -> None:
    """check_path says None exactly for what discover indexes, for every entry of the tree."""
    result = discover(root, settings)
    files = {f.path for f in result.files}
    for rel in all_files(root):
        reason = check_path(root, rel, settings)
        if rel in files:
            assert reason is None, rel
        elif reason != "directory":  # a symlinked folder that is followed
            assert reason in SKIP_REASONS and reason is not None, (rel, reason)
    for rel in files:  # includes paths only reachable through followed symlinked folders
        assert check_path(root, rel, settings) is None, rel


# ---------------------------------------------------------------------------------------- ignore files


def test_nested_gitignore_with_negation_anchoring_and_dir_only_patterns(tmp_path):
    root = make(
        tmp_path / "ws",
        {
            ".gitignore": "*.log\n!keep.log\nout-dir/\n/only_root.txt\ntmp\nlogs/\n!logs/inside.txt\n",
            "app.log": "x",
            "keep.log": "x",
            "main.py": "x",
            "only_root.txt": "x",
            "a/.gitignore": "!debug.log\n*.txt\n",
            "a/debug.log": "x",
            "a/other.log": "x",
            "a/x.txt": "x",
            "a/only_root.py": "x",
            "a/out-dir": "a file, not a folder: dir-only patterns leave it alone",
            "out-dir/f.py": "x",
            "b/out-dir/g.py": "x",
            "tmp/t.py": "x",
            "a/tmp": "a file matched by a non-dir pattern",
            "logs/inside.txt": "a file in an ignored folder cannot be re-included",
        },
    )
    assert indexed(root) == {
        ".gitignore",
        "a/.gitignore",
        "keep.log",
        "main.py",
        "a/debug.log",
        "a/only_root.py",
        "a/out-dir",
    }
    result = discover(root, Settings())
    # app.log a/other.log a/x.txt only_root.txt a/tmp + folders out-dir b/out-dir tmp logs
    assert result.skipped["ignored"] == 9
    assert result.skipped["vcs"] == 1
    assert check_path(root, "logs/inside.txt", Settings()) == "ignored"
    assert check_path(root, "a/debug.log", Settings()) is None
    assert_check_path_agrees(root, Settings())


def test_negated_folder_does_not_re_include_what_another_source_ignores_inside_it(tmp_path):
    # git: "!c" in .gitignore names the folder c only; c/a.txt is still ignored by info/exclude
    root = make(
        tmp_path / "ws", {".gitignore": "!c\n", "c/a.txt": "x", "c/b.py": "x", ".git/info/exclude": "c\n*.txt\n"}
    )
    assert indexed(root) == {".gitignore", "c/b.py"}


@pytest.mark.parametrize(
    ("patterns", "expected"),
    [
        ("a/**\n", {"x.py", "b/x.py", "b/a/x.py"}),  # everything inside a (anchored: a slash inside)
        ("a/**\n!a/keep/\n", {"x.py", "b/x.py", "b/a/x.py"}),  # a/keep is entered, a/keep/x.py matches a/**
        ("a/**\n!a/keep/**\n", {"x.py", "b/x.py", "b/a/x.py"}),  # the folder a/keep is still ignored
        ("a/**\n!a/keep/\n!a/keep/**\n", {"x.py", "a/keep/x.py", "b/x.py", "b/a/x.py"}),
        ("a/\n!a/keep/\n", {"x.py", "b/x.py"}),  # a is: nothing inside it comes back
        ("a/**/\n", {"x.py", "a/x.py", "b/x.py", "b/a/x.py"}),  # the folders inside a
        ("*/\n", {"x.py"}),
        ("*\n!*/\n!*.py\n", {"x.py", "a/x.py", "a/keep/x.py", "b/x.py", "b/a/x.py"}),
        ("/a\n", {"x.py", "b/x.py", "b/a/x.py"}),
        ("**/a/keep\n", {"x.py", "a/x.py", "b/x.py", "b/a/x.py"}),
        ("x.py\n!/b/x.py\n", {"b/x.py"}),
    ],
)
def test_gitignore_glob_forms(tmp_path, patterns, expected):
    root = make(
        tmp_path / "ws",
        {".git/info/exclude": patterns, "x.py": "", "a/x.py": "", "a/keep/x.py": "", "b/x.py": "", "b/a/x.py": ""},
    )
    assert indexed(root) == expected
    assert_check_path_agrees(root, Settings())


def test_spyglassignore_any_level_and_its_negations_win(tmp_path):
    root = make(
        tmp_path / "ws",
        {
            ".gitignore": "gen/\n*.out\n",
            ".spyglassignore": "docs/\n!gen/\n!dist/\n",
            "gen/code.py": "git-ignored, re-included by .spyglassignore",
            "dist/bundle.js": "default-excluded, re-included",
            "docs/guide.md": "x",
            "pkg/.spyglassignore": "*.md\n!keep.out\n",
            "pkg/notes.md": "x",
            "pkg/mod.py": "x",
            "pkg/keep.out": "x",
            "pkg/other.out": "x",
        },
    )
    assert indexed(root) == {
        ".gitignore",
        ".spyglassignore",
        "pkg/.spyglassignore",
        "gen/code.py",
        "dist/bundle.js",
        "pkg/mod.py",
        "pkg/keep.out",
    }
    assert_check_path_agrees(root, Settings())


def test_git_negations_do_not_override_default_excludes(tmp_path):
    # the common whitelist idiom "!*/" must not drag node_modules or .venv back in
    root = make(
        tmp_path / "ws",
        {
            ".gitignore": "*\n!*/\n!*.py\n!.gitignore\n",
            "a.py": "",
            "notes.txt": "",
            "node_modules/m/index.py": "",
            ".venv/lib/site.py": "",
        },
    )
    result = discover(root, Settings())
    assert {f.path for f in result.files} == {".gitignore", "a.py"}
    assert result.skipped["dependencies"] == 1 and result.skipped["virtualenv"] == 1


def test_global_excludes_info_exclude_and_ignore_files_above_the_root(tmp_path, _isolated_home):
    (_isolated_home / "my-ignores").write_text("*.bak\n")
    gitconfig = '[user]\n\tname = x\n[core]\n\texcludesFile = "~/my-ignores"\n'
    (_isolated_home / ".gitconfig").write_text(gitconfig)
    repo = make(
        tmp_path / "repo",
        {
            ".gitignore": "*.log\nsub/gen/\n",
            ".git/info/exclude": "*.tmp\n/sub/local.py\n",
            "sub/a.py": "",
            "sub/a.log": "",
            "sub/gen/g.py": "",
            "sub/x.tmp": "",
            "sub/old.bak": "",
            "sub/local.py": "",
            "sub/deeper/local.py": "",
        },
    )
    root = repo / "sub"
    assert indexed(root) == {"a.py", "deeper/local.py"}
    assert discover(root, Settings()).skipped["ignored"] == 5
    assert_check_path_agrees(root, Settings())


def test_default_global_excludes_file_and_dotfiles_repo_at_home(tmp_path, _isolated_home):
    (_isolated_home / ".config/git").mkdir(parents=True)
    (_isolated_home / ".config/git/ignore").write_text("*.swap\n")
    # a dotfiles repository at ~ that ignores everything is not the workspace's repository
    (_isolated_home / ".git").mkdir()
    (_isolated_home / ".gitignore").write_text("*\n")
    root = _isolated_home / "projects" / "p"
    root.mkdir(parents=True)
    (root / "a.py").write_text("")
    (root / "b.swap").write_text("")
    assert indexed(root) == {"a.py"}


# ------------------------------------------------------------------------------------------- settings


def test_settings_exclude_and_include(tmp_path):
    root = make(
        tmp_path / "ws",
        {
            "src/app.py": "",
            "src/app.min.js": "",
            "src/readme.md": "",
            "scripts/run.py": "",
            "pyproject.toml": "",
            "notes.txt": "",
        },
    )
    settings = Settings(exclude=["*.md", "scripts/", "!*.min.js"], include=["src/", "*.toml"])
    result = discover(root, settings)
    assert {f.path for f in result.files} == {"src/app.py", "src/app.min.js", "pyproject.toml"}
    assert result.skipped["excluded"] == 2  # src/readme.md, scripts/
    assert result.skipped["not included"] == 1  # notes.txt
    assert check_path(root, "notes.txt", settings) == "not included"
    assert check_path(root, "scripts/run.py", settings) == "excluded"
    assert_check_path_agrees(root, settings)


def test_include_with_only_comments_includes_nothing(tmp_path):
    root = make(tmp_path / "ws", {"a.py": ""})
    assert indexed(root, Settings(include=["# nothing"])) == set()


def test_index_dir_setting_and_any_dot_spyglass_folder(tmp_path):
    root = make(tmp_path / "ws", {"idx/db.sqlite3": "", "idx/notes.py": "", "sub/.spyglass/x.py": "", "a.py": ""})
    result = discover(root, Settings(index_dir="idx"))
    assert {f.path for f in result.files} == {"a.py"}
    assert result.skipped["index dir"] == 2
    abs_idx = Settings(index_dir=str(root / "idx"))
    assert check_path(root, "idx/notes.py", abs_idx) == "index dir"


# ------------------------------------------------------------------------------------ default excludes

DEFAULT_SKIPS = [
    (".hg/store/data", "vcs"),
    (".svn/entries", "vcs"),
    ("sub/.git", "vcs"),  # a submodule's gitfile
    (".spyglass/index.db", "index dir"),
    (".venv/lib/site.py", "virtualenv"),
    ("venv/bin/activate", "virtualenv"),
    ("env/pyvenv.cfg", "virtualenv"),
    ("conda/conda-meta/history", "virtualenv"),
    ("node_modules/left-pad/index.js", "dependencies"),
    ("web/bower_components/x.js", "dependencies"),
    ("build/lib/a.py", "build output"),
    ("dist/app.js", "build output"),
    ("out/main.o", "build output"),
    ("rust/target/debug/app", "build output"),
    ("pkg.egg-info/PKG-INFO", "build output"),
    ("__pycache__/a.cpython-311.pyc", "cache"),
    (".pytest_cache/README.md", "cache"),
    (".mypy_cache/x.json", "cache"),
    (".ruff_cache/x", "cache"),
    (".tox/py311/log", "cache"),
    (".gradle/caches/x", "cache"),
    (".idea/workspace.xml", "editor metadata"),
    ("static/app.min.js", "generated"),
    ("static/site.MIN.CSS", "generated"),
    ("static/app.js.map", "generated"),
    ("proto/api_pb2.py", "generated"),
    ("proto/api_pb2_grpc.py", "generated"),
    ("proto/api.pb.go", "generated"),
    ("ui/Form.generated.cs", "generated"),
    ("package-lock.json", "lock file"),
    ("yarn.lock", "lock file"),
    ("pnpm-lock.yaml", "lock file"),
    ("poetry.lock", "lock file"),
    ("Cargo.lock", "lock file"),
    ("uv.lock", "lock file"),
    ("Pipfile.lock", "lock file"),
    ("composer.lock", "lock file"),
    ("go.sum", "lock file"),
    ("Gemfile.lock", "lock file"),
    ("img/logo.png", "binary"),
    ("img/Photo.JPG", "binary"),
    ("fonts/a.woff2", "binary"),
    ("lib/native.so", "binary"),
    ("bin/tool.exe", "binary"),
    ("java/A.class", "binary"),
    ("vendor.jar", "binary"),
    ("docs/paper.pdf", "binary"),
    ("data/app.sqlite", "binary"),
    ("models/m.onnx", "binary"),
    ("models/m.safetensors", "binary"),
    ("release.tar.gz", "binary"),
    (".DS_Store", "binary"),
]

KEPT = [
    ".vscode/settings.json",
    "img/logo.svg",
    "src/build.py",
    "config/env/app.py",
    "environment.py",
    "tools/builder/x.py",
    "docs/lockfile.md",
    "README.md",
    ".github/workflows/ci.yml",
    "Makefile",
]


def test_each_default_exclude_is_counted_under_its_reason(tmp_path):
    root = make(tmp_path / "ws", {**{rel: "x" for rel, _ in DEFAULT_SKIPS}, **{rel: "x" for rel in KEPT}})
    result = discover(root, Settings())
    assert {f.path for f in result.files} == set(KEPT)
    for rel, reason in DEFAULT_SKIPS:
        assert check_path(root, rel, Settings()) == reason, rel
    # one count per skipped entry: a folder counts once (vcs includes the root's own .git)
    assert result.skipped == {
        "vcs": 4,
        "index dir": 1,
        "virtualenv": 4,
        "dependencies": 2,
        "build output": 5,
        "cache": 6,
        "editor metadata": 1,
        "generated": 7,
        "lock file": 10,
        "binary": 13,
    }
    assert_check_path_agrees(root, Settings())


# -------------------------------------------------------------------------------------------- secrets

SECRETS = [
    ".env",
    ".env.local",
    ".env.production",
    "config/.env",
    "prod.env",
    ".envrc",
    "id_rsa",
    "ID_RSA",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    "certs/server.pem",
    "tls.key",
    "cert.p12",
    "cert.pfx",
    "android.jks",
    "release.keystore",
    "vault.kdbx",
    ".netrc",
    ".pgpass",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "credentials.json",
    ".aws/credentials",
    "x/.docker/config.json",
    ".kube/config",
    "infra/terraform.tfstate",
    "terraform.tfstate.backup",
    "config/secrets.yml",
    "secrets.yaml",
    "service-account-prod.json",
    "client_secret_123.apps.googleusercontent.com.json",
    "home/.ssh/known_hosts",
    ".gnupg/pubring.kbx",
]
NOT_SECRETS = [
    ".env.example",
    ".env.sample",
    ".env.template",
    ".env.local.example",
    "id_rsa.pub",
    "environment.py",
    "keyboard.py",
    "docker/config.json",
    "aws/credentials.md",
    "credentials.py",
    "secrets.py",
    "monkey",
    "key.txt",
    "README.md",
    ".envoy.yaml",
    "kube/config",
]


@pytest.mark.parametrize("rel", SECRETS)
def test_secret_files(rel):
    assert is_secret_file(rel)


@pytest.mark.parametrize("rel", NOT_SECRETS)
def test_not_secret_files(rel):
    assert not is_secret_file(rel)


def test_secrets_are_never_indexed_even_when_included_or_negated(tmp_path):
    root = make(
        tmp_path / "ws",
        {
            **{rel: "TOKEN=x" for rel in SECRETS},
            **{rel: "x" for rel in NOT_SECRETS},
            ".spyglassignore": "!.env\n!*.pem\n",
            "app.py": "",
        },
    )
    settings = Settings(include=["*", ".env", "*.pem"], exclude=["!.env", "!id_rsa"])
    files = indexed(root, settings)
    assert not {f for f in files if is_secret_file(f)}
    assert files >= set(NOT_SECRETS) | {"app.py"}
    for rel in SECRETS:
        assert check_path(root, rel, settings) == "secret", rel
    assert_check_path_agrees(root, settings)


# ------------------------------------------------------------------------------------------- symlinks


def test_symlinks_inside_followed_outside_refused_duplicates_skipped(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret_plans.py").write_text("")
    root = make(
        tmp_path / "ws",
        {
            ".gitignore": "vendored/\n",
            "vendored/lib/util.py": "",
            "vendored/single.py": "",
            "lib/real.py": "",
            "a.py": "",
            ".env": "K=V",
            ".git/config": "",
        },
    )
    (root / "linked_lib").symlink_to("vendored/lib")  # git-ignored target: followed
    (root / "alias.py").symlink_to("vendored/single.py")
    (root / "lib64").symlink_to("lib")  # target indexed anyway: duplicate
    (root / "b.py").symlink_to("a.py")
    (root / "out_dir").symlink_to(outside)
    (root / "out_file.py").symlink_to(outside / "secret_plans.py")
    (root / "sneaky").symlink_to(".env")
    (root / "gitcfg").symlink_to(".git/config")
    (root / "dangling.py").symlink_to("missing.py")
    result = discover(root, Settings())
    assert {f.path for f in result.files} == {".gitignore", "a.py", "lib/real.py", "linked_lib/util.py", "alias.py"}
    assert result.skipped["symlink outside root"] == 2
    assert result.skipped["symlink duplicate"] == 2
    assert result.skipped["broken symlink"] == 1
    assert result.skipped["secret"] == 2  # .env and the link to it
    assert result.skipped["vcs"] == 2  # .git and the link into it
    assert check_path(root, "linked_lib/util.py", Settings()) is None
    assert check_path(root, "lib64/real.py", Settings()) == "symlink duplicate"
    assert check_path(root, "out_dir/secret_plans.py", Settings()) == "symlink outside root"
    assert check_path(root, "dangling.py", Settings()) == "broken symlink"
    size = (root / "vendored/single.py").stat().st_size
    alias = next(f for f in result.files if f.path == "alias.py")
    assert alias.size == size
    assert_check_path_agrees(root, Settings())


def test_symlink_loops_do_not_hang(tmp_path):
    root = make(tmp_path / "ws", {".gitignore": "hidden/\n", "a/x.py": "", "hidden/h.py": ""})
    (root / "a/self").symlink_to(".")
    (root / "a/up").symlink_to("..")
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    (root / "view").symlink_to("hidden")  # followed: hidden/ is ignored
    (root / "hidden/back").symlink_to("../view")  # resolves to hidden itself: a loop under view/
    start = time.perf_counter()
    result = discover(root, Settings())
    assert time.perf_counter() - start < 1
    assert {f.path for f in result.files} == {".gitignore", "a/x.py", "view/h.py"}
    assert result.skipped["symlink loop"] == 5  # a/self, a/up, loop1, loop2, view/back
    assert check_path(root, "a/up/a/x.py", Settings()) == "symlink loop"
    assert check_path(root, "view/back/h.py", Settings()) == "symlink loop"
    assert_check_path_agrees(root, Settings())


# --------------------------------------------------------------------------------- other file system


def test_too_large_and_special_files(tmp_path):
    root = make(tmp_path / "ws", {"small.py": "x" * 100, "big.py": "x" * 101})
    os.mkfifo(root / "pipe")
    settings = Settings(max_file_size=100)
    result = discover(root, settings)
    assert {f.path for f in result.files} == {"small.py"}
    assert result.skipped["too large"] == 1
    assert result.skipped["not a regular file"] == 1
    assert check_path(root, "big.py", settings) == "too large"
    assert check_path(root, "pipe", settings) == "not a regular file"
    entry = result.files[0]
    assert entry.size == 100 and entry.mtime_ns == (root / "small.py").stat().st_mtime_ns


def test_unreadable_folder_is_counted_not_fatal(tmp_path, monkeypatch):
    root = make(tmp_path / "ws", {"ok.py": "", "locked/a.py": ""})
    real_scandir = os.scandir

    def scandir(path):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    real_access = os.access

    def access(path, mode):
        return not os.fspath(path).endswith(("locked", "no_read.py")) and real_access(path, mode)

    monkeypatch.setattr(discovery.os, "scandir", scandir)
    monkeypatch.setattr(discovery.os, "access", access)
    (root / "no_read.py").write_text("")
    result = discover(root, Settings())
    assert {f.path for f in result.files} == {"ok.py"}
    assert result.skipped["unreadable"] == 2
    assert check_path(root, "locked/a.py", Settings()) == "unreadable"
    assert check_path(root, "no_read.py", Settings()) == "unreadable"


def test_ignored_folders_are_never_listed(tmp_path, monkeypatch):
    root = make(tmp_path / "ws", {"a.py": "", ".gitignore": "big/\n"})
    for i in range(50):
        (root / "node_modules" / f"p{i}").mkdir(parents=True)
        (root / "big" / f"p{i}").mkdir(parents=True)
    listed = []
    real_scandir = os.scandir
    monkeypatch.setattr(discovery.os, "scandir", lambda p: listed.append(os.fspath(p)) or real_scandir(p))
    discover(root, Settings())
    assert not [p for p in listed if "node_modules" in p or "big" in p]


def test_check_path_edges(tmp_path):
    root = make(tmp_path / "ws", {"src/a.py": ""})
    s = Settings()
    assert check_path(root, str(root / "src" / "a.py"), s) is None  # absolute paths inside the root
    assert check_path(root, "./src//a.py", s) is None
    assert check_path(root, "../elsewhere.py", s) == "outside root"
    assert check_path(root, str(tmp_path / "elsewhere.py"), s) == "outside root"
    assert check_path(root, "src/missing.py", s) == "missing"
    assert check_path(root, "src/a.py/x", s) == "missing"
    assert check_path(root, "src", s) == "directory"
    assert check_path(root, "node_modules", s) == "missing"


def test_discover_a_missing_root_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        discover(tmp_path / "nope", Settings())


def test_discovery_is_fast_on_a_few_thousand_files(tmp_path):
    root = make(tmp_path / "ws", {".gitignore": "*.log\n"})
    for d in range(40):
        sub = root / f"pkg{d}"
        sub.mkdir()
        for f in range(50):
            (sub / f"m{f}.py").write_text("")
    start = time.perf_counter()
    result = discover(root, Settings())
    elapsed = time.perf_counter() - start
    assert len(result.files) == 2001
    assert result.files == sorted(result.files, key=lambda f: f.path)
    assert elapsed < 0.5, elapsed  # ~30 ms in practice


# ------------------------------------------------------------------------------------ binary sniffing


RANDOM_NO_NUL = random.Random(0).randbytes(8192).replace(b"\0", b"\1")


@pytest.mark.parametrize(
    ("head", "binary"),
    [
        (b"", False),
        (b"def f():\n    return 1\n", False),
        (b"caf\xe9 cr\xe8me br\xfbl\xe9e\n" * 20, False),  # Latin-1
        ("日本語のテキスト、中文文本，한국어 텍스트\n".encode() * 50, False),  # CJK UTF-8
        ("日本語".encode()[:-1], False),  # a character cut off by the 8 KiB window
        (b"\x1b[31mred\x1b[0m\tok\r\n\x0c", False),  # ANSI escapes, tabs, form feed
        (b"text with a NUL\x00 inside", True),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", True),
        ("utf-16".encode("utf-16"), True),
        (bytes(range(1, 32)) * 20, True),  # control bytes, no NUL
        (RANDOM_NO_NUL, True),
        (b"x" * 10_000 + b"\x00", False),  # only the first 8 KiB count
    ],
)
def test_looks_binary(head, binary):
    assert looks_binary(head) is binary


# ------------------------------------------------------------------------------- differential vs git

POOL = [
    "*.log",
    "!keep.log",
    "a/",
    "/b",
    "b/",
    "c",
    "!c",
    "x/*",
    "!x/y/",
    "**/deep",
    "d/**/e.txt",
    "*.txt",
    "!important.txt",
    "/a/*.py",
    "y",
    "!y",
    "sub/",
    "!sub/",
    "*.py",
    "!*.py",
    "**/*.md",
    "a/**",
    "!a/keep/",
    "/x",
    "e*",
    "!e1.txt",
    "[ab].txt",
    "?.py",
    "foo/bar",
    "bar/",
    "deep/",
    "!deep/keep.md",
    "*/",
    "!*/",
    "*",
    "!*",
    "a/**/",
    "foo/*/",
    "/*",
    "/*.py",
    "!/*/",
    "a/*/**",
    "x/y",
    "**/x/y",
    "keep/**",
    "!keep/**",
    "*.txt ",
    "d/q/",
    "!d/",
    "/d/q/r",
    "**/r/",
    "!*.md",
    "b*/",
]
DIRS = [
    "a",
    "b",
    "c",
    "x",
    "x/y",
    "x/z",
    "a/keep",
    "a/b",
    "sub",
    "sub/deep",
    "d",
    "d/q",
    "d/q/r",
    "y",
    "bar",
    "foo",
    "foo/bar",
    "a/c/deep",
]
NAMES = [
    "f.py",
    "keep.log",
    "x.log",
    "e.txt",
    "e1.txt",
    "important.txt",
    "a.txt",
    "b.txt",
    "z.py",
    "r.md",
    "c",
    "y",
    "q.txt",
]


@pytest.mark.parametrize("seed", range(12))
def test_agrees_with_git_on_random_ignore_files(tmp_path, _isolated_home, seed):
    """Random trees and .gitignore files: the indexed set is what `git ls-files -o` reports."""
    rnd = random.Random(seed)
    root = tmp_path / "ws"
    git = root / ".git"
    for sub in ("objects", "refs", "info"):
        (git / sub).mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")  # a repository made by hand: no git writes
    (git / "info" / "exclude").write_text("\n".join(rnd.sample(POOL, 2)) + "\n")
    for d in rnd.sample(DIRS, 10):
        (root / d).mkdir(parents=True, exist_ok=True)
    folders = [p for p in root.rglob("*") if p.is_dir() and ".git" not in p.relative_to(root).parts]
    for folder in [root, *folders]:
        for name in rnd.sample(NAMES, 4):
            if not (folder / name).exists():
                (folder / name).write_text("x")
        if rnd.random() < 0.5:
            (folder / ".gitignore").write_text("\n".join(rnd.sample(POOL, rnd.randint(1, 6))) + "\n")
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(_isolated_home)}
    out = subprocess.run(
        ["git", "ls-files", "-o", "--exclude-standard"], cwd=root, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert indexed(root) == set(out)
    assert_check_path_agrees(root, Settings())


def test_a_name_that_is_not_utf8_is_skipped_and_counted_not_fatal(tmp_path):
    """Old archives hold names in other encodings (bytes 0xFF 0xFE): they are skipped under their own reason,
    listed printably, and the rest of the tree is indexed."""
    root = make(tmp_path / "ws", {"good.py": "def ok():\n    return 1\n"})
    base = os.fsencode(root)
    for name, data in [(b"bad\xff\xfe.py", b"def bad():\n    return 2\n"), (b"dir\xff/inner.py", b"x = 1\n")]:
        os.makedirs(os.path.dirname(base + b"/" + name), exist_ok=True)
        with open(base + b"/" + name, "wb") as f:
            f.write(data)
    found = discover(root, Settings())
    assert {f.path for f in found.files} == {"good.py"}
    assert found.skipped["name not UTF-8"] == 2
    assert ("bad\\xff\\xfe.py", "name not UTF-8") in found.skipped_paths  # shown, never a lone surrogate
    assert check_path(root, os.fsdecode(b"bad\xff\xfe.py"), Settings()) == "name not UTF-8"
    assert check_path(root, os.fsdecode(b"dir\xff/inner.py"), Settings()) == "name not UTF-8"


def test_a_file_git_tracks_is_indexed_though_an_ignore_rule_matches_it(tmp_path: Path) -> None:
    # skorch's .gitignore says *.ipynb and the repository tracks 17 notebooks: they are its files
    repo = Repo(tmp_path / "repo")
    repo.write("nbs/tour.ipynb", "{}\n")
    repo.write("lib/core.py", "x = 1\n")
    repo.write("build/keep.py", "y = 2\n")
    repo.commit("notebooks and code")
    repo.write(".gitignore", "*.ipynb\nbuild/\nsettings.json\n")
    repo.write("settings.json", "{}\n")
    repo.git("add", "-f", "settings.json")  # forced past its own rule
    repo.commit("ignore what is generated")
    repo.write("nbs/scratch.ipynb", "{}\n")  # untracked and ignored: skipped, as git skips it
    found = discover(repo.root, Settings())
    assert [f.path for f in found.files] == [".gitignore", "lib/core.py", "nbs/tour.ipynb", "settings.json"]
    assert found.skipped["ignored"] == 2  # nbs/scratch.ipynb, and build/ (a tracked file in an ignored folder too)
    assert check_path(repo.root, "nbs/tour.ipynb", Settings()) is None
    assert check_path(repo.root, "nbs/scratch.ipynb", Settings()) == "ignored"
    assert check_path(repo.root, "build/keep.py", Settings()) == "ignored"
    # a root below the checkout's top reads the same index; a .spyglassignore still has the last word
    assert [f.path for f in discover(repo.root / "nbs", Settings()).files] == ["tour.ipynb"]
    repo.write(".spyglassignore", "settings.json\n")
    assert check_path(repo.root, "settings.json", Settings()) == "ignored"
    # untracked again, ignored again: the index is read again when it changes
    repo.git("rm", "-q", "--cached", "nbs/tour.ipynb")
    assert check_path(repo.root, "nbs/tour.ipynb", Settings()) == "ignored"


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_the_git_index_is_read_as_git_lists_it(tmp_path: Path, version: str) -> None:
    repo = Repo(tmp_path / "repo")
    names = [
        "a.py",
        "src/deep/er/mod.py",
        "src/deep/other.py",
        "caf\u00e9.md",
        "/".join(f"folder{i:02d}" for i in range(30)) + "/f.txt",
        "sp ace.js",
    ]
    for name in names:
        repo.write(name, "1\n")
    repo.git("add", ".")
    repo.git("update-index", "--index-version", version)
    if version == "3":
        repo.write("later.py", "2\n")
        repo.git("add", "--intent-to-add", "later.py")  # an entry with extended flags (version 3)
        names.append("later.py")
    listed = repo.git("ls-files", "-z").split("\0")[:-1]
    assert sorted(tracked_paths(repo.root)) == sorted(listed) == sorted(names)
    assert tracked_paths(repo.root / "src") == {"deep/er/mod.py", "deep/other.py"}
    assert tracked_paths(tmp_path) == frozenset()  # outside git
    # a damaged index: what could be read, never an error
    index = repo.root / ".git" / "index"
    data = index.read_bytes()
    assert read_index(data[: len(data) // 2]) == read_index(data)[: len(read_index(data[: len(data) // 2]))]
    assert read_index(b"DIRC\x00\x00\x00\x07" + data[8:]) == [] and read_index(b"garbage") == []
