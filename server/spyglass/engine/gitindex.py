"""The files git tracks in a checkout, read from its index file (``.git/index``) without running git.

Git's ignore rules are for files git does not track: a file added before a rule matched it, or added with
``git add -f``, stays tracked and is part of the repository (skorch ignores ``*.ipynb`` and tracks 17
notebooks). Discovery keeps such a file although a ``.gitignore`` matches it (discovery.py, rule 4).

The index format (git's ``Documentation/gitformat-index.txt``): a header (``DIRC``, version 2, 3 or 4, the
number of entries), then each entry's stat data, object id and flags, and its path: NUL-ended and padded to
a multiple of 8 bytes in versions 2 and 3, prefix-compressed against the previous path in version 4. An
index this cannot read (another version, a split or sparse index's missing entries, a damaged file) gives
the paths it could read, or none: the ignore rules then hold for those files, as they did before.
"""

from __future__ import annotations

import logging
import os
import struct
import threading
from pathlib import Path

from .gitinfo import checkout, common_dir

log = logging.getLogger(__name__)

_STAT_BYTES = 40  # ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: 4 bytes each
_EXTENDED = 0x4000
_cache: dict[str, tuple[tuple[int, int, int], frozenset[str]]] = {}
_lock = threading.Lock()


def tracked_paths(root: Path) -> frozenset[str]:
    """The files git tracks under ``root``, as POSIX paths relative to it; empty outside git. Read again
    only when the index file changes (its size, mtime or inode)."""
    found = checkout(root)
    if found is None:
        return frozenset()
    top, git_dir = found
    index = git_dir / "index"
    try:
        st = index.stat()
        prefix = Path(os.path.realpath(root)).relative_to(os.path.realpath(top)).as_posix()
    except (OSError, ValueError):
        return frozenset()
    prefix = "" if prefix == "." else prefix + "/"
    key = f"{index}\0{prefix}"
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
    with _lock:
        cached = _cache.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        data = index.read_bytes()
    except OSError:
        return frozenset()
    paths = frozenset(p[len(prefix) :] for p in read_index(data, _hash_size(git_dir)) if p.startswith(prefix))
    with _lock:
        _cache[key] = (stamp, paths)
    return paths


def read_index(data: bytes, hash_size: int = 20) -> list[str]:
    """The paths of a git index file's entries, in its order (as many as could be read)."""
    if len(data) < 12 or data[:4] != b"DIRC":
        return []
    version, count = struct.unpack_from(">II", data, 4)
    if version not in (2, 3, 4):
        log.info("git index version %d is not read: ignore rules hold for every file", version)
        return []
    paths: list[str] = []
    pos, previous = 12, b""
    flags_at = _STAT_BYTES + hash_size
    try:
        for _ in range(count):
            start = pos
            (flags,) = struct.unpack_from(">H", data, pos + flags_at)
            pos += flags_at + 2
            if version >= 3 and flags & _EXTENDED:
                pos += 2
            if version == 4:
                strip, pos = _varint(data, pos)
                end = data.index(b"\0", pos)
                name = previous[: len(previous) - strip] + data[pos:end]
                pos = end + 1
            else:
                end = data.index(b"\0", pos)
                name = data[pos:end]
                pos = start + ((end - start) // 8 + 1) * 8  # 1 to 8 NULs end the entry on a multiple of 8
            previous = name
            if not name.endswith(b"/"):  # a sparse index's folder entry stands for files it does not list
                paths.append(os.fsdecode(name))
    except (struct.error, ValueError, IndexError):
        log.info("git index read up to entry %d of %d: the rest keep the ignore rules", len(paths), count)
    return paths


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """Git's offset encoding of version 4 (each continuation adds one before shifting)."""
    byte = data[pos]
    value = byte & 0x7F
    pos += 1
    while byte & 0x80:
        byte = data[pos]
        value = ((value + 1) << 7) | (byte & 0x7F)
        pos += 1
    return value, pos


def _hash_size(git_dir: Path) -> int:
    """20 bytes (SHA-1), or 32 for a repository of SHA-256 object ids."""
    for folder in (git_dir, common_dir(git_dir)):
        try:
            text = (folder / "config").read_text(encoding="utf-8", errors="replace").lower()
        except OSError:
            continue
        if "objectformat" in text and "sha256" in text:
            return 32
    return 20
