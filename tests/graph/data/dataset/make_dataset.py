"""Write the graph dataset fixture (``truth/``, ``pred/``, ``source/``) from the library example.

Run from the project root: ``.venv/bin/python tests/graph/data/dataset/make_dataset.py``. Five
documents of the ``Library`` template (``tests/graph/data/library_template.py``):

- ``riverside``: the library example (truth, docling-graph's graph.json, source);
- ``riverside-dangling``: the same truth and source, answered by ``lenient/dangling.json`` (an
  edge end that names no node: script 16 scores it, with a warning; ``--strict`` refuses it);
- ``hillside``: a small library written for this fixture, its graph.json converted from a
  perturbed instance by parsescore's converter, answered as a chat model does (prose and a
  fenced ``json`` block);
- ``lakeside``: a small library whose answer is garbage (a refusal and half a JSON object);
- ``harbour``: a small library with no answer.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent

HILLSIDE_TRUTH = {
    "name": "Hillside Community Library",
    "city": "Hillside",
    "books": [
        {
            "title": "A Field Guide to Mosses",
            "year": 2008,
            "authors": [{"name": "Mei Tanaka", "role": "author"}],
        },
        {
            "title": "Stone Walls of the North",
            "year": 1997,
            "authors": [{"name": "Ewan Gray"}, {"name": "Mei Tanaka"}],
        },
    ],
    "staff": [{"name": "Ruth Okafor", "role": "librarian"}],
}
HILLSIDE_EXTRACTED = {
    "name": "Hillside Community Library",
    "city": "Hillside",
    "books": [
        {
            "title": "Field Guide to Mosses",
            "year": 2008,
            "authors": [{"name": "Mei Tanaka"}],
        },
        {
            "title": "Stone Walls of the North",
            "year": 1997,
            "authors": [{"name": "Ewan Gray"}],
        },
        {"title": "Hillside Walks", "year": 2015},
    ],
    "staff": [{"name": "Ruth Okafor", "role": "librarian"}],
}
HILLSIDE_SOURCE = """# Hillside Community Library

The Hillside Community Library (Hillside) lends:

- "A Field Guide to Mosses" (2008) by Mei Tanaka.
- "Stone Walls of the North" (1997) by Ewan Gray and Mei Tanaka.

Librarian: Ruth Okafor.
"""
LAKESIDE_TRUTH = {
    "name": "Lakeside Reading Room",
    "city": "Lakeside",
    "books": [{"title": "Tides and Currents", "year": 1988, "authors": [{"name": "Ivo Bach"}]}],
}
LAKESIDE_SOURCE = """# Lakeside Reading Room

One book: "Tides and Currents" (1988) by Ivo Bach.
"""
LAKESIDE_ANSWER = """I'm sorry, the page is too blurry to read every entry. Here is a start:

{"nodes": [{"id": "Library_1", "label": "Library", "__class__": "Library", "name": "Lakeside"
"""
HARBOUR_TRUTH = {
    "name": "Harbour Maritime Archive",
    "city": "Harbour",
    "staff": [{"name": "Lena Holm", "role": "archivist"}],
}
HARBOUR_SOURCE = """# Harbour Maritime Archive

Archivist: Lena Holm.
"""


def _graph_json(instance: dict[str, object]) -> str:
    """An instance converted into a graph.json by parsescore's converter."""
    sys.path.insert(0, str(DATA))
    from library_template import Library  # type: ignore[import-not-found]

    from parsescore.graph.template import collect_id_fields, graph_from_instance

    graph = graph_from_instance(Library.model_validate(instance))
    document = {
        "nodes": graph.nodes,
        "edges": graph.edges,
        "metadata": {"node_count": len(graph.nodes), "edge_count": len(graph.edges)},
        "graph": {"template_name": "Library", "id_fields_map": collect_id_fields(Library)},
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    for folder in ("truth", "pred", "source"):
        shutil.rmtree(HERE / folder, ignore_errors=True)
        (HERE / folder).mkdir()
    library = DATA / "library"
    for name in ("riverside", "riverside-dangling"):
        shutil.copyfile(library / "truth.json", HERE / "truth" / f"{name}.json")
        shutil.copyfile(library / "source.md", HERE / "source" / f"{name}.md")
    shutil.copyfile(library / "graph.json", HERE / "pred" / "riverside.json")
    shutil.copyfile(DATA / "lenient" / "dangling.json", HERE / "pred" / "riverside-dangling.json")
    texts = {
        "truth/hillside.json": _json(HILLSIDE_TRUTH),
        "source/hillside.md": HILLSIDE_SOURCE,
        "pred/hillside.json": "Sure! Here is the knowledge graph as docling-graph exports it:\n\n"
        "```json\n" + _graph_json(HILLSIDE_EXTRACTED) + "```\n\nLet me know if you need more.\n",
        "truth/lakeside.json": _json(LAKESIDE_TRUTH),
        "source/lakeside.md": LAKESIDE_SOURCE,
        "pred/lakeside.json": LAKESIDE_ANSWER,
        "truth/harbour.json": _json(HARBOUR_TRUTH),
        "source/harbour.md": HARBOUR_SOURCE,
    }
    for relative, text in texts.items():
        (HERE / relative).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
