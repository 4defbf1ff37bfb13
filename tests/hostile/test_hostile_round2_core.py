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
import csv
import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from parsescore_textkind import KIND as TEXT

import parsescore
from cli_helpers import Cli, default_sigint
from parsescore.core.kinds import Kind, registered
from parsescore.core.markdown import markdown_text
from parsescore.core.results import Result
from parsescore.report.sources import MARKER

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


def test_ctrl_c_of_a_jobs_run_is_one_error_line_and_leaves_no_worker(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) while ``--jobs 2`` workers are busy:
    ``error: interrupted``, exit status 130, no traceback (neither the command's nor a
    worker's), and the workers end at once instead of finishing their items."""
    run = subprocess.Popen(
        [sys.executable, str(HERE / "round2_workers.py"), str(tmp_path), "sleep", "--cli"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.glob("pid-*"))) < 2:
            assert run.poll() is None, run.stderr.read() if run.stderr else ""
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.05)
        workers = [int(p.name.removeprefix("pid-")) for p in tmp_path.glob("pid-*")]
        os.killpg(run.pid, signal.SIGINT)
        start = time.monotonic()
        _, err = run.communicate(timeout=30)
        seconds = time.monotonic() - start
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    text = err.decode()
    assert run.returncode == 130, text
    assert text.strip().splitlines() == ["error: interrupted"], text
    assert seconds < 5, seconds  # the items would sleep 120 s
    time.sleep(0.5)
    assert not [pid for pid in workers if _alive(pid)]


def _arguments(command: Any, folder: Path) -> list[str]:
    """Values for every required parameter of a click command that its parser accepts: an
    existing file or folder for a path, the first choice of a choice, ``1`` otherwise. (Read
    by their documented attributes: typer has used click's classes and its own copies.)"""
    (folder / "f.json").write_text("{}", encoding="utf-8")
    argv: list[str] = []
    for param in command.params:
        if not param.required:
            continue
        kind = param.type
        if hasattr(kind, "file_okay"):
            value = str(folder / "f.json" if kind.file_okay else folder)
        elif hasattr(kind, "choices"):
            value = str(next(iter(kind.choices)))
        else:
            value = "1"
        if param.param_type_name == "option":
            argv += [param.opts[0], value]
        else:
            argv += [value] * max(param.nargs, 1)
    return argv


