"""Discovery: which files of a workspace get indexed, and why the others are skipped.

:func:`discover` walks the workspace root once (``os.scandir``, pruning skipped directories so that a
``node_modules`` with 100k files costs one directory entry) and returns the files to index, sorted by
path, plus a count of every skip reason. :func:`check_path` answers the same question for one path
(editor and file-watcher events) and applies exactly the same rules, including every ignore file on the
way down from the root. Counts are per directory entry: a pruned directory counts once, whatever it
holds.

Rules, in the order they are applied to each directory entry (the first that decides wins):

1. **Hard rules, never overridable.** Version-control folders (:data:`VCS_NAMES`, reason ``"vcs"``),
   the index folder (``settings.index_dir`` and any folder named ``.spyglass``, reason ``"index dir"``)
   and secret files (:data:`SECRET_DIRS` and :func:`is_secret_file`, reason ``"secret"``). Secrets are
   skipped even when ``settings.include`` or a negated ignore pattern matches them.
2. **``settings.exclude``**: gitignore-syntax globs relative to the root (reason ``"excluded"``). A
   negated glob (``!build/``) re-includes what the rules below would skip, default excludes included.
3. **``.spyglassignore`` files** at any level (gitignore syntax, patterns relative to their directory;
   reason ``"ignored"``). They take precedence over ``.gitignore`` files, so ``!generated/`` in a
   ``.spyglassignore`` re-includes a git-ignored folder, and also overrides the default excludes.
4. **Git ignore rules** (reason ``"ignored"``): ``.gitignore`` at every level (a deeper file wins over a
   shallower one), the ``.gitignore`` files above the root up to the enclosing repository's top and
   its ``.git/info/exclude``, then the global excludes file (``core.excludesFile`` from
   ``$XDG_CONFIG_HOME/git/config`` or ``~/.gitconfig``, else ``$XDG_CONFIG_HOME/git/ignore``; files are
   read, git is never run). A repository whose top is the home directory (a dotfiles repo) is not
   treated as enclosing the root. Negations, anchoring and dir-only patterns follow git; as in git, a
   file inside an ignored directory cannot be re-included, because ignored directories are not entered.
   A git negation (e.g. the common ``!*/``) does *not* override the default excludes below.
5. **Default excludes** (:data:`DEFAULT_EXCLUDED_DIRS`, :data:`LOCK_FILES`, :data:`GENERATED_SUFFIXES`,
   :data:`BINARY_EXTENSIONS` ...), reasons ``"virtualenv"``, ``"dependencies"``, ``"build output"``,
   ``"cache"``, ``"editor metadata"``, ``"lock file"``, ``"generated"``, ``"binary"``. Any directory
   holding a ``pyvenv.cfg`` or ``conda-meta`` is a virtualenv whatever its name (the root itself
   excepted). Directory names match case-sensitively, file names and extensions case-insensitively.
6. **``settings.include``**: if non-empty, a file that matches none of these gitignore-syntax globs is
   skipped (``"not included"``). Include only narrows; it never re-admits a file skipped above.
7. **Size**: files larger than ``settings.max_file_size`` bytes are skipped (``"too large"``).

File-system rules. Symlinks (to files and to folders) are judged by the rules above under the
link's own path, then:

* a link whose resolved target lies outside the root is never followed (``"symlink outside root"``);
* a folder link whose target is the folder holding it or one of its ancestors is not entered
  (``"symlink loop"``; a self-referencing chain of links is one too), so no walk can cycle;
* a dangling link is ``"broken symlink"``; a link into a VCS folder, the index folder or to a secret
  gets that reason;
* a link whose target is indexed (or, for a folder, walked) under its real path anyway is a
  ``"symlink duplicate"`` (e.g. a virtualenv's ``lib64 -> lib``): every content is indexed once;
* otherwise the link is followed and its content indexed under the link's path -- the way to pull a
  git-ignored or excluded file or folder into the index.

FIFOs, sockets and devices are ``"not a regular file"``; ``PermissionError`` anywhere is
``"unreadable"`` and never aborts the walk; entries deleted during the walk are silently dropped.
Content sniffing is left to the indexer, which reads the file anyway (see :func:`looks_binary`);
discovery judges binaries by extension only.

Secret files (never indexed; names and extensions case-insensitive):

* environment files: ``.env``, ``.envrc``, ``*.env`` and ``.env.*`` -- except templates ending in
  ``.example``, ``.sample`` or ``.template`` (``.env.example``, ``.env.local.sample`` ...), which hold
  no real values by convention and are indexed;
* private keys and key stores: ``id_rsa``, ``id_dsa``, ``id_ecdsa``, ``id_ed25519`` (and the ``_sk``
  variants; the ``.pub`` halves are indexed), ``*.pem``, ``*.key``, ``*.p8``, ``*.p12``, ``*.pfx``,
  ``*.pkcs12``, ``*.ppk``, ``*.jks``, ``*.keystore``, ``*.kdbx``, ``*.keytab``, and everything under a
  ``.ssh`` or ``.gnupg`` folder. ``*.pem`` also catches public certificate bundles: erring on the safe
  side;
* credentials: ``.netrc``, ``_netrc``, ``.pgpass``, ``.npmrc``, ``.pypirc``, ``.git-credentials``,
  ``.htpasswd``, ``.dockercfg``, ``.s3cfg``, ``.boto``, ``credentials.json``, ``service-account*.json``,
  ``service_account*.json``, ``client_secret*.json``, ``secrets.yml``, ``secrets.yaml``,
  ``secrets.json``, ``secrets.toml``, ``.aws/credentials``, ``.docker/config.json``, ``.kube/config``,
  ``*.tfstate`` and ``*.tfstate.backup``.

``check_path`` can also answer ``"missing"`` (no such file), ``"outside root"`` and ``"directory"``;
:func:`discover` never counts these.
"""

