"""File rules: the skip reasons and the per-name tables that decide what is never, or not by default, indexed.

Pure data and pure functions of a name, a path or a few bytes: no file-system access and no state.
:mod:`spyglass.engine.discovery` applies these rules during its walk, in the order its module doc gives.

Hard rules (never overridable): version-control folders (:data:`VCS_NAMES`), index folders
(:data:`INDEX_DIR_NAME`) and secret files (:data:`SECRET_DIRS` and :func:`is_secret_file`, listed below).

Default excludes (:func:`default_reason`; overridable by ``settings.exclude`` and ``.spyglassignore``
negations): :data:`DEFAULT_EXCLUDED_DIRS`, :data:`DEFAULT_EXCLUDED_DIR_SUFFIXES`, :data:`LOCK_FILES`,
:data:`GENERATED_SUFFIXES`, :data:`BINARY_EXTENSIONS` ..., reasons ``"virtualenv"``, ``"dependencies"``,
``"build output"``, ``"cache"``, ``"editor metadata"``, ``"lock file"``, ``"generated"``, ``"binary"``.
Any directory holding a ``pyvenv.cfg`` or ``conda-meta`` (:data:`VIRTUALENV_MARKERS`) is a virtualenv
whatever its name (the root itself excepted; the walk checks the markers, as it holds the listing).
Directory names match case-sensitively, file names and extensions case-insensitively. Binaries are judged
by extension only; content sniffing is left to the indexer, which reads the file anyway
(:func:`looks_binary`).

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
"""

from __future__ import annotations

import fnmatch
import functools
import re
from pathlib import PurePosixPath

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
BAD_NAME = "name not UTF-8"  # bytes that are no UTF-8 (old archives): no URI, JSON or index row can carry it
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
    BAD_NAME,
    MISSING,
    OUTSIDE_ROOT,
    DIRECTORY,
)
"""Every reason :func:`.discovery.discover` or :func:`.discovery.check_path` can give, for docs and status output."""

# --------------------------------------------------------------------------------------------------
# Data: the hard rules and the default rules

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


def is_secret_file(rel_path: str) -> bool:
    """Whether the file at ``rel_path`` (relative to the root) is a secret that must never be indexed."""
    lrel = rel_path.replace("\\", "/").strip("/").lower()
    parts = lrel.split("/")
    if any(p in SECRET_DIRS for p in parts[:-1]):
        return True
    return is_secret_name(parts[-1], lrel)


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


def is_secret_name(lname: str, rel: str) -> bool:
    """``lname``: the lower-case file name; ``rel``: its root-relative POSIX path."""
    if lname in SECRET_NAMES or lname.endswith(SECRET_SUFFIXES):
        return True
    if lname.startswith(".env."):
        return not lname.endswith(ENV_TEMPLATE_SUFFIXES)
    if lname.endswith(".json") and lname.startswith(SECRET_JSON_PREFIXES):
        return True
    return lname in _SECRET_PATH_NAMES and ("/" + rel.lower()).endswith(_SECRET_PATH_TAILS)


def default_reason(name: str, lname: str, is_dir: bool) -> str | None:
    """The default-exclude reason for a name (``lname``: the same, lower-case), or None to keep it."""
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


# test files, by the path conventions of many languages (search prefers the code under test)
TEST_DIR_NAMES = frozenset({"test", "tests", "testing", "__tests__", "spec"})
TEST_FILE_PATTERNS = ("test_*", "*_test.*", "*_tests.*", "*_spec.*", "*.test.*", "*.spec.*", "conftest.py")


@functools.lru_cache(maxsize=65536)  # search asks for every candidate of every query
def is_test_path(path: str) -> bool:
    """Whether ``path`` (POSIX or native separators) looks like a test file in any common language.

    A folder named ``test``, ``tests``, ``testing``, ``__tests__`` or ``spec`` anywhere on the path, or a
    file named ``test_*``, ``*_test.*``, ``*_tests.*``, ``*_spec.*``, ``*.test.*``, ``*.spec.*`` or
    ``conftest.py`` (case-insensitive).
    """
    parts = PurePosixPath(path.replace("\\", "/").lower()).parts
    if not parts:
        return False
    if any(p in TEST_DIR_NAMES for p in parts[:-1]):
        return True
    name = parts[-1]
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in TEST_FILE_PATTERNS)


EXAMPLE_DIR_NAMES = frozenset({"example", "examples", "_examples", "demo", "demos", "sample", "samples"})
SIDE_DIR_NAMES = EXAMPLE_DIR_NAMES | {"doc", "docs", "benchmarks"}


@functools.lru_cache(maxsize=65536)
def is_side_path(path: str) -> bool:
    """Whether ``path`` lies in a folder of documentation, examples, demos or benchmarks (by name, anywhere
    on the path): code there illustrates the project rather than implementing it."""
    parts = PurePosixPath(path.replace("\\", "/").lower()).parts
    return any(p in SIDE_DIR_NAMES for p in parts[:-1])


# a file named as an example wherever it lives (``example.py``, ``example_google.py``, ``example-app.js``)
EXAMPLE_FILE_RE = re.compile(r"example(?:[._-]|$)")


@functools.lru_cache(maxsize=65536)
def is_example_path(path: str) -> bool:
    """Whether ``path`` lies in a folder of examples, demos or samples (``examples/``, Go's ``_examples/``)
    or is a file named as an example (``doc/usage/example_google.py``): code that shows how the project is
    used, beside the code that implements it."""
    parts = PurePosixPath(path.replace("\\", "/").lower()).parts
    return any(p in EXAMPLE_DIR_NAMES for p in parts[:-1]) or bool(parts and EXAMPLE_FILE_RE.match(parts[-1]))
