"""The graph command leaves its finished evaluation to the operating system at exit
(:func:`parsescore.graph.cli.leave_to_exit`): nothing of the exit itself is skipped."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore.core.results import Result
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


def test_command_leaves_big_evaluations_only(
    data_dir: Path, tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``parsescore graph`` hands its result to :func:`leave_to_exit` from
    ``LEAVE_TO_EXIT_NODES`` nodes on, after eval.json is written; a smaller one is freed."""
    import parsescore.graph.cli as graph_cli

    left: list[tuple[object, bool]] = []
    out = tmp_path / "eval.json"
    monkeypatch.setattr(graph_cli, "leave_to_exit", lambda *o: left.append((o[0], out.is_file())))
    library = data_dir / "library"
    args = ("graph", "--truth", library / "truth.json", "--pred", library / "graph.json",
            "--template", f"{data_dir / 'library_template.py'}:Library", "--out", out)  # fmt: skip
    assert cli(*args).code == 0
    assert left == []  # 12 nodes: freed as usual
    monkeypatch.setattr(graph_cli, "LEAVE_TO_EXIT_NODES", 1)
    out.unlink()
    assert cli(*args).code == 0
    ((result, written),) = left
    assert written and isinstance(result, Result) and result.kind == "graph"