from __future__ import annotations

import collections
import errno
import os
import posixpath
import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pathspec

from spyglass.engine.settings import Settings

# --------------------------------------------------------------------------------------------------
# Skip reasons (the exact strings used as keys of Discovery.skipped and returned by check_path)

VCS = "vcs"
INDEX_DIR = "index dir"
SECRET = "secret"
EXCLUDED = "excluded"
IGNORED = "ignored"
VIRTUALENV = "virtualenv"
DEPENDENCIES = "dependencies"
BUILD_OUTPUT = "build output"
CACHE = "cache"
EDITOR_METADATA = "editor metadata"
LOCK_FILE = "lock file"
GENERATED = "generated"
BINARY = "binary"
NOT_INCLUDED = "not included"
TOO_LARGE = "too large"
SYMLINK_OUTSIDE_ROOT = "symlink outside root"
SYMLINK_LOOP = "symlink loop"
SYMLINK_DUPLICATE = "symlink duplicate"
BROKEN_SYMLINK = "broken symlink"
NOT_REGULAR = "not a regular file"
UNREADABLE = "unreadable"
# check_path only:
MISSING = "missing"
OUTSIDE_ROOT = "outside root"
DIRECTORY = "directory"

SKIP_REASONS: tuple[str, ...] = (
    VCS,
    INDEX_DIR,
    SECRET,
    EXCLUDED,
    IGNORED,
    VIRTUALENV,
    DEPENDENCIES,
    BUILD_OUTPUT,
    CACHE,
    EDITOR_METADATA,
    LOCK_FILE,
    GENERATED,
    BINARY,
    NOT_INCLUDED,
    TOO_LARGE,
    SYMLINK_OUTSIDE_ROOT,
    SYMLINK_LOOP,
    SYMLINK_DUPLICATE,
    BROKEN_SYMLINK,
    NOT_REGULAR,
    UNREADABLE,
    MISSING,
    OUTSIDE_ROOT,
    DIRECTORY,
)
"""Every reason :func:`discover` or :func:`check_path` can give, for docs and status output."""

# --------------------------------------------------------------------------------------------------
# Data: the default rules

IGNORE_FILES = (".gitignore", ".spyglassignore")
"""Per-directory ignore files, both in gitignore syntax."""

INDEX_DIR_NAME = ".spyglass"
"""Any folder with this name is an index folder (of this or a nested workspace) and is never entered."""

VCS_NAMES = frozenset({".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", "CVS"})
"""Version-control folders (``.git`` may also be a file, in submodules and worktrees). Hard rule."""

VIRTUALENV_MARKERS = ("pyvenv.cfg", "conda-meta")
"""A directory holding one of these is a Python/conda environment, whatever its name."""

DEFAULT_EXCLUDED_DIRS: dict[str, str] = {
    **dict.fromkeys((".venv", "venv", "__pypackages__"), VIRTUALENV),
    **dict.fromkeys(
        ("node_modules", "bower_components", "jspm_packages", "web_modules", ".pnpm-store", ".yarn"),
        DEPENDENCIES,
    ),
    **dict.fromkeys(
        (
            "build",
            "dist",
            "out",
            "target",
            "_build",
            ".eggs",
            ".next",
            ".nuxt",
            ".svelte-kit",
            ".output",
            ".angular",
            ".docusaurus",
            ".vercel",
            ".serverless",
        ),
        BUILD_OUTPUT,
    ),
    **dict.fromkeys(
        (
            "__pycache__",
            ".pytest_cache",
            ".mypy_cache",
            ".ruff_cache",
            ".pytype",
            ".pyre",
            ".tox",
            ".nox",
            ".hypothesis",
            ".benchmarks",
            ".ipynb_checkpoints",
            ".cache",
            ".gradle",
            ".sass-cache",
            ".parcel-cache",
            ".turbo",
            ".terraform",
            ".dart_tool",
            ".nyc_output",
            "htmlcov",
        ),
        CACHE,
    ),
    # .vscode/ is kept: its settings, tasks and launch configs are small and worth searching
    **dict.fromkeys((".idea", ".vs"), EDITOR_METADATA),
}
"""Directory name -> reason (case-sensitive). Folders named ``env`` are caught by the marker files."""

