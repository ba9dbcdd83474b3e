"""The writer lock: one process writes a workspace's index, every other one reads or waits.

An advisory ``flock`` on ``writer.lock`` beside the database. The kernel drops it when the holder exits,
even on kill -9, so a crashed writer never leaves a stale lock behind. The file's text says who holds it,
so a second writer can say whom it is waiting for.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .errors import IndexLocked


class WriterLock:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def holder(self) -> dict | None:
        """Who holds the lock, as they wrote it (pid, command, since), or None if nobody does."""
        if self._fd is not None:
            return self._describe()
        if not self.path.exists():
            return None
        fd = os.open(self.path, os.O_RDONLY)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                try:
                    return json.loads(self.path.read_text(encoding="utf-8") or "{}")
                except (OSError, ValueError):
                    return {"pid": None}
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    def acquire(self, timeout: float = 0.0, on_wait: Callable[[dict | None], None] | None = None) -> None:
        """Take the lock, waiting up to ``timeout`` seconds; raises IndexLocked naming the holder."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + timeout
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    who = self.holder() or {}
                    raise IndexLocked(
                        f"the index is being written by another process (pid {who.get('pid')}, "
                        f"{who.get('command', 'unknown command')}); wait for it to finish or stop it",
                        who,
                    ) from None
                if on_wait and not told:
                    on_wait(self.holder())
                    told = True
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps(self._describe()).encode("utf-8"))
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    @staticmethod
    def _describe() -> dict:
        return {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "command": " ".join([os.path.basename(sys.argv[0]), *sys.argv[1:]])[:200],
            "since": time.time(),
        }

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
