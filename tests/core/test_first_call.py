"""A first call of one built-in kind in a fresh process loads what that pair needs and no
more: no other kind's description, no plugin scan (``importlib.metadata``), no rich (a quiet
run shows nothing), no process pool; the numbers are those of a process that loaded
everything first. Speed itself is measured in ``benchmarks/bench_cli.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PAIRS = {
    "table": (
        "<html><body><table><tr><td>a</td></tr></table></body></html>",
        "<html><body><table><tr><td>b</td></tr></table></body></html>",
    ),
    "sequence": ("@startuml\nA -> B : hi\nB --> A : ok\n@enduml", "A -> B : hi\nB -> A : ok"),
    "flowchart": ("flowchart TD\n  A[Start] --> B[End]", "flowchart TD\n  A[Start] --> B[Stop]"),
}

#: What no quiet first call of a built-in kind needs.
NOT_NEEDED = (
    "importlib.metadata",
    "rich",
    "multiprocessing",
    "concurrent.futures",
    "scipy",
    "numba",
    "dask",
)
#: What a kind's own dependencies load: pydantic's plugin loader reads importlib.metadata when
#: the flowchart models' classes are built.
LOADED_BY_DEPENDENCIES = {"flowchart": ["importlib.metadata"]}
#: Kinds whose small pair is scored without NumPy (its import is most of a fresh call's CPU).
WITHOUT_NUMPY = ("flowchart", "sequence", "table")

_PROBE = """
import json, sys
from parsescore import score_pair
scores = score_pair({kind!r}, {truth!r}, {answer!r})
kinds = sorted(m.split(".")[1] for m in sys.modules
               if m.startswith("parsescore.") and m.endswith(".kind"))
print(json.dumps({{"scores": scores, "loaded": sorted(m for m in {heavy!r} if m in sys.modules),
                  "kinds": kinds, "modules": sorted(sys.modules)}}))