DEFAULT_EXCLUDED_DIR_SUFFIXES: dict[str, str] = {".egg-info": BUILD_OUTPUT}
"""Directory name ending -> reason."""

LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lock",
        "bun.lockb",
        "deno.lock",
        "poetry.lock",
        "pdm.lock",
        "uv.lock",
        "pipfile.lock",
        "cargo.lock",
        "composer.lock",
        "gemfile.lock",
        "go.sum",
        "go.work.sum",
        "flake.lock",
        "mix.lock",
        "pubspec.lock",
        "podfile.lock",
        "package.resolved",
        "packages.lock.json",
        "gradle.lockfile",
        ".terraform.lock.hcl",
    }
)
"""Lock files (lower-case names); any other ``*.lock`` file is a lock file too."""

GENERATED_SUFFIXES = (
    ".min.js",
    ".min.mjs",
    ".min.cjs",
    ".min.css",
    ".map",
    "_pb2.py",
    "_pb2.pyi",
    "_pb2_grpc.py",
    ".pb.go",
    ".pb.cc",
    ".pb.h",
)
"""Minified, source-map and protobuf output (lower-case name endings). Also: ``*.generated.*``."""

GENERATED_INFIX = ".generated."

BINARY_EXTENSIONS = frozenset(
    {
        # images (svg is text and kept)
        "png",
        "jpg",
        "jpeg",
        "gif",
        "bmp",
        "ico",
        "icns",
        "tif",
        "tiff",
        "webp",
        "avif",
        "heic",
        "psd",
        "xcf",
        # archives and packages
        "zip",
        "tar",
        "gz",
        "tgz",
        "bz2",
        "xz",
        "zst",
        "lz4",
        "lzma",
        "7z",
        "rar",
        "cab",
        "iso",
        "dmg",
        "whl",
        "egg",
        "jar",
        "war",
        "ear",
        "aar",
        "apk",
        "ipa",
        "deb",
        "rpm",
        "msi",
        "nupkg",
        "crate",
        "gem",
        # fonts
        "ttf",
        "otf",
        "woff",
        "woff2",
        "eot",
        # compiled code and objects
        "so",
        "dll",
        "dylib",
        "exe",
        "o",
        "obj",
        "a",
        "lib",
        "ko",
        "pyc",
        "pyo",
        "pyd",
        "class",
        "dex",
        "wasm",
        "beam",
        "elc",
        "rlib",
        "pdb",
        "idb",
        "ilk",
        # documents
        "pdf",
        "doc",
        "docx",
        "xls",
        "xlsx",
        "ppt",
        "pptx",
        "odt",
        "ods",
        "odp",
        "epub",
        # audio and video
        "mp3",
        "mp4",
        "m4a",
        "m4v",
        "aac",
        "wav",
        "flac",
        "ogg",
        "oga",
        "opus",
        "avi",
        "mov",
        "mkv",
        "webm",
        "wmv",
        "flv",
        "mpg",
        "mpeg",
        # databases and data blobs
        "sqlite",
        "sqlite3",
        "db",
        "mdb",
        "accdb",
        "parquet",
        "feather",
        "arrow",
        "avro",
        "orc",
        "npy",
        "npz",
        "pkl",
        "pickle",
        "joblib",
        "h5",
        "hdf5",
        "nc",
        "mat",
        "dat",
        "bin",
        # model weights
        "onnx",
        "safetensors",
        "pt",
        "pth",
        "ckpt",
        "tflite",
        "pb",
        "gguf",
        "ggml",
        "mlmodel",
        "caffemodel",
        # misc
        "swp",
        "swo",
        "gpg",
        "der",
        "crx",
        "xpi",
    }
)
"""Extensions (lower-case, no dot) of files that are binary; content sniffing is the indexer's job."""

BINARY_NAMES = frozenset({".ds_store", "thumbs.db", "desktop.ini", ".coverage"})

SECRET_DIRS = frozenset({".ssh", ".gnupg"})
"""Folders whose whole content is secret (lower-case names). Hard rule."""

SECRET_NAMES = frozenset(
    {
        ".env",
        ".envrc",
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "id_ecdsa_sk",
        "id_ed25519_sk",
        ".netrc",
        "_netrc",
        ".pgpass",
        ".npmrc",
        ".pypirc",
        ".git-credentials",
        ".htpasswd",
        ".dockercfg",
        ".s3cfg",
        ".boto",
        "credentials.json",
        "secrets.yml",
        "secrets.yaml",
        "secrets.json",
        "secrets.toml",
    }
)
"""Secret file names (lower-case)."""

