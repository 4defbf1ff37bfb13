"""What a user sees in a terminal (issue 28, items 1, 2 and 6).

Every command runs as a user runs it: a separate process whose stdout is a real pseudo-terminal
of 60, 80 or 120 columns (``os.openpty`` with the window size and ``COLUMNS`` set) or a pipe.
Whatever the width, every number the command prints at 1000 columns is printed whole (a number
cut to ``0.…`` or wrapped into ``0`` / ``.500`` is a number lost). Each kind of the registry is
covered through its summary (a fifth kind included: it brings a demo, as every kind does), and
the commands through one case each of the golden suite. A closed pipe (``| head``) ends the
command quietly, status 0, with its files written.
"""

from __future__ import annotations

import collections
import fcntl
import json
import os
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text

from parsescore.cli.terminal import FittingConsole, fit_table, records, wrap_id
from parsescore.core.kinds import kinds

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
sys.path.insert(0, str(GOLDEN))

from cases import CASES, COMPARE_CASES, EXPECTED, Case  # noqa: E402

WIDTHS = (60, 80, 120)
#: A number standing alone (not a digit inside an id such as ``Stanczyk_2016_1``).
NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?%?(?![\w])")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def _one_case_per_command() -> list[Case]:
    chosen: dict[str, Case] = {}
    for case in (*CASES, *COMPARE_CASES):
        if case.argv[0] != "schema":  # schema prints only its Wrote line
            chosen.setdefault(case.argv[0], case)
    return list(chosen.values())


COMMANDS = _one_case_per_command()


