"""The index's owner answers other processes: ``spyglass index`` asks it to bring the index up to date.

A long-running process that holds the writer lock (a live index: the MCP or the language server) never
finishes, so a second writer cannot just wait for it. Instead the owner listens on a Unix socket beside
the lock (``owner.sock``, mode 0600) and anyone may ask it, in JSON lines::

    -> {"op": "update"}
    <- {"event": "accepted", "pid": 123}
    <- {"event": "progress", "phase": "parse", "done": 50, "total": 120}      (any number)
    <- {"event": "done", "report": {...IndexReport.summary()...}, "index": {...freshness...}}
       or {"event": "error", "message": "..."}

The owner answers at once and then runs the update (a full sync, then every pending vector); the asker
shows the progress and prints the usual summary. A socket path too long for ``AF_UNIX`` moves to
``/tmp/spyglass-<uid>/``. A socket left by a process that died is replaced by the next owner and refused
to the asker (nobody listens), who then falls back to waiting for the lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import queue
import socket
import stat
import threading
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

from .errors import SpyglassError
from .indexer import Phase, ProgressFn

log = logging.getLogger(__name__)

SOCKET_NAME = "owner.sock"
MAX_SOCKET_PATH = 96  # bytes; AF_UNIX allows 103 (macOS) to 107 (Linux), and the temporary name is 4 longer
ANSWER_SECONDS = 5.0  # an owner that has not said "accepted" by then is not going to
ACCEPT_POLL_SECONDS = 0.5  # how often the listening thread checks whether it should stop

UpdateFn = Callable[[ProgressFn], dict]
"""The owner's side of an update: runs it, calling ``progress(phase, done, total)``, and returns the
``done`` message's fields (``report`` and ``index``); raises SpyglassError to send an ``error``."""


class OwnerUnavailable(SpyglassError):
    """Nobody answers on the owner's socket; ``listening`` when something listens but did not accept."""

    def __init__(self, message: str, listening: bool = False):
        super().__init__(message)
        self.listening = listening


def socket_path(index_dir: Path) -> Path:
    """Where the owner of the index in ``index_dir`` listens: beside the lock, or, when that path is too
    long for a Unix socket, in a private folder under /tmp named by a hash of the index folder."""
    index_dir = Path(index_dir).resolve()
    near = index_dir / SOCKET_NAME
    if len(os.fsencode(near)) <= MAX_SOCKET_PATH:
        return near
    digest = hashlib.sha256(os.fsencode(index_dir)).hexdigest()[:32]
    return Path("/tmp") / f"spyglass-{os.getuid()}" / f"{digest}.sock"