def _commands() -> list[str]:
    import typer

    from parsescore.cli.main import build_app

    return sorted(typer.main.get_command(build_app()).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", _commands())
def test_ctrl_c_is_error_interrupted_for_every_command(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    """Ctrl-C as a command starts its work: ``error: interrupted``, exit status 130."""
    import typer

    import parsescore.cli.common
    from parsescore.cli.main import build_app, main

    def interrupt(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(parsescore.cli.common, "check_not_inputs", interrupt)
    click_command = typer.main.get_command(build_app()).commands[command]  # type: ignore[attr-defined]
    with pytest.raises(SystemExit) as stop:
        main([command, *_arguments(click_command, tmp_path)])
    err = capsys.readouterr().err
    assert stop.value.code == 130, err
    assert err.strip().splitlines() == ["error: interrupted"], err


@pytest.mark.parametrize("where", ["build", "parse"])
def test_ctrl_c_before_a_command_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """Ctrl-C while the CLI is built or while it reads its arguments (typer's own handling
    would exit 130 quietly)."""
    import typer

    import parsescore.cli.main
    from parsescore.cli.main import build_app, main

    def interrupt(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    if where == "build":
        monkeypatch.setattr(parsescore.cli.main, "build_app", interrupt)
    else:
        demo = typer.main.get_command(build_app()).commands["demo"]  # type: ignore[attr-defined]
        monkeypatch.setattr(type(demo), "parse_args", interrupt)
    with pytest.raises(SystemExit) as stop:
        main(["demo", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert stop.value.code == 130, err
    assert err.strip().splitlines() == ["error: interrupted"], err


# ----------------------------------------------------------------------------- report folder


@pytest.fixture
def text_kind() -> Iterator[Kind]:
    with registered(TEXT) as kind:
        yield kind


def _text_result(tmp_path: Path, name: str, count: int) -> Path:
    """A text-kind result envelope of ``count`` items (``name.json``)."""
    truth, pred = tmp_path / f"{name}-truth", tmp_path / name
    truth.mkdir()
    pred.mkdir()
    for i in range(count):
        (truth / f"t{i:03d}.txt").write_text(f"text number {i}", encoding="utf-8")
        (pred / f"t{i:03d}.txt").write_text(f"text numbr {i}", encoding="utf-8")
    path = tmp_path / f"{name}.json"
    result = parsescore.evaluate("text", truth, pred)
    path.write_text(json.dumps(result.to_json()), encoding="utf-8")
    return path


def _pages(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_a_rewritten_report_keeps_no_page_of_the_earlier_one(
    tmp_path: Path, cli: Cli, text_kind: Kind
) -> None:
    """A report of 12 items (2 per page: 5 detail pages) rewritten with 3 items (1 detail
    page): items/ holds the new page only, and every file the report did not write stays."""
    big, small = _text_result(tmp_path, "big", 12), _text_result(tmp_path, "small", 3)
    out = tmp_path / "report"
    first = cli("report", big, "--out", out, "--max-items", "2")
    assert first.code == 0, first.err
    old_items = {p for p in _pages(out) if p.startswith("items/")}
    assert len(old_items) == 5
    # files the report did not write: the user's own, and a page the user edited since
    (out / "items" / "notes.html").write_text("mine", encoding="utf-8")
    (out / "items" / "mine.txt").write_text("mine", encoding="utf-8")
    (out / "keep.html").write_text("mine", encoding="utf-8")
    edited = sorted(old_items)[-1]
    (out / edited).write_text("edited by hand", encoding="utf-8")
    second = cli("report", small, "--out", out, "--max-items", "2", "--force")
    assert second.code == 0, second.err
    marker = json.loads((out / MARKER).read_text(encoding="utf-8"))
    written = set(marker["files"])
    new_items = {p for p in written if p.startswith("items/")}
    assert len(new_items) == 1 and "index.html" in written
    assert _pages(out) == written | {
        MARKER,
        ".parsescore",
        "items/notes.html",
        "items/mine.txt",
        "keep.html",
        edited,
    }
    for page in written:  # the marker's hashes are the pages' bytes
        digest = hashlib.sha256((out / page).read_bytes()).hexdigest()
        assert marker["files"][page] == digest
    index = (out / "index.html").read_text(encoding="utf-8")
    for page in old_items - new_items - {edited}:
        assert not (out / page).exists()
        assert page not in index


def test_a_forged_marker_removes_nothing_outside_the_report(
    tmp_path: Path, text_kind: Kind
) -> None:
    """A marker listing files outside the folder, files not named like pages, or links: none of
    them is removed, even with the right hash."""
    from parsescore.report import ReportOptions, write_report

    result = _text_result(tmp_path, "small", 3)
    out = tmp_path / "report"
    (out / "items").mkdir(parents=True)
    victim = tmp_path / "victim.html"
    victim.write_text("outside", encoding="utf-8")
    (out / "index.md").write_text("mine", encoding="utf-8")
    target = tmp_path / "target.html"
    target.write_text("linked", encoding="utf-8")
    (out / "items" / "link.html").symlink_to(target)

    def sha(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()

    forged = {
        "../victim.html": sha(victim),
        "index.md": sha(out / "index.md"),
        "items/link.html": sha(target),
        "items/../../victim.html": sha(victim),
        str(victim): sha(victim),
    }
    (out / MARKER).write_text(json.dumps({"parsescore_report": 1, "files": forged}))
    write_report([result], out, options=ReportOptions(max_items=2))
    assert victim.read_text() == "outside" and (out / "index.md").is_file()
    assert (out / "items" / "link.html").is_symlink() and target.is_file()
    for junk in ("not json", "[1, 2]", '{"parsescore_report": 1, "files": [1]}'):
        (out / MARKER).write_text(junk)
        write_report([result], out, options=ReportOptions(max_items=2))
        assert (out / "index.html").is_file()


# ----------------------------------------------------------------------------- CSV


FORMULAS = [
    '=HYPERLINK("http://evil.example/?q=1","click")',
    "+1+2",
    "-2+3",
    "@SUM(A1)",
    "\tx",
    "\rx",
]


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def _assert_inert(cell: str) -> None:
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), repr(cell)


def test_result_csv_ids_stay_text_and_numbers_stay_numbers(text_kind: Kind) -> None:
    items = {name: {"cer": -0.25 if name == "+1+2" else 0.5} for name in [*FORMULAS, "plain"]}
    result = Result("text", "sys", items, {"cer": 0.5})
    rows = _cells(result.to_csv())
    assert rows[0][0] == "id"
    ids = {row[0]: row[1] for row in rows[1:]}
    for name in FORMULAS:
        assert ids[f"'{name}"] in ("0.5", "-0.25")  # the cell reads back as the id, quoted
    assert ids["'+1+2"] == "-0.25"  # a negative number is a number, not a formula to defuse
    assert ids["plain"] == "0.5"
    for row in rows:
        _assert_inert(row[0])


def test_csv_of_a_command_and_of_compare_stay_text(
    tmp_path: Path, cli: Cli, text_kind: Kind
) -> None:
    """``--csv`` of a kind's command (item ids from file names), ``compare --format csv`` with
    system names and ``--by`` values that look like formulas."""
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    stems = ["=cmd|' -C calc'!A0", "+1+2", "@SUM(A1)", "-1", "ok"]
    for stem in stems:
        (truth / f"{stem}.txt").write_text("hello", encoding="utf-8")
        (pred / f"{stem}.txt").write_text("hallo", encoding="utf-8")
    table = tmp_path / "items.csv"
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    run = cli("text", "--truth", truth, "--pred", pred, "--csv", table, "--result", one)
    assert run.code == 0, run.err
    rows = _cells(table.read_text(encoding="utf-8"))
    assert sorted(row[0] for row in rows[1:]) == sorted(
        f"'{s}" if s[0] in "=+-@" else s for s in stems
    )
    shutil.copy(one, two)
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "id,group\n" + "".join(f'"{s}",=HYPERLINK("x")\n' for s in stems), encoding="utf-8"
    )
    for extra in ([], ["--by", "group", "--attributes", str(labels)]):
        out = cli("compare", one, two, "--name", "=1+1", "--name", "@me", "--format", "csv", *extra)
        assert out.code == 0, out.err
        for row in _cells(out.out):
            for cell in row:
                _assert_inert(cell)


# ----------------------------------------------------------------------------- Markdown

HOSTILE_TEXTS = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "<!-- comment --><iframe src=javascript:alert(1)>",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](java&#115;cript:alert(1))",
    "<javascript:alert(1)>",
    "&lt;b&gt; &#60;script&#62;",
    "![x](data:text/html;base64,PHNjcmlwdD4=)",
    "[ref]\n\n[ref]: javascript:alert(1)",
]


def _rendered(markdown: str) -> str:
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown))


def _assert_no_html(rendered: str) -> None:
    import re

    tags = set(re.findall(r"<([a-zA-Z!][a-zA-Z0-9]*)", rendered))
    assert tags <= {
        "h1",
        "h2",
        "h3",
        "p",
        "a",
        "code",
        "pre",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "strong",
        "img",
        "em",
        "ul",
        "li",
    }, (tags, rendered)
    for href in re.findall(r'(?:href|src)="([^"]*)"', rendered):
        assert not re.match(r"\s*(javascript|vbscript|data|file):", href, re.I), rendered


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_demo_index_renders_no_answer_text_as_html(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """``index.md`` of ``parsescore demo`` from a kind's section quoting an answer: its Markdown
    stays (heading, table, code), nothing renders as HTML."""
    import parsescore.core.demo
    from parsescore.core.kinds import DemoOutput

    section = (
        f"## Hostile\n\n| item | answer |\n|---|---|\n| a | {text} |\n\n{text}\n\n"
        f"`<code>` and\n\n```\n<kept in a fence>\n```\n"
    )

    class Stub:
        name = "stub"

        @staticmethod
        def demo(out: Path) -> DemoOutput:
            return DemoOutput(section, [])

    monkeypatch.setattr(parsescore.core.demo, "kinds", lambda: [Stub()])
    index = parsescore.core.demo.run_demo(tmp_path / "demo")
    written = index.read_text(encoding="utf-8")
    html = _rendered(written)
    _assert_no_html(html)
    assert "<table>" in html and "<h2>Hostile</h2>" in html
    assert "<code>&lt;code&gt;</code>" in html and "&lt;kept in a fence&gt;" in html


@pytest.mark.parametrize("text", HOSTILE_TEXTS[:4])
def test_compare_markdown_renders_no_system_name_as_html(
    tmp_path: Path, cli: Cli, text_kind: Kind, text: str
) -> None:
    one = _text_result(tmp_path, "one", 2)
    two = tmp_path / "two.json"
    shutil.copy(one, two)
    out = cli("compare", one, two, "--name", text, "--name", "b", "--format", "markdown")
    assert out.code == 0, out.err
    _assert_no_html(_rendered(out.out))


def test_markdown_text_shows_the_text_itself() -> None:
    for text in HOSTILE_TEXTS:
        html = _rendered(markdown_text(text))
        _assert_no_html(html)
        assert html.startswith("<p>") and "<a" not in html
