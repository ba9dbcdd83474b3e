import subprocess
import sys
import time

import pytest

from spyglass.engine.errors import IndexLocked
from spyglass.engine.lock import WriterLock

HOLDER = """
import sys, time
from spyglass.engine.lock import WriterLock
lock = WriterLock(sys.argv[1]); lock.acquire()
print("held", flush=True)
time.sleep(30)
"""


def test_second_writer_is_told_who_holds_the_lock_and_gets_it_after_a_crash(tmp_path):
    path = tmp_path / "writer.lock"
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        lock = WriterLock(path)
        assert lock.holder()["pid"] == proc.pid
        with pytest.raises(IndexLocked, match=str(proc.pid)):
            lock.acquire(timeout=0.2)
    finally:
        proc.kill()  # like kill -9: the kernel releases the flock
        proc.wait()
        proc.stdout.close()
    lock = WriterLock(path)
    assert lock.holder() is None
    lock.acquire(timeout=5)
    assert lock.held
    lock.release()


def test_waiting_writer_proceeds_when_the_holder_finishes(tmp_path):
    path = tmp_path / "writer.lock"
    first = WriterLock(path)
    first.acquire()
    waited = []
    second = WriterLock(path)
    import threading

    t = threading.Timer(0.3, first.release)
    t.start()
    start = time.monotonic()
    second.acquire(timeout=5, on_wait=waited.append)
    assert second.held and waited and time.monotonic() - start >= 0.2
    second.release()
