"""The DOT reader against Graphviz's own parse (Debian's ``graphviz``, ``dot -Tjson0``).

On every file of the corpus (pydot's test graphs, tests/flowchart/data/dot_corpus/SOURCES): the
same nodes, edges, plain node texts, cluster titles, edge labels and graph label as Graphviz
reports. One ``dot`` process reads the whole corpus.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from dot_json import comparable, model_from_dot_json, model_from_ours

from debian_tools import debian_command
from parsescore.flowchart.formats import read_dot

CORPUS = Path(__file__).parent / "data" / "dot_corpus"
FILES = sorted(CORPUS.glob("*.dot"))


def _ensure_dot() -> str:
    return debian_command("dot", "graphviz", needed_by="the DOT reference tests")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("dot")
    copies = [shutil.copy(path, folder / path.name) for path in FILES]
    done = subprocess.run(
        [_ensure_dot(), "-Tjson0", "-O", *map(str, copies)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return {
        path.name: model_from_dot_json(json.loads((folder / f"{path.name}.json0").read_text()))
        for path in FILES
    }


def test_corpus_is_recorded() -> None:
    assert len(FILES) >= 30
    rows = [line.split("\t") for line in (CORPUS / "SOURCES").read_text().splitlines()]
    listed = {row[0]: row for row in rows if row[0] and not row[0].startswith("#")}
    for path in FILES:
        _, repo, _, commit, licence = listed[path.name]
        assert repo == "pydot/pydot" and len(commit) == 40 and licence == "MIT"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_reader_equals_graphviz(path: Path, reference: dict[str, dict[str, Any]]) -> None:
    ref = reference[path.name]
    ours = model_from_ours(read_dot(path.read_text(encoding="utf-8"), path=path))
    assert comparable(ours, ref) == ref
