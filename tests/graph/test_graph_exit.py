"""The graph command leaves its finished evaluation to the operating system at exit
(:func:`parsescore.graph.cli.leave_to_exit`): nothing of the exit itself is skipped."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

from parsescore.graph.cli import leave_to_exit


class _Payload:
    """A stand-in for the evaluation (plain dicts cannot be watched through a weak reference)."""

    def __init__(self) -> None:
        self.nodes = [{"id": str(i)} for i in range(100)]


def test_held_until_unfrozen_then_collected() -> None:
    payload = _Payload()
    watch = weakref.ref(payload)
    leave_to_exit(payload)
    del payload
    gc.collect()
    assert watch() is not None  # held by the frozen cycle: never freed before the exit
    gc.unfreeze()  # a long-lived process (gc_paused does this): the cycle is garbage again
    gc.collect()
    assert watch() is None


def test_atexit_and_streams_still_run(tmp_path: Path) -> None:
    marker = tmp_path / "atexit.txt"
    code = (
        "import atexit, sys\n"
        "from parsescore.graph.cli import leave_to_exit\n"
        f"atexit.register(lambda: open({str(marker)!r}, 'w').write('ran'))\n"
        "leave_to_exit({'big': list(range(1000))})\n"
        "sys.stdout.write('unflushed line')\n"  # no newline, no flush: exit must write it
        "sys.exit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 3
    assert done.stdout == "unflushed line"
    assert marker.read_text() == "ran"
