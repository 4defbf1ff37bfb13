"""Hostile cases of issue 30 for the core (outside the four kinds' packages):

- item 6: ``--jobs`` workers end when their parent is killed (``kill -9``); a report folder
  rewritten with fewer items keeps none of the old detail pages, and no file it did not write
  is removed;
- item 7: Ctrl-C is ``error: interrupted`` (exit 130) for every command; the Markdown the core
  writes (``index.md`` of ``parsescore demo``) renders no answer text as HTML;
- item 4: every text cell of a CSV the core writes stays text in a spreadsheet.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------- workers


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not count)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rpartition(")")[2].split()[0] != "Z"


def _children(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux; elsewhere none: the pid files name them)."""
    found: set[int] = set()
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found |= {int(c) for c in children.read_text().split()}
    return found


@pytest.mark.parametrize("mode", ["sleep", "busy", "idle"])
def test_workers_end_when_the_parent_is_killed(tmp_path: Path, mode: str) -> None:
    """``kill -9`` of a ``--jobs 2`` run: its workers (sleeping, computing, or idle waiting for
    work) are gone within a few seconds."""
    parent = subprocess.Popen(
        [sys.executable, str(HERE / "round2_workers.py"), str(tmp_path), mode],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        # idle: one worker finished item 0 and waits (another one, or the same, sleeps in 1)
        wanted = "idle-*" if mode == "idle" else "pid-*"
        while len(workers) < 2 or not list(tmp_path.glob(wanted)):
            assert parent.poll() is None, parent.stderr.read() if parent.stderr else ""
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
            workers = {int(p.name.removeprefix("pid-")) for p in tmp_path.glob("pid-*")}
            workers |= _children(parent.pid)
        assert parent.pid not in workers
        time.sleep(0.3)  # let an idle worker get back to waiting for work
        assert all(_alive(pid) for pid in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        killed = time.monotonic()
        while any(_alive(pid) for pid in workers) and time.monotonic() - killed < 10:
            time.sleep(0.02)
        seconds = time.monotonic() - killed
        left = [pid for pid in workers if _alive(pid)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    for pid in left:  # do not leave them behind if the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {left} still run {seconds:.1f} s after the parent was killed"
    print(f"{mode}: {len(workers)} workers gone {seconds:.2f} s after kill -9")
    assert seconds < 3, seconds
