"""Real PlantUML sequence diagrams (``data/plantuml_corpus``, other repositories than the mwdi
ones) counted by PlantUML itself (Debian's ``plantuml``) and by us.

PlantUML reports no counts, so the test makes it draw them: each script is copied with its own
``autonumber`` lines removed and ``autonumber "[000]"`` added, so every message PlantUML draws
carries a number in the SVG (a ``[hidden]`` arrow takes a number but is not drawn); notes get one
background colour, so every note PlantUML draws is one shape of that colour (a ``note`` is two
paths, ``hnote``/``rnote`` one polygon/rect). That gives, per file, PlantUML's ``direction``
(messages drawn), ``message`` (messages drawn with text next to their number) and ``note``
counts, which must equal our ground-truth counts. Its preprocessor is checked too: our parse of
PlantUML's ``-preproc`` output equals our parse with our own preprocessor. One java process
per mode for the whole corpus.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from debian_tools import debian_command
from parsescore.sequence.metrics import ground_truth_counts
from parsescore.sequence.parser import parse_plantuml

CORPUS = Path(__file__).parent / "data" / "plantuml_corpus"
FILES = sorted(CORPUS.glob("*.puml"))
_NUMBER = re.compile(r"^\[(\d{3})\]")
_TEXT = re.compile(r'<text[^>]*\bx="([\d.]+)"[^>]*\by="([\d.]+)"[^>]*>([^<]*)</text>')
_NOTE_FILL = "#FEFEFE"


def _plantuml() -> str:
    """The ``plantuml`` command, installed from Debian's package when missing (as root)."""
    return debian_command("plantuml", "plantuml", needed_by="the PlantUML reference tests")


def _plain_start(line: str) -> str:
    """``@startuml name`` names the output file after ``name``: keep the file's own name."""
    return "@startuml" if re.match(r"^\s*@startuml", line, re.IGNORECASE) else line


def _instrumented(text: str) -> str:
    out: list[str] = []
    for line in text.splitlines():
        if re.match(r"^\s*autonumber\b", line, re.IGNORECASE):
            continue
        if re.match(r"^\s*@enduml", line, re.IGNORECASE):
            out.append(f"skinparam NoteBackgroundColor {_NOTE_FILL}")
        # a note's own colour would hide it from the count: drop it (colours count nothing here)
        note = r"^(\s*[hr]?note\b[^:#]*?)\s*#[\w#]+"
        out.append(re.sub(note, r"\1", _plain_start(line), flags=re.IGNORECASE))
        if re.match(r"^\s*@startuml", line, re.IGNORECASE):
            out.append('autonumber "[000]"')
    return "\n".join(out) + "\n"


def _svg_counts(svg: str) -> dict[str, int]:
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.DOTALL)
    texts = [(float(m[1]), float(m[2]), m[3]) for m in _TEXT.finditer(svg)]
    numbers: set[int] = set()
    with_text = 0
    for index, (x, y, text) in enumerate(texts):
        match = _NUMBER.match(text)
        if not match:
            continue
        numbers.add(int(match[1]))
        # a message's text follows its number, to its right, starting at most two lines lower
        if index + 1 < len(texts):
            nx, ny, following = texts[index + 1]
            if following.strip() and not _NUMBER.match(following) and nx > x and ny - y <= 40:
                with_text += 1
    shapes = len(re.findall(rf'<(?:polygon|rect)[^>]*fill="{_NOTE_FILL}"', svg))
    paths = len(re.findall(rf'<path[^>]*fill="{_NOTE_FILL}"', svg))
    return {"direction": len(numbers), "message": with_text, "note": shapes + paths // 2}


@pytest.fixture(scope="module")
def plantuml_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """PlantUML's SVG of every instrumented script and its ``-preproc`` output, by file name."""
    command = _plantuml()
    svg_dir = tmp_path_factory.mktemp("svg")
    pre_dir = tmp_path_factory.mktemp("preproc")
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        (svg_dir / path.name).write_text(_instrumented(text), encoding="utf-8")
        plain = "\n".join(_plain_start(line) for line in text.splitlines()) + "\n"
        (pre_dir / path.name).write_text(plain, encoding="utf-8")
    for mode, folder in (("-tsvg", svg_dir), ("-preproc", pre_dir)):
        names = [str(folder / p.name) for p in FILES]
        done = subprocess.run(
            [command, mode, *names], capture_output=True, text=True, timeout=900, check=False
        )
        assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, dict[str, str]] = {}
    for path in FILES:
        stem = path.name[: -len(".puml")]
        out[path.name] = {
            "svg": (svg_dir / f"{stem}.svg").read_text(encoding="utf-8"),
            "preproc": (pre_dir / f"{stem}.preproc").read_text(encoding="utf-8"),
        }
    return out


def test_corpus_is_real_and_covers_the_constructs() -> None:
    """The corpus holds what the issue saw real repositories write."""
    texts = {p.name: p.read_text(encoding="utf-8") for p in FILES}
    assert len(FILES) >= 35
    joined = "\n".join(texts.values())
    assert re.search(r"^\s*!if\b", joined, re.M) and re.search(r"^\s*!\$\w+\s*=", joined, re.M)
    assert re.search(r"-->X ", joined)
    assert re.search(r"\\\s*$", joined, re.M)
    assert re.search(r"^\s*sprite\b.*\{\s*$", joined, re.M)
    for name in texts:
        assert f"| {name} |" in (CORPUS / "SOURCES.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES, ids=[p.stem[-40:] for p in FILES])
def test_counts_equal_plantuml(path: Path, plantuml_outputs: dict[str, dict[str, str]]) -> None:
    theirs = _svg_counts(plantuml_outputs[path.name]["svg"])
    assert theirs["direction"] > 0, "PlantUML drew no numbered message: the measure failed"
    gt = ground_truth_counts(parse_plantuml(path.read_text(encoding="utf-8")))
    assert {category: gt[category] for category in theirs} == theirs


@pytest.mark.parametrize("path", FILES, ids=[p.stem[-40:] for p in FILES])
def test_our_preprocessor_equals_plantuml(
    path: Path, plantuml_outputs: dict[str, dict[str, str]]
) -> None:
    ours = parse_plantuml(path.read_text(encoding="utf-8"))
    theirs = parse_plantuml(plantuml_outputs[path.name]["preproc"])
    assert ours.canonical_lines == theirs.canonical_lines


def test_no_spurious_warnings() -> None:
    """No unknown lines on real files (sprites, skinparam blocks, preprocessor lines are
    understood); the only warnings left point at real defects of two files, which PlantUML
    tolerates: an ``!if`` never closed and a group never closed."""
    found = {
        (path.name, str(d))
        for path in FILES
        for d in parse_plantuml(path.read_text(encoding="utf-8")).diagnostics
    }
    assert found == {
        (
            "docs_product_features_CurrencyConversion_FXAPI_Payer_Receive_Agreement.puml",
            "warning: line 84: !if opened here is never closed by !endif",
        ),
        (
            "features_0042_lox_keyring.puml",
            "warning: line 11: group opened here is never closed by 'end'",
        ),
    }