def _environment(columns: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(COLUMNS=str(columns), LINES="50", TERM="xterm-256color", PYTHONUTF8="1")
    return env


def run_shown(argv: list[str], *, columns: int, tty: bool, cwd: Path = ROOT) -> tuple[int, str]:
    """``argv``'s exit status and stdout, stdout being a ``columns``-wide pseudo-terminal
    (``tty``) or a pipe; the terminal's colours and carriage returns taken out."""
    env = _environment(columns)
    if not tty:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    with open(os.devnull, "wb") as devnull:
        process = subprocess.Popen(
            argv, stdout=slave, stderr=devnull, stdin=subprocess.DEVNULL, env=env, cwd=cwd
        )
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    code = process.wait(timeout=600)
    text = b"".join(chunks).decode("utf-8", errors="replace")
    return code, ANSI.sub("", text).replace("\r", "")


def numbers(text: str) -> collections.Counter[str]:
    """The numbers printed, as a multiset (lines announcing a file are left out: their paths
    differ from run to run)."""
    kept = [line for line in text.splitlines() if not line.startswith("Wrote ")]
    return collections.Counter(NUMBER.findall("\n".join(kept)))


def _argv(case: Case, out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    if case.setup is not None:
        case.setup(out)
    args = [a.replace("{out}", str(out)).replace("{golden}", str(EXPECTED)) for a in case.argv]
    return [sys.executable, "-m", "parsescore", *[a for a in args if a != "--quiet"]]


def _assert_whole(reference: str, shown: str, where: str) -> None:
    lost = numbers(reference) - numbers(shown)
    assert not lost, f"{where}: numbers not printed whole: {sorted(lost)}\n{shown}"


@pytest.mark.parametrize("case", COMMANDS, ids=[c.argv[0] for c in COMMANDS])
def test_every_command_prints_every_number_whole_at_any_width(case, tmp_path):
    code, reference = run_shown(_argv(case, tmp_path / "wide"), columns=1000, tty=False)
    assert code == 0
    assert numbers(reference), f"{case.name} printed no number at all"
    for columns in WIDTHS:
        code, shown = run_shown(_argv(case, tmp_path / f"tty{columns}"), columns=columns, tty=True)
        assert code == 0
        _assert_whole(reference, shown, f"{case.argv[0]} in a {columns}-column terminal")
    code, piped = run_shown(_argv(case, tmp_path / "pipe"), columns=80, tty=False)
    assert code == 0
    _assert_whole(reference, piped, f"{case.argv[0]} piped")


SUMMARY = (
    "import sys\n"
    "from parsescore import load_result\n"
    "from parsescore.cli.common import console, print_summary\n"
    "print_summary(load_result(sys.argv[1]), console())\n"
)


@pytest.fixture(scope="module")
def demo_envelopes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Per registered kind, the envelopes of its demo's results (``--result`` files)."""
    folder = tmp_path_factory.mktemp("demo")
    found: dict[str, list[Path]] = {}
    for kind in kinds():
        if kind.demo is None:
            pytest.fail(f"kind {kind.name} has no demo: its summary cannot be shown here")
        output = kind.demo(folder / kind.name)
        for index, result in enumerate(output.results):
            path = folder / f"{kind.name}.{index}.json"
            result.write(path)
            found.setdefault(kind.name, []).append(path)
    return found


@pytest.mark.parametrize("kind", [k.name for k in kinds()])
def test_every_kinds_summary_prints_every_number_whole_at_any_width(kind, demo_envelopes):
    for envelope in demo_envelopes[kind]:
        argv = [sys.executable, "-c", SUMMARY, str(envelope)]
        code, reference = run_shown(argv, columns=1000, tty=False)
        assert code == 0 and numbers(reference)
        for columns in WIDTHS:
            code, shown = run_shown(argv, columns=columns, tty=True)
            assert code == 0
            _assert_whole(reference, shown, f"{kind} summary at {columns} columns")
            widest = max(len(line) for line in shown.splitlines())
            assert widest <= columns + 40, f"{kind}: a line of {widest} cells at {columns}"
        code, piped = run_shown(argv, columns=80, tty=False)
        _assert_whole(reference, piped, f"{kind} summary piped")


@pytest.mark.parametrize("case", COMMANDS, ids=[c.argv[0] for c in COMMANDS])
def test_a_closed_pipe_ends_quietly_with_the_files_written(case, tmp_path):
    """``parsescore … | head``: the reader is gone before the first line; status 0, nothing
    on stderr, every file the command names in place."""
    argv = _argv(case, tmp_path)
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=_environment(80),
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as head does once it has its lines
    err = process.stderr.read().decode()
    assert process.wait(timeout=600) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert not [line for line in err.splitlines() if line.startswith("error")], err
    for name in case.outputs:
        assert (tmp_path / name).is_file(), f"{case.argv[0]}: {name} was not written"


def test_bare_parsescore_prints_the_multi_line_help():
    done = subprocess.run(
        [sys.executable, "-m", "parsescore"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("Usage: parsescore")
    assert "Commands:" in done.stdout and len(done.stdout.splitlines()) > 10
    assert not done.stdout.startswith("error")


# -- the fitting itself -----------------------------------------------------------------------


def _table() -> Table:
    table = Table(title="scores")
    table.add_column("flowchart")
    for name in ("precision", "recall", "Jaccard"):
        table.add_column(name, justify="right")
    table.add_row("Stanczyk_2016_1", "1.000", "0.917", "0.500")
    table.add_row("example_0", "0.500", "0.500", "0.333")
    return table


def _printed(table: Table, width: int) -> str:
    console = FittingConsole(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(table)
    return console.export_text()


@pytest.mark.parametrize("width", [24, 30, 40, 50, 60, 80])
def test_a_table_keeps_every_number_whole_or_becomes_records(width):
    shown = _printed(_table(), width)
    assert numbers(shown) >= collections.Counter(
        ["1.000", "0.917", "0.500", "0.500", "0.500", "0.333"]
    )
    if width >= 50:
        assert "┃" in shown  # still a table: the id column gave up its room
    else:
        assert "Stanczyk_2016_1 · precision: 1.000" in shown.replace("\n  ", " · ")


def test_plain_rich_loses_the_numbers_this_console_keeps():
    """The failure this module exists for, shown on rich's own console."""
    console = Console(width=30, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(_table())
    kept = numbers(_printed(_table(), 30))
    assert numbers(console.export_text()) != kept
    assert kept - numbers(console.export_text())  # what rich cut, this console printed


def test_fit_leaves_a_table_that_fits_alone():
    table = _table()
    console = Console(width=200)
    assert fit_table(console, table, 200) is table
    assert all(column.width is None for column in table.columns)


def test_ids_wrap_before_a_separator_and_only_break_a_long_word():
    assert wrap_id(Text("Stanczyk_2016_1"), 12).plain == "Stanczyk\n_2016_1"
    assert wrap_id(Text("example_0"), 8).plain == "example\n_0"
    assert wrap_id(Text("abcdefghij"), 4).plain == "abcd\nefgh\nij"
    assert wrap_id(Text("short"), 8).plain == "short"


def test_records_pair_each_header_with_its_value():
    lines = [t.plain for t in records(Console(width=40), _table(), 40)]
    assert lines[0] == "scores"
    assert lines[1].startswith("Stanczyk_2016_1 · precision: 1.000")
    assert all(len(line) <= 40 for line in lines)


def test_emoji_codes_in_what_a_command_prints_stay_text(cli, tmp_path):
    """A model's label ``:fire:`` or an output named ``a:smile:b.json`` is printed as written:
    rich's default would show a picture for a name the user never wrote."""
    data = ROOT / "src" / "parsescore" / "data" / "graph"
    graph = json.loads((data / "graph.json").read_text(encoding="utf-8"))
    for edge in graph["edges"]:
        edge["label"] = ":fire: [bold]"
    pred = tmp_path / "graph.json"
    pred.write_text(json.dumps(graph), encoding="utf-8")
    out = tmp_path / "a:smile:b.json"
    run = cli(
        "graph", "--truth", data / "truth.json", "--pred", pred, "--out", out,
        "--template", f"{data / 'library_template.py'}:Library",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert out.is_file()
    assert ":fire: [bold]" in run.out
    assert f"Wrote {out}" in run.out
    assert "\N{FIRE}" not in run.out and "\N{SMILING FACE WITH OPEN MOUTH}" not in run.out


def test_the_command_console_prints_emoji_codes_as_text():
    console = FittingConsole(width=60, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(":smile: and :fire:", Text(":warning:"))
    assert console.export_text() == ":smile: and :fire: :warning:\n"


#: Text a model or a user may well write, which rich would read as markup or as emoji codes.
HOSTILE = "[/x][bold]h:fire:"


def _hostile(envelope: dict, old_ids: list[str]) -> dict:
    """The envelope with HOSTILE after its system's name, every item id (wherever the
    dataset names it too), every input path and every string the dataset lists (missing,
    skipped and unreadable pages, errors, alias and aligned pairs, fence infos)."""
    renamed = {old: old + HOSTILE for old in old_ids}

    def walk(value: object, tail: bool) -> object:
        if isinstance(value, dict):
            return {renamed.get(k, k): walk(v, tail) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, tail) for v in value]
        if isinstance(value, str):
            return renamed.get(value) or (value + HOSTILE if tail else value)
        return value

    out = dict(envelope)
    out["system"] = f"{envelope.get('system') or 'system'}{HOSTILE}"
    out["items"] = [dict(item, id=renamed[item["id"]]) for item in envelope["items"]]
    out["inputs"] = walk(envelope.get("inputs") or {}, True)
    dataset = dict(envelope.get("dataset") or {})
    listed = ("missing", "skipped", "extra", "unreadable", "errors", "fenced",
              "relaxed_alias_pairs", "synthetic_id_classes")  # fmt: skip
    for key, value in dataset.items():
        dataset[key] = walk(value, key in listed)
    alignment = dataset.get("structural_alignment")
    if isinstance(alignment, dict):
        dataset["structural_alignment"] = {
            k: walk(v, k in ("pairs", "synthetic_id_classes")) for k, v in alignment.items()
        }
    if isinstance(dataset.get("skipped"), list):  # a page more of each, whose name and
        dataset["skipped"] = [*dataset["skipped"], f"page{HOSTILE}"]  # reason are hostile
    if isinstance(dataset.get("unreadable"), dict):
        dataset["unreadable"] = {**dataset["unreadable"], f"page{HOSTILE}": f"why{HOSTILE}"}
    out["dataset"] = dataset
    return out


@pytest.mark.parametrize("kind", [k.name for k in kinds()])
def test_every_kinds_summary_prints_names_and_ids_as_written(kind, demo_envelopes, tmp_path):
    """A name, an id, a page's reason or a model's label holding ``[/x]``, ``[bold]`` or
    ``:fire:`` prints as written: never a markup error (a traceback), never a swallowed
    tag, never a picture."""
    from parsescore import load_result
    from parsescore.cli.common import print_summary

    for index, path in enumerate(demo_envelopes[kind]):
        envelope = json.loads(path.read_text(encoding="utf-8"))
        old_ids = [item["id"] for item in envelope["items"]]
        hostile = tmp_path / f"{kind}.{index}.json"
        hostile.write_text(json.dumps(_hostile(envelope, old_ids)), encoding="utf-8")

        def shown(source: Path) -> str:
            console = FittingConsole(width=1000, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
            print_summary(load_result(source), console)
            return console.export_text()

        clean, printed = shown(path), shown(hostile)
        assert HOSTILE in printed
        assert "\N{FIRE}" not in printed
        for old in old_ids:  # every id the summary shows, shown whole with its new tail
            if old in clean:
                assert old + HOSTILE in printed, (kind, old)
        if kind == "document":  # the pages it lists as skipped or unreadable, and why
            assert f"page{HOSTILE}: why{HOSTILE}" in printed
