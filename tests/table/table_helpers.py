"""Helpers for the table tests (a uniquely named module, so other kinds' conftest files
cannot shadow it): the reference implementation and the bundled data."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from table_recognition_metric import TEDS as ReferenceTEDS

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[2] / "src/parsescore/data/table/pubtabnet_samples"


def wrap(inner: str) -> str:
    """A table body inside the ``<html><body><table>`` wrapper the reference requires."""
    return f"<html><body><table>{inner}</table></body></html>"


def reference_score(gt: str, pred: str, structure_only: bool = False) -> float:
    """The reference's score, called as its README and CLI do (gt first)."""
    return ReferenceTEDS(structure_only=structure_only)(gt, pred)


def sample_pairs() -> dict[str, tuple[str, str]]:
    """The 20 PubTabNet sample pairs bundled with the package: name → (gt, pred)."""
    gt = json.loads((SAMPLES / "sample_gt.json").read_text(encoding="utf-8"))
    pred = json.loads((SAMPLES / "sample_pred.json").read_text(encoding="utf-8"))
    return {name: (gt[name]["html"], pred[name]) for name in gt}


def pandoc_path() -> str:
    """pandoc, the independent converter of the round-trip tests (never skipped)."""
    found = shutil.which("pandoc")
    if found is None:
        pytest.fail(
            "the table format tests need pandoc (Debian's package): `make test` installs it as "
            "root, else run `sudo apt-get install pandoc`"
        )
    return found


def render(pandoc: str, html: str, target: str) -> str:
    return render_all(pandoc, [html], target)[0]


def render_all(pandoc: str, htmls: list[str], target: str) -> list[str]:
    """Every table rendered by one pandoc run (a document of the tables between markers)."""
    parts = []
    for k, html in enumerate(htmls):
        table = re.search(r"<table.*</table>", html, re.S)
        assert table is not None, html
        parts.append(f"<p>TABLE-SPLIT-{k}</p>{table.group(0)}")
    done = subprocess.run(
        [pandoc, "-f", "html", "-t", target],
        input="<html><body>" + "".join(parts) + "</body></html>",
        capture_output=True,
        text=True,
        check=True,
    )
    pieces = re.split(r"^TABLE-SPLIT-\d+\s*$", done.stdout, flags=re.MULTILINE)
    assert len(pieces) == len(htmls) + 1, "pandoc's output lost a marker"
    return [piece.strip() + "\n" for piece in pieces[1:]]