SECRET_SUFFIXES = (
    ".env",
    ".pem",
    ".key",
    ".p8",
    ".p12",
    ".pfx",
    ".pkcs12",
    ".ppk",
    ".jks",
    ".keystore",
    ".kdbx",
    ".keytab",
    ".tfstate",
    ".tfstate.backup",
)
"""Secret name endings (lower-case)."""

SECRET_JSON_PREFIXES = ("service-account", "service_account", "client_secret")
"""``<prefix>*.json`` files are secret (cloud service-account keys, OAuth client secrets)."""

ENV_TEMPLATE_SUFFIXES = (".example", ".sample", ".template")
"""``.env.*`` files ending like this are templates, not secrets."""

SECRET_PATHS = (".aws/credentials", ".docker/config.json", ".kube/config")
"""Secret files recognised by their last path components (lower-case)."""

_SECRET_PATH_TAILS = tuple("/" + p for p in SECRET_PATHS)
_SECRET_PATH_NAMES = frozenset(p.rsplit("/", 1)[1] for p in SECRET_PATHS)

BINARY_SNIFF_BYTES = 8192
"""How much of a file :func:`looks_binary` wants to see."""

# --------------------------------------------------------------------------------------------------
# Public API


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One file to index."""

    path: str  # POSIX path relative to the root
    size: int  # bytes
    mtime_ns: int  # modification time, nanoseconds (of the target, for a symlink)


@dataclass
class Discovery:
    """The result of a walk: files to index, sorted by path, and skip reason -> count."""

    files: list[FileEntry] = field(default_factory=list)
    skipped: collections.Counter[str] = field(default_factory=collections.Counter)


def discover(root: Path, settings: Settings) -> Discovery:
    """Walk ``root`` and return the files to index and why everything else was skipped.

    Raises ``FileNotFoundError``/``NotADirectoryError`` if ``root`` is not a directory.
    """
    rules = _Rules(root, settings)
    files: list[FileEntry] = []
    skipped: collections.Counter[str] = collections.Counter()
    stack: list[tuple[_Dir | None, _Child]] = [(None, rules.root_child())]
    while stack:
        parent, child = stack.pop()
        try:
            with os.scandir(child.abs) as it:
                entries = list(it)
        except (FileNotFoundError, NotADirectoryError):
            if parent is None:
                raise
            continue  # deleted during the walk
        except OSError:  # PermissionError and friends
            skipped[UNREADABLE] += 1
            continue
        d = rules.enter(parent, child, {e.name for e in entries})
        if isinstance(d, str):
            skipped[d] += 1
            continue
        for e in entries:
            try:
                is_link = e.is_symlink()
                is_dir = not is_link and e.is_dir(follow_symlinks=False)
                is_reg = not is_link and not is_dir and e.is_file(follow_symlinks=False)
            except OSError:
                skipped[UNREADABLE] += 1
                continue
            res = rules.judge(d, e.name, e.path, is_link, is_dir, is_reg, e)
            if isinstance(res, FileEntry):
                files.append(res)
            elif isinstance(res, _Child):
                stack.append((d, res))
            elif res != MISSING:
                skipped[res] += 1
    files.sort(key=lambda f: f.path)
    return Discovery(files, skipped)


def check_path(root: Path, rel_path: str, settings: Settings) -> str | None:
    """Return ``None`` if the file at ``rel_path`` should be indexed, else the reason it is skipped.

    ``rel_path`` is relative to ``root`` (POSIX or native separators); an absolute path inside the
    root is accepted too. Every folder on the way down is judged as :func:`discover` judges it, with
    the ignore files found there, so the answer is always the one a full walk would give. A folder
    gets the reason it is skipped, or ``"directory"`` if the walk enters it. Costs a few system calls
    per path component; compiled ignore files are cached (keyed by path, mtime and size).
    """
    rules = _Rules(root, settings)
    rel = _relativise(rules, rel_path)
    if rel is None:
        return OUTSIDE_ROOT
    res = rules.resolve(rel)
    if isinstance(res, str):
        return res
    return None if isinstance(res, FileEntry) else DIRECTORY


def is_secret_file(rel_path: str) -> bool:
    """Whether the file at ``rel_path`` (relative to the root) is a secret that must never be indexed."""
    lrel = rel_path.replace("\\", "/").strip("/").lower()
    parts = lrel.split("/")
    if any(p in SECRET_DIRS for p in parts[:-1]):
        return True
    return _is_secret_name(parts[-1], lrel)


_TEXT_BYTES = bytes([7, 8, 9, 10, 11, 12, 13, 27, *range(0x20, 0x7F), *range(0x80, 0x100)])
BINARY_CONTROL_RATIO = 0.05
"""Share of control bytes (other than whitespace, BEL, BS and ESC) above which content is binary."""


def looks_binary(head: bytes) -> bool:
    """Content sniff of the first :data:`BINARY_SNIFF_BYTES` of a file.

    Binary if it holds a NUL byte (which also classes UTF-16/32 as binary: the indexer reads UTF-8 and
    Latin-1 only) or if more than :data:`BINARY_CONTROL_RATIO` of its bytes are control characters.
    Bytes >= 0x80 count as text, so UTF-8 (CJK included), Latin-1 and other 8-bit or multi-byte text is
    text. Empty content is text.
    """
    if not head:
        return False
    head = head[:BINARY_SNIFF_BYTES]
    if b"\0" in head:
        return True
    control = len(head.translate(None, _TEXT_BYTES))
    return control > BINARY_CONTROL_RATIO * len(head)


# --------------------------------------------------------------------------------------------------
# Internals


def _is_secret_name(lname: str, rel: str) -> bool:
    """``lname``: the lower-case file name; ``rel``: its root-relative POSIX path."""
    if lname in SECRET_NAMES or lname.endswith(SECRET_SUFFIXES):
        return True
    if lname.startswith(".env."):
        return not lname.endswith(ENV_TEMPLATE_SUFFIXES)
    if lname.endswith(".json") and lname.startswith(SECRET_JSON_PREFIXES):
        return True
    return lname in _SECRET_PATH_NAMES and ("/" + rel.lower()).endswith(_SECRET_PATH_TAILS)


def _default_reason(name: str, lname: str, is_dir: bool) -> str | None:
    if is_dir:
        reason = DEFAULT_EXCLUDED_DIRS.get(name)
        if reason is None:
            for suffix, r in DEFAULT_EXCLUDED_DIR_SUFFIXES.items():
                if lname.endswith(suffix):
                    return r
        return reason
    if lname in LOCK_FILES or lname.endswith(".lock"):
        return LOCK_FILE
    if lname.endswith(GENERATED_SUFFIXES) or (GENERATED_INFIX in lname):
        return GENERATED
    if lname in BINARY_NAMES:
        return BINARY
    dot = lname.rfind(".")
    if dot >= 0 and lname[dot + 1 :] in BINARY_EXTENSIONS:
        return BINARY
    return None


_NAMED_GROUP = re.compile(r"\(\?P<(\w+)>")
_DIR_MARK = "(?P<ps_d>"


def _self_regex(source: str) -> str:
    """Turn a pathspec gitignore regex into one that matches a path *itself*, not via a parent.

    pathspec's regexes are searched against file paths, and match a file when the pattern names the
    file or any folder above it: a trailing ``(?P<ps_d>/)`` marks "a folder matched here", and a
    pattern ending in ``/**`` compiles to a bare prefix such as ``^a/``. The walk presents folders as
    ``"dir/"`` and has already judged every parent, so here a match must reach the end of the path:
    a folder mark only at the very end, and a ``/**`` prefix only with something after it (``a/**``
    matches what is inside ``a``, not ``a`` itself).
    """
    if _DIR_MARK in source:
        return source + r"\Z"
    return source + (r".+\Z" if source.endswith("/") else r".*\Z")


def _alternation(sources: list[str]) -> re.Pattern[str] | None:
    try:
        return re.compile("|".join("(?:" + _NAMED_GROUP.sub("(?:", src) + ")" for src in sources))
    except re.error:
        return None


@dataclass(frozen=True, slots=True)
class _Compiled:
    """The patterns of one ignore file (or settings list), compiled by pathspec."""

    spec: pathspec.GitIgnoreSpec
    last_first: tuple[tuple[bool, re.Pattern[str]], ...]  # (ignores?, self-regex), last pattern first
    self_filter: re.Pattern[str] | None  # all self-regexes in one: the common miss costs one search
    cover_filter: re.Pattern[str] | None  # all pathspec regexes in one

    def verdict(self, path: str) -> bool | None:
        """Git's verdict on ``path`` itself (a folder with a trailing "/"): the last pattern that
        matches it decides; True = ignored, False = re-included by a negation, None = no match.
        """
        pre = self.self_filter
        if pre is not None and pre.search(path) is None:
            return None
        for ignores, regex in self.last_first:
            if regex.search(path) is not None:
                return ignores
        return None

    def covers(self, path: str) -> bool:
        """Whether ``path`` or one of its parent folders matches (``settings.include``)."""
        pre = self.cover_filter
        if pre is not None and pre.search(path) is None:
            return False
        return bool(self.spec.check_file(path).include)


def _git_line(line: str) -> str:
    """Work around pathspec compiling ``a/**/`` like ``a/``: in git it means the folders inside ``a``."""
    stripped = line.rstrip(" ")
    if stripped.endswith("/**/") and len(stripped) > 4 and not stripped.endswith("\\/**/"):
        return stripped + "*/"
    return line


def _compile_lines(lines: tuple[str, ...]) -> _Compiled | None:
    spec = pathspec.GitIgnoreSpec.from_lines([_git_line(line) for line in lines])
    sources = [
        (bool(p.include), p.regex.pattern)
        for p in spec.patterns
        if p.include is not None and isinstance(getattr(p, "regex", None), re.Pattern)
    ]
    if not sources:
        return None
    self_sources = [_self_regex(src) for _, src in sources]
    last_first = tuple((ignores, re.compile(_self_regex(src))) for ignores, src in reversed(sources))
    return _Compiled(spec, last_first, _alternation(self_sources), _alternation([src for _, src in sources]))


@lru_cache(maxsize=1024)
def _compile_file(path: str, mtime_ns: int, size: int) -> _Compiled | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    return _compile_lines(tuple(text.lstrip("\ufeff").splitlines()))


def _load_ignore_file(path: str) -> _Compiled | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return _compile_file(path, st.st_mtime_ns, st.st_size)


@dataclass(frozen=True, slots=True)
class _Layer:
    """One ignore file's patterns, anchored at a directory."""

    compiled: _Compiled
    strip: int  # leading characters of the root-relative path to drop (the layer's dir inside the root)
    prepend: str  # path from the layer's dir down to the root (layers above the root), with a "/"

    def check(self, rel: str) -> bool | None:
        """True: ignored, False: re-included by a negation, None: no pattern matched."""
        return self.compiled.verdict(self.prepend + rel[self.strip :] if self.strip or self.prepend else rel)


