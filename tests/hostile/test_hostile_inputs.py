"""Hostile inputs (issue 16): every case a hostile tester found, kept as a fast regression test.

Each test runs the real CLI (in-process through ``parsescore.cli.main.main``, or as a subprocess
where a signal is needed) and checks: one ``error:`` line naming the file and exit status 2,
inputs byte-identical after the command, and bounded time (every case finishes in seconds).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_helpers import Cli, CliRun, default_sigint
from parsescore.core.errors import InputError
from parsescore.core.files import iter_jsonl, load_json, parse_json, write_text

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "parsescore" / "data"
TABLES = DATA / "table" / "pubtabnet_samples"
SEQ = DATA / "sequence"
FLOW = DATA / "flowchart"
GRAPH = DATA / "graph"


def table_doc(cell: str = "<td>x</td>", rows: int = 1) -> str:
    return "<html><body><table>" + f"<tr>{cell}</tr>" * rows + "</table></body></html>"


def one_error(result: CliRun, *needles: str) -> str:
    """The run failed with exit 2 and one ``error:`` line holding every needle."""
    assert result.code == 2, (result.code, result.out, result.err)
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert lines and lines[0].startswith("error: "), result.err
    assert "Traceback" not in result.err
    flat = " ".join(result.err.split())
    for needle in needles:
        assert needle in flat, (needle, flat)
    return flat


def snapshot(*paths: Path) -> dict[Path, bytes]:
    out = {}
    for path in paths:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        out |= {p: p.read_bytes() for p in files}
    return out


# -- JSON: duplicate keys, depth, size, JSONL streamed ------------------------------------------


def test_duplicate_key_names_key_and_file(tmp_path: Path, cli: Cli) -> None:
    truth = tmp_path / "truth.json"
    truth.write_text('{"a": "<table></table>", "a": "<table></table>"}')
    one_error(cli("table", "--truth", truth, "--pred", truth), "truth.json", "duplicate key 'a'")


def test_duplicate_key_in_a_nested_object(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text('{"nodes": [{"id": 1, "id": 2}]}')
    with pytest.raises(InputError, match=r"g\.json: duplicate key 'id'"):
        load_json(path)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "command",
    [
        ("table", "--truth", "{deep}", "--pred", "{ok}"),
        ("grits", "--truth", "{deep}", "--pred", "{ok}"),
        ("graph", "--graph", "{deep}", "--truth", "{deep}"),
        ("compare", "{deep}"),
        ("report", "{deep}", "--out", "{tmp}/report"),
    ],
    ids=lambda c: c[0],
)
def test_json_nested_100k_deep_names_the_file(
    tmp_path: Path, cli: Cli, command: tuple[str, ...]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps({"a": table_doc()}))
    args = [a.format(deep=deep, ok=ok, tmp=tmp_path) for a in command]
    one_error(cli(*args), "deep.json", "nested 100000 levels deep", "PARSESCORE_MAX_JSON_DEPTH")


def test_depth_limit_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_json("[[[1]]]") == [[[1]]]
    monkeypatch.setenv("PARSESCORE_MAX_JSON_DEPTH", "2")
    with pytest.raises(InputError, match="nested 3 levels deep, more than the limit of 2"):
        parse_json("[[[1]]]")
    assert parse_json('["[[[[", {"a": "]]]"}]') == ["[[[[", {"a": "]]]"}]  # strings don't count


def test_bad_limit_value_is_one_error(monkeypatch: pytest.MonkeyPatch, cli: Cli) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_FILE_MB", "lots")
    truth = str(TABLES / "sample_gt.json")
    one_error(cli("table", "--truth", truth, "--pred", truth), "PARSESCORE_MAX_FILE_MB")


def test_large_json_points_to_jsonl(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_FILE_MB", "1")
    big = tmp_path / "big.json"
    big.write_text(json.dumps({f"t{i}": table_doc() for i in range(30_000)}))
    assert big.stat().st_size > 2_000_000
    start = time.perf_counter()
    one_error(cli("table", "--truth", big, "--pred", big), "big.json", "limit of 1 MB", "JSONL")
    assert time.perf_counter() - start < 10


def test_jsonl_is_streamed_past_the_file_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_FILE_MB", "1")
    path = tmp_path / "t.jsonl"
    with path.open("w") as handle:
        for i in range(20_000):
            handle.write(json.dumps({f"t{i}": table_doc()}) + "\n")
    assert path.stat().st_size > 1_000_000
    assert sum(1 for _ in iter_jsonl(path)) == 20_000
    with pytest.raises(InputError, match="larger than the limit of 1 MB"):
        load_json(path)


def test_jsonl_line_longer_than_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_FILE_MB", "1")
    path = tmp_path / "t.jsonl"
    path.write_text('{"a": 1}\n"' + "x" * 1_100_000 + '"\n')
    with pytest.raises(InputError, match=r"t\.jsonl \(line 2\): line longer than the limit"):
        list(iter_jsonl(path))


# -- never write over an input ------------------------------------------------------------------


def _table_inputs(tmp_path: Path) -> tuple[Path, Path]:
    truth, pred = tmp_path / "gt.json", tmp_path / "p.json"
    shutil.copy(TABLES / "sample_gt.json", truth)
    shutil.copy(TABLES / "sample_pred.json", pred)
    return truth, pred


@pytest.mark.parametrize("option", ["--out", "--result", "--csv"])
@pytest.mark.parametrize("target", ["truth", "pred"])
def test_table_output_over_an_input_is_refused(
    tmp_path: Path, cli: Cli, option: str, target: str
) -> None:
    truth, pred = _table_inputs(tmp_path)
    before = snapshot(truth, pred)
    victim = truth if target == "truth" else pred
    result = cli("table", "--truth", truth, "--pred", pred, option, victim, "--quiet")
    one_error(result, f"{option} {victim}", "refusing to overwrite an input")
    assert snapshot(truth, pred) == before


def test_output_through_a_symlink_or_hard_link_is_refused(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _table_inputs(tmp_path)
    before = snapshot(truth, pred)
    (tmp_path / "link.json").symlink_to(truth)
    os.link(pred, tmp_path / "hard.json")
    for target in ("link.json", "hard.json"):
        out = tmp_path / target
        one_error(cli("table", "--truth", truth, "--pred", pred, "--out", out), "an input")
    assert snapshot(truth, pred) == before


def test_output_inside_an_input_folder_is_refused(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "t", tmp_path / "p"
    shutil.copytree(SEQ / "truth", truth)
    shutil.copytree(SEQ / "model_a", pred)
    before = snapshot(truth, pred)
    result = cli("sequence", "--truth", truth, "--pred", pred, "--out", pred / "scores.json")
    one_error(result, "inside the input folder --pred")
    assert snapshot(truth, pred) == before


@pytest.mark.parametrize(
    "command",
    [
        ("grits", "--truth", "{t}", "--pred", "{p}", "--out", "{t}"),
        ("sequence", "--truth", "{st}", "--pred", "{sp}", "--out", "{sp}"),
        ("flowchart", "--truth", "{ft}", "--pred", "{fp}", "--result", "{fp}"),
        ("graph", "--graph", "{g}", "--truth", "{gt}", "--out", "{gt}"),
        ("compare", "{r}", "{r2}", "--out", "{r}"),
        ("report", "{r}", "--out", "{r}"),
    ],
    ids=lambda c: c[0],
)
def test_every_command_refuses_to_write_over_an_input(
    tmp_path: Path, cli: Cli, command: tuple[str, ...]
) -> None:
    (tmp_path / "cells").mkdir()
    t = tmp_path / "cells" / "t.json"
    p = tmp_path / "cells" / "p.json"
    cells = {"a": [{"row_nums": [0], "column_nums": [0], "cell_text": "x"}]}
    t.write_text(json.dumps(cells))
    p.write_text(json.dumps(cells))
    sp = tmp_path / "seq.puml"
    shutil.copy(next((SEQ / "model_a").glob("*.puml")), sp)
    st = SEQ / "truth" / sp.name
    fp = tmp_path / "fp"
    shutil.copytree(FLOW / "predictions", fp)
    g, gt = tmp_path / "graph.json", tmp_path / "truth.json"
    shutil.copy(GRAPH / "graph.json", g)
    shutil.copy(GRAPH / "graph.json", gt)
    r, r2 = tmp_path / "r.json", tmp_path / "r2.json"
    truth, pred = _table_inputs(tmp_path)
    assert cli("table", "--truth", truth, "--pred", pred, "--result", r, "--quiet").code == 0
    shutil.copy(r, r2)
    names = {
        "t": t,
        "p": p,
        "st": st if (SEQ / "truth" / sp.name).exists() else SEQ / "truth",
        "sp": sp,
        "ft": FLOW / "ground-truth",
        "fp": fp,
        "g": g,
        "gt": gt,
        "r": r,
        "r2": r2,
        "tmp": tmp_path,
    }
    args = [a.format(**names) for a in command]
    before = snapshot(tmp_path)
    one_error(cli(*args), "refusing to")
    assert snapshot(tmp_path) == before


def test_report_over_a_foreign_folder_needs_force(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _table_inputs(tmp_path)
    result_file = tmp_path / "r.json"
    assert cli("table", "--truth", truth, "--pred", pred, "--result", result_file).code == 0
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("my own page")
    quick = ("--resamples", "10", "--permutations", "10")
    one_error(cli("report", result_file, "--out", site, *quick), "--force", "did not write")
    assert (site / "index.html").read_text() == "my own page"
    fresh = tmp_path / "fresh"
    assert cli("report", result_file, "--out", fresh, *quick).code == 0
    assert cli("report", result_file, "--out", fresh, *quick).code == 0  # ours: again is fine
    assert cli("report", result_file, "--out", site, "--force", *quick).code == 0
    assert "my own page" not in (site / "index.html").read_text()


def test_failed_write_is_one_line_naming_the_path(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _table_inputs(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    one_error(
        cli("table", "--truth", truth, "--pred", pred, "--out", blocker / "x.json"),
        f"{blocker / 'x.json'}: cannot write",
    )


def test_failed_write_keeps_the_earlier_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_text("earlier")

    def full_disk(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("parsescore.core.files.os.replace", full_disk)
    with pytest.raises(InputError, match=r"out\.json: cannot write: No space left on device"):
        write_text(target, "new")
    assert target.read_text() == "earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temp file left


# -- tables: spans, cells, GriTS -----------------------------------------------------------------


SPAN_CASES = {
    "colspan 999999999999": table_doc('<td colspan="999999999999">x</td>'),
    "100000 x 100000": table_doc('<td colspan="100000" rowspan="100000">x</td>'),
    "50 rows of 1000 x 1000": table_doc('<td colspan="1000" rowspan="1000">x</td>', rows=50),
    "colspan x": table_doc('<td colspan="x">x</td>'),
}


@pytest.mark.parametrize("case", list(SPAN_CASES))
@pytest.mark.parametrize("side", ["truth", "pred"])
def test_huge_or_bad_spans_are_refused_fast(tmp_path: Path, cli: Cli, case: str, side: str) -> None:
    bad, ok = tmp_path / "bad.json", tmp_path / "ok.json"
    bad.write_text(json.dumps({"a": SPAN_CASES[case]}))
    ok.write_text(json.dumps({"a": table_doc()}))
    truth, pred = (bad, ok) if side == "truth" else (ok, bad)
    start = time.perf_counter()
    if side == "truth":  # the user's own data: the run stops, naming the file and the table
        flat = one_error(
            cli("table", "--truth", truth, "--pred", pred, "--quiet"), "bad.json", "'a'"
        )
        assert time.perf_counter() - start < 10
        assert "limit" in flat or "not an integer" in flat
        return
    # a model's answer: that item fails (scores 0, listed), the others are scored
    truth.write_text(json.dumps({"a": table_doc(), "b": table_doc()}))
    pred.write_text(json.dumps({"a": SPAN_CASES[case], "b": table_doc()}))
    out = tmp_path / "out.json"
    result = cli("table", "--truth", truth, "--pred", pred, "--quiet", "--out", out)
    assert time.perf_counter() - start < 10
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    assert doc["scores"] == {"a": 0.0, "b": 1.0}
    assert list(doc["unreadable"]) == ["a"]
    assert "limit" in doc["unreadable"]["a"] or "not an integer" in doc["unreadable"]["a"]
    assert "1 of 2 answers are unreadable (scored as missing; --strict stops at the first): a:" in (
        " ".join(result.err.split())
    )


def test_teds_bad_span_is_clear(cli: Cli) -> None:
    result = cli("teds", "-gt", SPAN_CASES["colspan x"], "-pred", table_doc())
    one_error(result, "colspan='x' is not an integer span")
    result = cli("teds", "-gt", SPAN_CASES["100000 x 100000"], "-pred", table_doc())
    one_error(result, "larger than the limit of 1000")


def test_span_limit_is_configurable(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = tmp_path / "t.json"
    doc.write_text(json.dumps({"a": table_doc('<td colspan="6">x</td>')}))
    assert cli("table", "--truth", doc, "--pred", doc, "--quiet").code == 0
    monkeypatch.setenv("PARSESCORE_MAX_SPAN", "5")
    one_error(cli("table", "--truth", doc, "--pred", doc, "--quiet"), "PARSESCORE_MAX_SPAN")
    monkeypatch.setenv("PARSESCORE_MAX_SPAN", "1000")
    monkeypatch.setenv("PARSESCORE_MAX_CELLS", "5")
    one_error(cli("table", "--truth", doc, "--pred", doc, "--quiet"), "PARSESCORE_MAX_CELLS")


def test_grits_cell_spanning_100k_by_100(tmp_path: Path, cli: Cli) -> None:
    big = tmp_path / "big.json"
    cell = {"row_nums": list(range(100_000)), "column_nums": list(range(100)), "cell_text": "x"}
    big.write_text(json.dumps({"a": [cell]}))
    start = time.perf_counter()
    one_error(cli("grits", "--truth", big, "--pred", big, "--quiet"), "big.json", "cells")
    assert time.perf_counter() - start < 10


def test_grits_pair_limit_names_the_table(tmp_path: Path, cli: Cli) -> None:
    big = tmp_path / "big.json"
    cell = {"row_nums": list(range(1000)), "column_nums": list(range(100)), "cell_text": "x"}
    big.write_text(json.dumps({"wide": [cell]}))
    start = time.perf_counter()
    one_error(cli("grits", "--truth", big, "--pred", big, "--quiet"), "'wide'", "GRITS_PAIRS")
    assert time.perf_counter() - start < 10


# -- usage errors ------------------------------------------------------------------------------


def test_negative_jobs_refused(cli: Cli) -> None:
    truth = str(TABLES / "sample_gt.json")
    one_error(cli("table", "--truth", truth, "--pred", truth, "--jobs", "-3"), "--jobs", "-3")


def test_missing_truth_folder_says_it_does_not_exist(tmp_path: Path, cli: Cli) -> None:
    missing = tmp_path / "nope"
    one_error(
        cli("flowchart", "--truth", missing, "--pred", FLOW / "predictions"),
        f"{missing}",
        "does not exist",
    )


# -- templates -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "said"),
    [("import sys\nsys.exit(3)\n", "sys.exit(3)"), ("raise RuntimeError('boom')\n", "boom")],
)
def test_template_that_exits_or_raises_is_exit_2(
    tmp_path: Path, cli: Cli, code: str, said: str
) -> None:
    template = tmp_path / "evil_template.py"
    template.write_text(code)
    result = cli(
        "graph",
        "--graph",
        GRAPH / "graph.json",
        "--truth",
        GRAPH / "truth.json",
        "--template",
        f"{template}:Library",
    )
    one_error(result, "evil_template.py", said)


def test_template_help_and_docs_say_it_runs_code(cli: Cli) -> None:
    for command in ("graph", "graph-audit"):
        helped = " ".join(cli(command, "--help").out.split())
        assert "Python code runs" in helped
    docs = " ".join((ROOT / "docs" / "graph.md").read_text().split())
    assert "The template module is imported and its Python code runs" in docs


# -- the cache -----------------------------------------------------------------------------------


def _cached_run(cli: Cli, truth: Path, pred: Path, cache: Path, out: Path) -> CliRun:
    return cli("table", "--truth", truth, "--pred", pred, "--cache", cache, "--out", out, "--quiet")


def test_odd_cache_entries_are_ignored_and_rewritten(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _table_inputs(tmp_path)
    cache = tmp_path / "cache"
    assert _cached_run(cli, truth, pred, cache, tmp_path / "clean.json").code == 0
    clean = (tmp_path / "clean.json").read_bytes()
    entries = sorted(cache.glob("*/*.json"))
    assert len(entries) >= 3
    # a directory in place of one entry, one truncated, one holding another item's record
    first, second, third = entries[:3]
    first.unlink()
    first.mkdir()
    (first / "x").write_text("x")
    second.write_text(second.read_text()[:20])
    other = json.loads(entries[-1].read_text())
    third.write_text(json.dumps(other))
    # a record edited to other valid numbers (the checksum no longer matches)
    edited = json.loads(entries[3].read_text())
    edited["record"]["teds"] = 0.123
    entries[3].write_text(json.dumps(edited))
    again = _cached_run(cli, truth, pred, cache, tmp_path / "again.json")
    assert again.code == 0, again.err
    assert (tmp_path / "again.json").read_bytes() == clean
    for entry in entries[:4]:
        assert entry.is_file()
        assert json.loads(entry.read_text())["version"]
    assert sorted(cache.glob("*/*.json")) == entries


def _many_sequences(tmp_path: Path, copies: int) -> tuple[Path, Path]:
    """A sequence dataset of ``copies`` x the bundled six diagrams (fast to score each)."""
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    for source in sorted((SEQ / "truth").glob("*.puml")):
        for i in range(copies):
            shutil.copy(source, truth / f"{source.stem}-{i}.puml")
            shutil.copy(SEQ / "model_a" / source.name, pred / f"{source.stem}-{i}.puml")
    return truth, pred


def _sequence_argv(truth: Path, pred: Path, out: Path, *more: str) -> list[str]:
    return ["sequence", "--truth", str(truth), "--pred", str(pred), "--out", str(out), *more]


def test_two_runs_sharing_a_cache(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _many_sequences(tmp_path, 5)
    cache = tmp_path / "cache"
    outs = [tmp_path / f"out{i}.json" for i in range(2)]
    runs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "parsescore",
                *_sequence_argv(truth, pred, out, "--quiet", "--cache", str(cache)),
            ],
            stdout=subprocess.DEVNULL,
        )
        for out in outs
    ]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    clean = tmp_path / "clean.json"
    assert cli(*_sequence_argv(truth, pred, clean, "--quiet")).code == 0
    assert outs[0].read_bytes() == outs[1].read_bytes() == clean.read_bytes()
    assert len(list(cache.glob("*/*.json"))) == 30


def test_sigint_then_rerun_gives_identical_output(tmp_path: Path, cli: Cli) -> None:
    """Interrupt a cached run midway with a real SIGINT, run again: the same bytes as a run
    that was never interrupted (and the cache holds only whole entries)."""
    truth, pred = _many_sequences(tmp_path, 30)
    cache = tmp_path / "cache"
    out = tmp_path / "a.json"
    argv = [
        sys.executable,
        "-m",
        "parsescore",
        *_sequence_argv(truth, pred, out, "--quiet", "--cache", str(cache)),
    ]
    first = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=default_sigint
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(cache.glob("*/*.json"))) < 5:
        time.sleep(0.01)
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 130, err  # interrupted, not finished
    assert b"Traceback" not in err
    assert not out.exists()
    entries = list(cache.glob("*/*.json"))
    assert 5 <= len(entries) < 180
    for entry in entries:
        json.loads(entry.read_text())  # whole entries only
    subprocess.run(argv, check=True, timeout=300)
    clean = tmp_path / "clean.json"
    assert cli(*_sequence_argv(truth, pred, clean, "--quiet")).code == 0
    assert out.read_bytes() == clean.read_bytes()


def test_sequence_report_over_a_foreign_folder_needs_force(tmp_path: Path, cli: Cli) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "table1.md").write_text("my notes")
    args = ("sequence", "--truth", SEQ / "truth", "--pred", SEQ / "model_a", "--quiet")
    one_error(cli(*args, "--report", folder), "--report", "--force")
    assert (folder / "table1.md").read_text() == "my notes"
    assert cli(*args, "--report", folder, "--force").code == 0
    assert (folder / "table1.md").read_text() != "my notes"
    assert cli(*args, "--report", folder).code == 0  # now marked as ours
