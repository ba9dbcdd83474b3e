"""Ignore files: compiling gitignore-syntax patterns and finding the git ignore files that apply.

Per-directory ignore files (:data:`IGNORE_FILES`: ``.gitignore`` and ``.spyglassignore``) and the
``settings.exclude``/``settings.include`` globs are compiled with pathspec (:func:`compile_lines`; files
are cached, keyed by path, mtime and size). A :class:`Layer` anchors one compiled file at its directory.
Negations, anchoring and dir-only patterns follow git; pathspec's regexes are reworked so that a pattern
matches a path itself rather than through a parent folder, since the walk judges every folder on the way
(see :func:`_self_regex`).

Git ignore rules beyond those inside the root (:func:`outer_git_layers`): the ``.gitignore`` files
above the root up to the enclosing repository's top and its ``.git/info/exclude``, then the global
excludes file (``core.excludesFile`` from ``$XDG_CONFIG_HOME/git/config`` or ``~/.gitconfig``, else
``$XDG_CONFIG_HOME/git/ignore``; files are read, git is never run). A repository whose top is the home
directory (a dotfiles repo) is not treated as enclosing the root.

Which layer wins over which is decided by :mod:`spyglass.engine.discovery`.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache

import pathspec

IGNORE_FILES = (".gitignore", ".spyglassignore")
"""Per-directory ignore files, both in gitignore syntax."""


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
class Compiled:
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


def compile_lines(lines: tuple[str, ...]) -> Compiled | None:
    spec = pathspec.GitIgnoreSpec.from_lines([_git_line(line) for line in lines])
    sources = [
        (bool(p.include), p.regex.pattern)
        for p in spec.patterns
        if p.include is not None and isinstance(p.regex, re.Pattern)
    ]
    if not sources:
        return None
    self_sources = [_self_regex(src) for _, src in sources]
    last_first = tuple((ignores, re.compile(_self_regex(src))) for ignores, src in reversed(sources))
    return Compiled(spec, last_first, _alternation(self_sources), _alternation([src for _, src in sources]))


@lru_cache(maxsize=1024)
def _compile_file(path: str, mtime_ns: int, size: int) -> Compiled | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    return compile_lines(tuple(text.lstrip("\ufeff").splitlines()))


def load_ignore_file(path: str) -> Compiled | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return _compile_file(path, st.st_mtime_ns, st.st_size)


@dataclass(frozen=True, slots=True)
class Layer:
    """One ignore file's patterns, anchored at a directory."""

    compiled: Compiled
    strip: int  # leading characters of the root-relative path to drop (the layer's dir inside the root)
    prepend: str  # path from the layer's dir down to the root (layers above the root), with a "/"

    def check(self, rel: str) -> bool | None:
        """True: ignored, False: re-included by a negation, None: no pattern matched."""
        return self.compiled.verdict(self.prepend + rel[self.strip :] if self.strip or self.prepend else rel)


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


def outer_git_layers(root_real: str) -> tuple[Layer, ...]:
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

    layers: list[Layer] = []
    repo_prefix = prefix_of(top) if top is not None else ""
    global_path = _global_excludes_path()
    if global_path:
        compiled = load_ignore_file(global_path)
        if compiled:
            layers.append(Layer(compiled, 0, repo_prefix))
    if top is not None:
        gitdir = _git_dir(top)
        if gitdir:
            compiled = load_ignore_file(os.path.join(gitdir, "info", "exclude"))
            if compiled:
                layers.append(Layer(compiled, 0, repo_prefix))
        above: list[str] = []
        d = os.path.dirname(root_real)
        while top != root_real:
            above.append(d)
            if d == top or os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
        for directory in reversed(above):  # top first: lower precedence
            compiled = load_ignore_file(os.path.join(directory, ".gitignore"))
            if compiled:
                layers.append(Layer(compiled, 0, prefix_of(directory)))
    return tuple(layers)