# -- the owner's side ----------------------------------------------------------------------------
class OwnerServer:
    """A thread accepting connections on the owner's socket; each connection gets a thread of its own."""

    def __init__(self, path: Path, update: UpdateFn, private_folder: bool = False):
        self.path = path
        self.update = update
        self._stop = threading.Event()
        self._sock = _listen(path, private_folder)
        self._inode = os.stat(path).st_ino
        self._thread = threading.Thread(target=self._accept, name="spyglass-owner", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening and remove the socket (unless another owner has replaced it since)."""
        self._stop.set()
        self._thread.join(ACCEPT_POLL_SECONDS * 4)
        self._sock.close()
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self._inode:
                self.path.unlink()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                if not self._stop.is_set():
                    log.exception("the owner's socket failed; `spyglass index` will wait for the lock instead")
                return
            threading.Thread(target=self._answer, args=(conn,), name="spyglass-owner-request", daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn, conn.makefile("r", encoding="utf-8") as lines, contextlib.suppress(OSError):
            conn.settimeout(ANSWER_SECONDS)  # the asker may leave at any time (Ctrl-C): OSError
            try:
                request = json.loads(lines.readline() or "{}")
            except ValueError:
                request = {}
            if request.get("op") != "update":
                _send(conn, {"event": "error", "message": f"unknown request {request!r}; only 'update' is known"})
                return
            conn.settimeout(None)
            _send(conn, {"event": "accepted", "pid": os.getpid()})
            for message in self._run_update():
                _send(conn, message)

    def _run_update(self) -> Iterator[dict]:
        """Run the update on a thread of its own and yield its messages: the progress callback only
        queues, so a slow or departed asker never holds up the writer that reports progress."""
        messages: queue.SimpleQueue[dict | None] = queue.SimpleQueue()

        def work() -> None:
            try:
                messages.put({"event": "done", **self.update(progress)})
            except SpyglassError as e:
                messages.put({"event": "error", "message": str(e)})
            except Exception as e:
                log.exception("update requested by another process failed")
                messages.put({"event": "error", "message": f"the update failed: {e}"})
            messages.put(None)

        def progress(phase: Phase, done: int, total: int) -> None:
            messages.put({"event": "progress", "phase": phase, "done": done, "total": total})

        threading.Thread(target=work, name="spyglass-owner-update", daemon=True).start()
        while (message := messages.get()) is not None:
            yield message


def serve(index_dir: Path, update: UpdateFn) -> OwnerServer | None:
    """Listen for requests to the owner of the index in ``index_dir`` (call only while holding its writer
    lock); None, logged, when the socket cannot be made (``spyglass index`` then waits for the lock)."""
    path = socket_path(index_dir)
    try:
        return OwnerServer(path, update, private_folder=path.parent != Path(index_dir).resolve())
    except OSError as e:
        log.warning("cannot listen on %s (%s); `spyglass index` will not be able to ask this process", path, e)
        return None


def _listen(path: Path, private_folder: bool) -> socket.socket:
    """A listening socket at ``path``, mode 0600 from the start: bound under a temporary name, restricted,
    then renamed over whatever was there (a socket left by an owner that died). A ``private_folder`` (the
    one under /tmp) is made 0700 and must belong to this user."""
    if private_folder:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(path.parent)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            raise PermissionError(f"{path.parent} is not a private folder of this user")
    temporary = path.with_name(f".{os.getpid()}-{path.stem[:8]}")  # one per index, even in a shared folder
    temporary.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(os.fsencode(temporary))
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
        sock.listen(8)
        sock.settimeout(ACCEPT_POLL_SECONDS)
    except OSError:
        sock.close()
        temporary.unlink(missing_ok=True)
        raise
    return sock


def _send(conn: socket.socket, message: dict) -> None:
    conn.sendall((json.dumps(message) + "\n").encode("utf-8"))


# -- the asker's side ----------------------------------------------------------------------------
def ask_owner(
    index_dir: Path, request: dict, timeout: float = ANSWER_SECONDS, on_connected: Callable[[], None] | None = None
) -> Generator[dict, None, None]:
    """Send ``request`` to the owner of the index in ``index_dir`` and yield its messages, the first being
    ``accepted``; raises OwnerUnavailable if nobody listens or the owner does not accept within
    ``timeout`` seconds. After that there is no time limit: the owner's work may take long.
    ``on_connected`` is called once something listens (before its answer, which may take ``timeout``)."""
    path = socket_path(index_dir)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(os.fsencode(path))
        except (FileNotFoundError, ConnectionRefusedError) as e:
            raise OwnerUnavailable(f"nobody listens on {path} ({e.strerror})") from None
        except OSError as e:
            raise OwnerUnavailable(f"cannot reach the owner at {path}: {e}", listening=True) from None
        if on_connected is not None:
            on_connected()
        with sock.makefile("r", encoding="utf-8") as lines:
            try:
                sock.sendall((json.dumps(request) + "\n").encode("utf-8"))
                first = _read(lines)
            except (TimeoutError, OSError):
                first = None
            if first is None or first.get("event") != "accepted":
                detail = f": {first['message']}" if first and first.get("message") else ""
                raise OwnerUnavailable(f"the owner did not answer within {timeout:g} s{detail}", listening=True)
            yield first
            sock.settimeout(None)
            while (message := _read(lines)) is not None:
                yield message


def update_index(
    index_dir: Path,
    progress: ProgressFn | None = None,
    timeout: float = ANSWER_SECONDS,
    on_connected: Callable[[], None] | None = None,
) -> dict:
    """Ask the owner of the index in ``index_dir`` to bring it up to date, and wait: returns the ``done``
    message (``pid``, ``report`` and ``index``), calls ``progress`` on the way. Raises OwnerUnavailable
    (nobody answers) or SpyglassError (the owner failed, or stopped before finishing)."""
    pid = None
    with contextlib.closing(ask_owner(index_dir, {"op": "update"}, timeout, on_connected)) as messages:
        for message in messages:
            event = message.get("event")
            if event == "accepted":
                pid = message.get("pid")
            elif event == "progress" and progress is not None:
                progress(message["phase"], message["done"], message["total"])
            elif event == "done":
                return {**message, "pid": pid}
            elif event == "error":
                who = f"the process that owns the index (pid {pid})"
                raise SpyglassError(f"{who} could not update it: {message['message']}")
    raise SpyglassError(
        f"the process that owns the index (pid {pid}) stopped before the update finished; run `spyglass index` again"
    )


def _read(lines) -> dict | None:
    line = lines.readline()
    if not line:
        return None
    try:
        return json.loads(line)
    except ValueError:
        return {"event": "error", "message": f"unreadable answer {line[:80]!r}"}