"""


def _fresh(kind: str, *, preload: bool = False) -> dict[str, object]:
    truth, answer = PAIRS[kind]
    code = _PROBE.format(kind=kind, truth=truth, answer=answer, heavy=NOT_NEEDED)
    if preload:  # every kind and the plugins first: the registry as the CLI fills it
        code = "import parsescore.core.kinds as k; k.kinds()\n" + code
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("kind", sorted(PAIRS))
def test_a_first_call_loads_only_what_its_pair_needs(kind: str) -> None:
    lean = _fresh(kind)
    assert lean["loaded"] == LOADED_BY_DEPENDENCIES.get(kind, [])
    assert ("numpy" not in lean["modules"]) == (kind in WITHOUT_NUMPY)
    assert lean["kinds"] == [kind]  # its own description only, not the kinds before it
    full = _fresh(kind, preload=True)
    assert lean["scores"] == full["scores"]


def test_a_small_flowchart_with_repeated_texts_loads_no_numpy() -> None:
    """Several text-optimal matchings (repeated texts), decided by the bounds on flow and
    labels alone: still no NumPy, and the numbers of the array path (NumPy loaded)."""
    truth = "flowchart TD\n  A[Same] -->|yes| B[Same]\n  B --> C[End]\n  A --> C"
    answer = "flowchart TD\n  X[Same] --> Y[Same]\n  Y -->|yes| Z[End]\n  X --> Z"
    code = (
        "import json, sys\n"
        "from parsescore import score_pair\n"
        f"lean = score_pair('flowchart', {truth!r}, {answer!r})\n"
        "loaded = sorted(m for m in ('numpy', 'scipy') if m in sys.modules)\n"
        "import numpy, parsescore.flowchart.match as m\n"
        "m.LIST_ENTRIES = -1\n"
        f"print(json.dumps([loaded, lean == score_pair('flowchart', {truth!r}, {answer!r})]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [[], True]


def test_grits_of_a_small_pair_with_boxes_loads_no_numpy() -> None:
    """GriTS-Top, -Con and -Loc of a small pair (also ``parsescore grits``'s path) run on
    lists: neither NumPy nor numba is imported, and the numbers are the array path's."""
    code = (
        "import json, sys\n"
        "from parsescore.shared.tables.grits import GridCell, grits\n"
        "truth = [GridCell((0,), (0, 1), 'total', (0.1, 0.2, 3.3, 1.0)),\n"
        "         GridCell((1,), (0,), '1,000', (0.1, 1.0, 1.7, 2.0))]\n"
        "answer = [GridCell((0,), (0,), 'tota1', (0.0, 0.2, 3.0, 1.1)),\n"
        "          GridCell((1,), (0, 1), '1.000', (0.1, 1.0, 3.3, 2.0))]\n"
        "small = grits(truth, answer).as_dict()\n"
        "lean = sorted(m for m in ('numpy', 'numba') if m in sys.modules)\n"
        "import parsescore.shared.tables.grits as g\n"
        "g.COMPILED_FROM = -1\n"
        "print(json.dumps([lean, small == grits(truth, answer).as_dict(), small['grits_loc']]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    lean, same, loc = json.loads(done.stdout.strip().splitlines()[-1])
    assert lean == []
    assert same
    assert 0 < loc < 1


def test_one_builtin_command_reads_no_later_kind_and_no_plugin() -> None:
    """``parsescore teds`` on a small pair: the kinds up to table's, no plugin, no NumPy."""
    code = (
        "import sys\n"
        "from parsescore.cli.main import main\n"
        "try:\n"
        "    main(['teds', '-gt', '<table><tr><td>a</td></tr></table>',\n"
        "          '-pred', '<table><tr><td>b</td><td>c</td></tr></table>'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.endswith('.kind') or m == 'importlib.metadata'"
        " or m.startswith('parsescore.cli.') or m == 'numpy'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines()[-1] == str(
        ["parsescore.cli.common", "parsescore.cli.main", "parsescore.flowchart.kind",
         "parsescore.table.kind"]
    )  # fmt: skip


def test_a_kinds_own_command_reads_that_kind_alone() -> None:
    """``parsescore graph``: graph's description only (not the kinds before it), no plugin."""
    code = (
        "import sys\n"
        "from parsescore.cli.main import main\n"
        "try:\n"
        "    main(['graph', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m.endswith('.kind') or m == 'importlib.metadata'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines()[-1] == str(["parsescore.graph.kind"])


def test_no_kind_adds_a_command_named_as_a_kind() -> None:
    """What lets a kind's own command be built from that kind alone: no kind's other commands
    (``Kind.cli``) take a kind's name, nor one another's."""
    from parsescore.cli.main import App
    from parsescore.core.kinds import kind_names, kinds

    seen = set(kind_names())
    for kind in kinds():
        if kind.cli is None:
            continue
        app = App()
        kind.cli(app)
        assert app.functions, kind.name
        assert not seen & app.functions.keys(), kind.name
        seen |= app.functions.keys()


def test_kinds_keep_their_order_however_the_registry_filled() -> None:
    code = (
        "import parsescore.core.kinds as k\n"
        "k.get_kind('graph'); k.get_kind('table'); k.get_kind('flowchart')\n"
        "print(' '.join(k.kind_names()))\n"
        "print(' '.join(kind.name for kind in k.iter_kinds()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    order = ["flowchart", "table", "sequence", "graph", "document"]
    assert [line.split() for line in done.stdout.splitlines()] == [order, order]


def test_a_run_hands_the_cli_framework_only_its_command(cli) -> None:
    import typer

    from parsescore.cli.main import build_app

    whole = build_app()
    one = build_app(only="teds")  # a built-in kind's command: the kinds up to its own
    assert list(one.functions) == ["flowchart", "table", "grits", "teds"]
    assert one.functions["teds"] is whole.functions["teds"]
    assert sorted(typer.main.get_command(one).commands) == ["teds"]  # type: ignore[attr-defined]
    core = build_app(only="compare")  # a core command: every kind's and the core's are read
    assert core.functions.keys() == whole.functions.keys()
    assert sorted(typer.main.get_command(core).commands) == ["compare"]  # type: ignore[attr-defined]
    unknown = build_app(only="tabel")  # no such command: all of them, for the suggestion
    assert sorted(typer.main.get_command(unknown).commands) == sorted(  # type: ignore[attr-defined]
        typer.main.get_command(whole).commands  # type: ignore[attr-defined]
    )
    run = cli("tabel", "--truth", "t.json")
    assert run.code == 2 and "No such command 'tabel'" in run.err and "'table'" in run.err


_BLAS = """
import os, sys
import parsescore.cli.main as cli
sys.argv = ["parsescore", "--version"]
try:
    cli.main({argv})
except SystemExit:
    pass
print(os.environ.get("OPENBLAS_NUM_THREADS"), "numpy" in sys.modules)
print(os.environ.get("PYDANTIC_DISABLE_PLUGINS"))
"""


@pytest.mark.parametrize(
    ("argv", "user", "expected"),
    [("", None, "1"), ("", "4", "4"), ("['--version']", None, "None")],
)
def test_the_console_script_alone_gets_one_blas_thread(
    argv: str, user: str | None, expected: str
) -> None:
    """The console script (``main()``, no argv) sets OPENBLAS_NUM_THREADS=1 unless the user set
    it, before numpy loads; ``main([...])`` from a test or a program leaves the environment."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if user is not None:
        env["OPENBLAS_NUM_THREADS"] = user
    done = subprocess.run(
        [sys.executable, "-c", _BLAS.format(argv=argv)],
        capture_output=True, text=True, timeout=120, check=True, env=env,
    )  # fmt: skip
    assert done.stdout.split()[-3:-1] == [expected, "False"]


@pytest.mark.parametrize(
    ("argv", "user", "expected"),
    [("", None, "1"), ("", "", ""), ("", "logfire", "logfire"), ("['--version']", None, "None")],
)
def test_the_console_script_alone_reads_no_pydantic_plugins(
    argv: str, user: str | None, expected: str
) -> None:
    """The console script sets PYDANTIC_DISABLE_PLUGINS=1 unless the user set it (to anything);
    ``main([...])`` from a test or a program leaves the environment."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if user is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = user
    done = subprocess.run(
        [sys.executable, "-c", _BLAS.format(argv=argv)],
        capture_output=True, text=True, timeout=120, check=True, env=env,
    )  # fmt: skip
    assert done.stdout.splitlines()[-1] == expected


def test_importing_parsescore_leaves_blas_threads_alone() -> None:
    import os

    code = (
        "import os, parsescore.cli.main\n"
        "print(os.environ.get('OPENBLAS_NUM_THREADS'), os.environ.get('PYDANTIC_DISABLE_PLUGINS'))"
    )
    hidden = ("OPENBLAS_NUM_THREADS", "PYDANTIC_DISABLE_PLUGINS")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
        env=env,
    )  # fmt: skip
    assert done.stdout.strip() == "None None"


def test_a_lazy_reference_imports_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kind's scoring modules are imported with the cyclic collector paused (many objects,
    no garbage); the collector's state is restored afterwards, on or off."""
    import gc

    from parsescore.core.kinds import lazy

    (tmp_path / "collector_probe.py").write_text(
        "import gc\nDURING = gc.isenabled()\ndef during() -> bool:\n    return DURING\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert gc.isenabled()
    assert lazy("collector_probe:during")() is False
    assert gc.isenabled()
    monkeypatch.delitem(sys.modules, "collector_probe")
    gc.disable()
    try:
        assert lazy("collector_probe:during")() is False
        assert not gc.isenabled()
    finally:
        gc.enable()