@dataclass(frozen=True, slots=True)
class _Child:
    """A directory to enter."""

    abs: str
    prefix: str  # root-relative path with a trailing "/", "" for the root
    real: str  # resolved path
    forced: bool  # kept by a negation in settings.exclude or a .spyglassignore


@dataclass(frozen=True, slots=True)
class _Dir:
    """An entered directory and the rules in force inside it."""

    abs: str
    prefix: str
    real: str
    ancestors: frozenset[str]  # resolved paths of this directory and all above it, for loop detection
    spy: tuple[_Layer, ...]  # .spyglassignore layers, lowest precedence first
    git: tuple[_Layer, ...]  # git layers, lowest precedence first


def _read_gitconfig_excludes(path: str) -> str | None:
    """The last ``core.excludesFile`` value in a git config file (minimal parser, no includes)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    section = ""
    value = None
    for raw in lines:
        line = raw.strip()
        if line.startswith("["):
            end = line.find("]")
            if end < 0:
                continue
            header = line[1:end].split(None, 1)
            section = header[0].lower() if header else ""
            line = line[end + 1 :].strip()
        if not line or line[0] in "#;" or section != "core" or "=" not in line:
            continue
        key, _, val = line.partition("=")
        if key.strip().lower() != "excludesfile":
            continue
        val = val.strip()
        if val.startswith('"'):
            val = val[1:].split('"', 1)[0]
        else:
            val = re.split(r"\s[#;]", val, maxsplit=1)[0].strip()
        value = val
    return value


def _global_excludes_path() -> str | None:
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    value = None
    for cfg in (os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")):
        v = _read_gitconfig_excludes(cfg)
        if v is not None:
            value = v  # ~/.gitconfig is read after the XDG file and wins
    if value == "":
        return None
    if value is None:
        return os.path.join(xdg, "git", "ignore")
    value = os.path.expanduser(value)
    return value if os.path.isabs(value) else os.path.join(home, value)


def _git_dir(top: str) -> str | None:
    """The directory holding ``info/exclude`` for the work tree at ``top``."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8", errors="replace") as f:
            first = f.readline().strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    gitdir = os.path.join(top, first[len("gitdir:") :].strip())
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as f:
            return os.path.join(gitdir, f.read().strip())  # a worktree: info/ is in the common dir
    except OSError:
        return gitdir


def _outer_git_layers(root_real: str) -> tuple[_Layer, ...]:
    """Global excludes, the enclosing repository's info/exclude and the .gitignore files above root."""
    top = None
    d = root_real
    while True:
        if os.path.lexists(os.path.join(d, ".git")):
            top = d
            break
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    home = os.path.realpath(os.path.expanduser("~"))
    if top is not None and top == home and top != root_real:
        top = None  # a dotfiles repository at ~ does not own every project below it

    def prefix_of(directory: str) -> str:
        if directory == root_real:
            return ""
        return os.path.relpath(root_real, directory).replace(os.sep, "/") + "/"

    layers: list[_Layer] = []
    repo_prefix = prefix_of(top) if top is not None else ""
    global_path = _global_excludes_path()
    if global_path:
        compiled = _load_ignore_file(global_path)
        if compiled:
            layers.append(_Layer(compiled, 0, repo_prefix))
    if top is not None:
        gitdir = _git_dir(top)
        if gitdir:
            compiled = _load_ignore_file(os.path.join(gitdir, "info", "exclude"))
            if compiled:
                layers.append(_Layer(compiled, 0, repo_prefix))
        above: list[str] = []
        d = os.path.dirname(root_real)
        while top != root_real:
            above.append(d)
            if d == top or os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
        for directory in reversed(above):  # top first: lower precedence
            compiled = _load_ignore_file(os.path.join(directory, ".gitignore"))
            if compiled:
                layers.append(_Layer(compiled, 0, prefix_of(directory)))
    return tuple(layers)


def _relativise(rules: _Rules, rel_path: str) -> str | None:
    """A normalised root-relative POSIX path, "" for the root itself, None if outside the root."""
    p = os.fspath(rel_path)
    if os.path.isabs(p):
        absolute = os.path.normpath(p)
        for base in (rules.root_abs, rules.root_real):
            rel = os.path.relpath(absolute, base)
            if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                break
        else:
            return None
        p = rel
    p = posixpath.normpath(p.replace(os.sep, "/"))
    if p == ".":
        return ""
    if p == ".." or p.startswith("../") or p.startswith("/"):
        return None
    return p


class _Rules:
    """Everything fixed for one root and one Settings: compiled globs and the outer ignore layers."""

    def __init__(self, root: Path, settings: Settings) -> None:
        self.root_abs = os.path.abspath(root)
        self.root_real = os.path.realpath(root)
        self.real_prefix = self.root_real if self.root_real.endswith(os.sep) else self.root_real + os.sep
        self.max_file_size = settings.max_file_size
        self.exclude: _Layer | None = None
        if settings.exclude:
            compiled = _compile_lines(tuple(settings.exclude))
            self.exclude = _Layer(compiled, 0, "") if compiled else None
        # include: None = everything, else the globs a file or one of its folders must match
        self.include: _Compiled | None = None
        self.include_nothing = False
        if settings.include:
            self.include = _compile_lines(tuple(settings.include))
            self.include_nothing = self.include is None  # only comments or blank lines
        index = os.path.join(self.root_abs, os.path.expanduser(settings.index_dir))
        rel = os.path.relpath(os.path.realpath(index), self.root_real)
        self.index_rel = (
            None
            if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep)
            else rel.replace(os.sep, "/")
        )
        self.outer_git = _outer_git_layers(self.root_real)
        self._walked: dict[str, bool] = {}
        self._resolving = False

    def resolve(self, rel: str) -> FileEntry | _Dir | str:
        """Judge the entry at a normalised root-relative path and every folder on the way down."""
        if not os.access(self.root_abs, os.R_OK):
            return UNREADABLE
        d = self.enter(None, self.root_child(), None)
        assert not isinstance(d, str)
        if not rel:
            return d
        parts = rel.split("/")
        last = len(parts) - 1
        for i, name in enumerate(parts):
            path = os.path.join(d.abs, name)
            try:
                st = os.lstat(path)
            except PermissionError:
                return UNREADABLE
            except OSError:
                return MISSING
            mode = st.st_mode
            res = self.judge(d, name, path, stat.S_ISLNK(mode), stat.S_ISDIR(mode), stat.S_ISREG(mode), st)
            if isinstance(res, str):
                return res
            if isinstance(res, FileEntry):
                return res if i == last else MISSING  # a file where a folder should be
            if not os.access(res.abs, os.R_OK):
                return UNREADABLE
            nd = self.enter(d, res, None)
            if isinstance(nd, str):
                return nd
            d = nd
        return d

    def target_walked(self, target_rel: str) -> bool:
        """Whether the walk reaches a symlink's target under its own path (then the link is a duplicate).

        The target is a resolved path, so resolving it meets no further symlinks; the guard only
        matters if the tree changes meanwhile.
        """
        known = self._walked.get(target_rel)
        if known is None:
            if self._resolving:
                return False
            self._resolving = True
            try:
                known = not isinstance(self.resolve(target_rel), str)
            finally:
                self._resolving = False
            self._walked[target_rel] = known
        return known

    def root_child(self) -> _Child:
        return _Child(self.root_abs, "", self.root_real, False)

    def enter(self, parent: _Dir | None, child: _Child, names: set[str] | None) -> _Dir | str:
        """Set up a directory about to be walked, or the reason to skip it after all (a virtualenv).

        ``names`` are the directory's entries if already listed, else the file system is probed.
        """
        if parent is None:
            spy: tuple[_Layer, ...] = ()
            git = self.outer_git
            ancestors: frozenset[str] = frozenset((child.real,))
        else:
            if not child.forced:
                if names is not None:
                    is_venv = any(m in names for m in VIRTUALENV_MARKERS)
                else:
                    is_venv = any(os.path.lexists(os.path.join(child.abs, m)) for m in VIRTUALENV_MARKERS)
                if is_venv:
                    return VIRTUALENV
            spy, git = parent.spy, parent.git
            ancestors = parent.ancestors | {child.real}
        strip = len(child.prefix)
        for fname in IGNORE_FILES:
            if names is not None and fname not in names:
                continue
            compiled = _load_ignore_file(os.path.join(child.abs, fname))
            if compiled is None:
                continue
            layer = _Layer(compiled, strip, "")
            if fname == ".gitignore":
                git = (*git, layer)
            else:
                spy = (*spy, layer)
        return _Dir(child.abs, child.prefix, child.real, ancestors, spy, git)

    def name_rules(self, d: _Dir, name: str, rel: str, is_dir: bool) -> tuple[str | None, bool]:
        """Rules 1-5 of the module doc: (skip reason or None, kept by a spyglass-side negation)."""
        if name in VCS_NAMES:
            return VCS, False
        lname = name.lower()
        if is_dir:
            if name == INDEX_DIR_NAME or rel == self.index_rel:
                return INDEX_DIR, False
            if lname in SECRET_DIRS:
                return SECRET, False
            path = rel + "/"
        else:
            # no secret folder is ever entered, so the name (and the path tail) is all there is to check
            if _is_secret_name(lname, rel):
                return SECRET, False
            path = rel
        if self.exclude is not None:
            verdict = self.exclude.check(path)
            if verdict is not None:
                return (EXCLUDED, False) if verdict else (None, True)
        for layer in reversed(d.spy):
            verdict = layer.check(path)
            if verdict is not None:
                return (IGNORED, False) if verdict else (None, True)
        for layer in reversed(d.git):
            verdict = layer.check(path)
            if verdict is not None:
                if verdict:
                    return IGNORED, False
                break
        return _default_reason(name, lname, is_dir), False

    def target_reason(self, target_rel: str, is_dir: bool) -> str | None:
        """Hard rules applied to where a symlink points (root-relative path of the target)."""
        if not target_rel:
            return None
        parts = target_rel.split("/")
        if any(p in VCS_NAMES for p in parts):
            return VCS
        if INDEX_DIR_NAME in parts or (
            self.index_rel is not None and (target_rel == self.index_rel or target_rel.startswith(self.index_rel + "/"))
        ):
            return INDEX_DIR
        if is_dir:
            return SECRET if any(p.lower() in SECRET_DIRS for p in parts) else None
        return SECRET if is_secret_file(target_rel) else None

    def judge(
        self,
        d: _Dir,
        name: str,
        path: str,
        is_link: bool,
        is_dir: bool,
        is_reg: bool,
        lst: os.DirEntry[str] | os.stat_result,
    ) -> FileEntry | _Child | str:
        """Decide one directory entry: a file to index, a directory to enter, or a skip reason."""
        st: os.stat_result | None = None
        link_problem = None
        if is_link:
            try:
                st = os.stat(path)
            except FileNotFoundError:
                link_problem = BROKEN_SYMLINK
            except PermissionError:
                link_problem = UNREADABLE
            except OSError as e:
                link_problem = SYMLINK_LOOP if e.errno == errno.ELOOP else BROKEN_SYMLINK
            else:
                is_dir = stat.S_ISDIR(st.st_mode)
                is_reg = stat.S_ISREG(st.st_mode)
        rel = d.prefix + name
        reason, forced = self.name_rules(d, name, rel, is_dir)
        if reason is not None:
            return reason
        if link_problem is not None:
            return link_problem
        real = None
        if is_link:
            real = os.path.realpath(path)
            if real == self.root_real:
                target_rel = ""
            elif real.startswith(self.real_prefix):
                target_rel = real[len(self.real_prefix) :].replace(os.sep, "/")
            else:
                return SYMLINK_OUTSIDE_ROOT
            if is_dir and real in d.ancestors:
                return SYMLINK_LOOP
            reason = self.target_reason(target_rel, is_dir)
            if reason is not None:
                return reason
            if self.target_walked(target_rel):
                return SYMLINK_DUPLICATE
        if is_dir:
            return _Child(path, rel + "/", real or os.path.join(d.real, name), forced)
        if not is_reg:
            return NOT_REGULAR
        if self.include_nothing or (self.include is not None and not self.include.covers(rel)):
            return NOT_INCLUDED
        if st is None:
            try:
                st = lst.stat(follow_symlinks=False) if isinstance(lst, os.DirEntry) else lst
            except FileNotFoundError:
                return MISSING
            except OSError:
                return UNREADABLE
        if st.st_size > self.max_file_size:
            return TOO_LARGE
        if not os.access(path, os.R_OK):
            return UNREADABLE
        return FileEntry(rel, st.st_size, st.st_mtime_ns)
