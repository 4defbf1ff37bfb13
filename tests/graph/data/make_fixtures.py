"""Regenerate the reference fixtures with the real docling-graph 1.9.1 (see README.md here).

Run with the throwaway reference venv, never the project's:

    /tmp/dg-venv/bin/python tests/graph/data/make_fixtures.py /tmp/dg-ref

``/tmp/dg-ref`` holds ``docs/examples/scripts/16_extraction_evaluation.py`` and
``17_benchmark_aggregate.py`` taken from the v1.9.1 tag. This file only calls the reference; it is
not imported by the tests.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def export_extracted(example: str, template_module: str, root_class: str) -> None:
    """Convert the example's extracted_instance.json with docling-graph's converter + exporter."""
    import importlib

    from docling_graph.core.converters.graph_converter import GraphConverter
    from docling_graph.core.exporters.json_exporter import JSONExporter

    sys.path.insert(0, str(HERE))
    template = getattr(importlib.import_module(template_module), root_class)
    data = json.loads((HERE / example / "extracted_instance.json").read_text(encoding="utf-8"))
    graph, _ = GraphConverter(validate_graph=False).pydantic_list_to_graph(
        [template.model_validate(data)]
    )
    if example == "library":
        # What an LLM run typically adds: an entity with an empty identity, an orphan node,
        # and an unkeyed node.
        graph.add_node(
            "Person_empty",
            id="Person_empty",
            label="Person",
            type="entity",
            __class__="Person",
            name="  ",
            role="volunteer",
            address=None,
        )
        graph.add_node(
            "Book_orphan",
            id="Book_orphan",
            label="Book",
            type="entity",
            __class__="Book",
            title="Labyrinths",
            year=1962,
            isbn=None,
            blurb=None,
            keywords=[],
            authors=None,
            chapters=None,
        )
        root = next(n for n, d in graph.nodes(data=True) if d.get("__class__") == "Library")
        graph.add_edge(root, "Person_empty", label="EMPLOYS")
    out = HERE / example / "graph.json"
    JSONExporter().export(graph, out)
    print("wrote", out)


RUNS = {
    "library": [
        ("auto_source", ["--source", "source.md"]),
        ("no_source", []),
        ("on", ["--structural-align", "on"]),
        ("off_source", ["--structural-align", "off", "--source", "source.md"]),
    ],
    "catalog": [("auto_source", ["--source", "source.md"]), ("no_source", [])],
    "quirks": [
        ("auto_source", ["--source", "source.md"]),
        ("on", ["--structural-align", "on"]),
        ("off", ["--structural-align", "off"]),
    ],
    "study": [
        ("auto_source", ["--source", "source.md"]),
        ("on", ["--structural-align", "on"]),
        ("off", ["--structural-align", "off"]),
    ],
}
TEMPLATES = {
    "library": "library_template.Library",
    "study": "study_template.Study",
    "catalog": "catalog_template.Catalog",
    "quirks": "quirks_template.Ledger",
}


def run_script16(ref_root: Path) -> None:
    """Run the reference script 16 for every variant; expected outputs go to expected/."""
    script = ref_root / "docs/examples/scripts/16_extraction_evaluation.py"
    for example, variants in RUNS.items():
        folder = HERE / example
        (folder / "expected").mkdir(exist_ok=True)
        for name, extra in variants:
            out = f"expected/eval_{name}.json"
            cmd = [
                sys.executable,
                str(script),
                "--graph",
                "graph.json",
                "--truth",
                "truth.json",
                "--template",
                TEMPLATES[example],
                *extra,
                "--out",
                out,
            ]
            subprocess.run(
                cmd,
                cwd=folder,
                check=True,
                env={"PYTHONPATH": str(HERE), "PYTHONHASHSEED": "0"},
                stdout=subprocess.DEVNULL,
            )
            print("ran", " ".join(cmd[1:]))


LENIENT_VARIANTS = [
    ("auto_source", ["--source", "source.md"]),
    ("on", ["--structural-align", "on"]),
    ("off", ["--structural-align", "off"]),
]


def lenient_inputs() -> dict[str, dict]:
    """Odd graph.json files script 16 still scores, derived from the library example."""
    base = json.loads((HERE / "library" / "graph.json").read_text(encoding="utf-8"))
    ids = [n["id"] for n in base["nodes"]]
    dangling = json.loads(json.dumps(base))
    dangling["edges"] += [
        {"source": ids[0], "target": "Dataset_missing", "label": "HOLDS"},
        {"source": "Ghost_1", "target": ids[1], "label": "WRITTEN_BY"},
        {"source": "Ghost_1", "target": "Ghost_2", "label": "HOLDS"},
        {"source": ids[0], "label": "HOLDS"},
        {"target": ids[2], "label": "EMPLOYS"},
    ] + [{"source": ids[0], "target": f"Missing_{i}", "label": "CITES"} for i in range(6)]
    no_id = json.loads(json.dumps(base))
    for node in no_id["nodes"]:
        if node.get("__class__") == "Book":
            del node["id"]
            break
    no_id["edges"].append({"source": None, "target": ids[0], "label": "HOLDS"})
    empty_with_edges = {"nodes": [], "edges": base["edges"], "metadata": {}, "graph": {}}
    return {
        "dangling": dangling,
        "no_id": no_id,
        "empty_nodes": {"nodes": [], "edges": [], "metadata": {}, "graph": {}},
        "empty_with_edges": empty_with_edges,
        "no_nodes_key": {"edges": [], "metadata": {}},
    }


def run_script16_lenient(ref_root: Path) -> None:
    """Write lenient/*.json and score each against the library truth with script 16."""
    script = ref_root / "docs/examples/scripts/16_extraction_evaluation.py"
    folder = HERE / "lenient"
    (folder / "expected").mkdir(parents=True, exist_ok=True)
    for name, data in lenient_inputs().items():
        (folder / f"{name}.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
        for variant, extra in LENIENT_VARIANTS:
            cmd = [
                sys.executable,
                str(script),
                "--graph",
                f"../lenient/{name}.json",
                "--truth",
                "truth.json",
                "--template",
                TEMPLATES["library"],
                *extra,
                "--out",
                f"../lenient/expected/{name}_{variant}.json",
            ]
            subprocess.run(
                cmd,
                cwd=HERE / "library",
                check=True,
                env={"PYTHONPATH": str(HERE), "PYTHONHASHSEED": "0"},
                stdout=subprocess.DEVNULL,
            )
            print("ran", " ".join(cmd[1:]))


BENCHMARKS = HERE.parents[2] / "benchmarks"


def run_script16_billing(ref_root: Path) -> None:
    """Script 16 on the small BillingDocument shape of bench_graph.py (billing/: written by
    ``.venv/bin/python benchmarks/bench_graph.py --write-inputs tests/graph/data/billing
    --lines 300 --seed 5``, with parsescore's converter)."""
    script = ref_root / "docs/examples/scripts/16_extraction_evaluation.py"
    folder = HERE / "billing"
    (folder / "expected").mkdir(exist_ok=True)
    for name, extra in LENIENT_VARIANTS:
        cmd = [
            sys.executable,
            str(script),
            "--graph",
            "graph.json",
            "--truth",
            "truth.json",
            "--template",
            "graph_billing_template.BillingDocument",
            *extra,
            "--out",
            f"expected/eval_{name}.json",
        ]
        subprocess.run(
            cmd,
            cwd=folder,
            check=True,
            env={"PYTHONPATH": str(BENCHMARKS), "PYTHONHASHSEED": "0"},
            stdout=subprocess.DEVNULL,
        )
        print("ran", " ".join(cmd[1:]))


def run_script17(ref_root: Path) -> None:
    """Build a small run matrix from the eval outputs and aggregate it with script 17."""
    tree = HERE / "matrix"
    script = ref_root / "docs/examples/scripts/17_benchmark_aggregate.py"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "matrix"
        shutil.copytree(tree / "input", work)
        subprocess.run(
            [sys.executable, str(script), "--root", str(work), "--quiet"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        shutil.copy(work / "_aggregate.json", tree / "expected_aggregate.json")
        shutil.copy(work / "synthesis_report.md", tree / "expected_synthesis_report.md")
    print("aggregated", tree)


CANON_CASES = [
    ("name", "The John Doe"),
    ("name", "john doe"),
    ("name", "JOHN-DOE"),
    ("name", "the"),
    ("name", "An apple's core"),
    ("name", "O\u2019Brien\u2019s Team"),
    ("name", "Propri\u00e9taire non_occupant"),
    ("name", "  A  "),
    ("name", ""),
    ("name", None),
    ("name", 42),
    ("name", "Stra\u00dfe"),
    ("title", "Article 5 \u2014 Exclusions"),
    ("nom", "L'assur\u00e9"),
    ("name", "a"),
    ("name", "The\tTiger"),
    ("name", "\ufb01rst class"),
    ("name", "s's"),
    ("code", "Run-1"),
    ("code", "run_1"),
    ("code", "\u00c9lectrom\u00e9nager"),
    ("code", "  "),
    ("code", 3.5),
    ("code", True),
    ("code", ["b", "a"]),
    ("code", "Stra\u00dfe"),
    ("code", "\u6771\u4eac"),
    ("code", "\u2160"),
    ("sample_id", "S-01/b"),
]
LOOSE_CASES = [
    "  Hello   World ",
    "- -les murs",
    "-les murs",
    "a - b",
    "\u2022item one\n*two",
    "Caf\u00e9\u00a0cr\u00e8me",
    "+plus and ++more",
    "x-y",
    "line\n- bullet",
    "STRASSE Stra\u00dfe",
]
PAIR_CASES = [
    ({"method": "Rheology", "unit": "Pa"}, {"method": "rheology ", "unit": "Pa"}),
    ({"text": "abcd"}, {"text": "xxabcdxx"}),
    ({"text": "abc"}, {"text": "xxabcxx"}),
    ({"text": "a" * 40 + "b"}, {"text": "z" + "a" * 40 + "b"}),
    ({"tags": ["A", "b"], "n": 3}, {"tags": ["a"], "n": 3.0}),
    ({"tags": ["A"], "n": 3}, {"tags": "A", "n": "3"}),
    (
        {"id": "x", "label": "C", "__class__": "C", "v": "same"},
        {"id": "x", "label": "C", "v": "same"},
    ),
    ({"d": {"a": 1}, "e": "", "f": None}, {"d": {"a": 1}, "e": "", "f": None}),
    ({"flag": False}, {"flag": False}),
    ({"flag": True, "z": 0}, {"flag": 1, "z": 0}),
    ({"s": "- item"}, {"s": "item"}),
]
RELAXED_CASES = [
    ([["C", ["article5exclusions"]]], [["C", ["article5"]], ["C", ["article6"]]]),
    ([["C", ["article5"]]], [["C", ["article5a"]], ["C", ["article5b"]]]),
    ([["C", ["gardenwork"]], ["C", ["garden"]]], [["C", ["garden_work"]]]),
    ([["P", ["JOHN_DOE"]]], [["Q", ["JOHN_DOE_JR"]]]),
    ([["P", ["A", "B"]]], [["P", ["A", "BC"]]]),
    ([["P", ["\u6771\u4eac"]]], [["P", ["\u6771\u4eac\u90fd"]]]),
    ([["P", ["x1y2"]]], [["P", ["x1y2z"]], ["P", ["x12"]]]),
]
SYNTHETIC_CASES = [
    ([["S", ["STUDY-LFP"]], ["E", ["exp1"]], ["E", ["rheology"]]], "the rheology study of lfp"),
    ([["S", ["ab"]], ["S", ["abc"]]], "xxabcxx"),
    ([["S", ["nothere"]], ["S", ["here"]]], "here and there"),
]


def reference_rules(ref_root: Path) -> None:
    """Reference outputs of the evaluator's building blocks on hand-made inputs."""
    import importlib.util

    from docling_graph.core.utils.entity_name_normalizer import canonicalize_identity_for_dedup

    script = ref_root / "docs/examples/scripts/16_extraction_evaluation.py"
    spec = importlib.util.spec_from_file_location("ref16", script)
    ref16 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref16)
    out = {
        "canon": [[f, v, canonicalize_identity_for_dedup(f, v)] for f, v in CANON_CASES],
        "loose": [[t, ref16._normalize_text(t)] for t in LOOSE_CASES],
        "pair_score": [[a, b, ref16._pair_similarity(a, b)] for a, b in PAIR_CASES],
        "relaxed": [],
        "synthetic": [],
        "truth_graphs": {},
    }
    for a, b in RELAXED_CASES:
        ka = [(c, tuple(v)) for c, v in a]
        kb = [(c, tuple(v)) for c, v in b]
        out["relaxed"].append([a, b, ref16.relaxed_match(ka, kb)])
    for keys, source in SYNTHETIC_CASES:
        gt = {(c, tuple(v)): {} for c, v in keys}
        found = sorted(ref16.detect_synthetic_classes(gt, ref16._squash(source)))
        out["synthetic"].append([keys, source, found])
    for example, dotted in TEMPLATES.items():
        template = ref16.load_template(dotted)
        nodes, edges = ref16.graph_from_truth(HERE / example / "truth.json", template)
        out["truth_graphs"][example] = {
            "id_fields": ref16.collect_id_fields(template),
            "nodes": nodes,
            "edges": edges,
        }
    (HERE / "reference_rules.json").write_text(
        json.dumps(out, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8"
    )
    print("wrote reference_rules.json")


def audit_fixture() -> None:
    """Template-level evaluation with the reference evaluate_template and an injected runner."""
    import importlib
    from types import SimpleNamespace

    from docling_graph.core.importers.graph_json import load_graph_json
    from docling_graph.core.provenance.models import ProvenanceLedger
    from docling_graph.templategen.evaluate import evaluate_template

    folder = HERE / "audit"
    folder.mkdir(exist_ok=True)
    data = json.loads((HERE / "library" / "graph.json").read_text(encoding="utf-8"))
    for node in data["nodes"]:
        if node.get("__class__") == "Library":
            node["name"] = "riverside_catalogue"  # the file-stem fallback of a root id
    data["graph"].update(
        {
            "empty_identity_nodes": ["Person_empty"],
            "alias_reconciliation": {
                "candidates": 2,
                "confirmed": 0,
                "merged": 0,
                "vetoed_sibling": 0,
            },
            "dropped_relationships": [{"source": "a", "label": "HOLDS", "target": "b"}],
            "closed_catalog_drops": {"HOLDS": 2, "EMPLOYS": 1},
            "demoted_nodes": [],
        }
    )
    (folder / "graph.json").write_text(
        json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    text = (HERE / "library" / "source.md").read_text(encoding="utf-8")
    parts = text.split("## ")
    ledger = {
        "version": 2,
        "document": {"document_id": "doc-1", "source": "docs/riverside_catalogue.pdf"},
        "chunks": {
            str(i): {"chunk_id": i, "batch_index": 0, "text": ("## " if i else "") + part}
            for i, part in enumerate(parts)
        },
    }
    (folder / "provenance.json").write_text(
        json.dumps(ledger, indent=2, ensure_ascii=False), encoding="utf-8"
    )

    graph = load_graph_json(folder / "graph.json")
    provenance = ProvenanceLedger.model_validate_json(
        (folder / "provenance.json").read_text("utf-8")
    )

    def runner(config: dict) -> SimpleNamespace:
        return SimpleNamespace(
            knowledge_graph=graph, provenance=provenance, extracted_models=[], extractor=None
        )

    sys.path.insert(0, str(HERE))
    template = importlib.import_module("library_template").Library
    report = evaluate_template(template, ["docs/riverside_catalogue.pdf"], run_pipeline_fn=runner)
    (folder / "expected_report.json").write_text(
        json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    (folder / "expected_report.md").write_text(report.render_markdown(), encoding="utf-8")
    print("wrote audit fixture")


MULTI_SOURCES = {
    "graph.json": "scans/riverside_catalogue.pdf",
    "second/graph.json": "uploads/library_v2.pdf",
}


def audit_multi_fixture() -> None:
    """Two graphs audited together; each document named as the reference's source list names it."""
    import importlib
    from types import SimpleNamespace

    from docling_graph.core.importers.graph_json import load_graph_json
    from docling_graph.core.provenance.models import ProvenanceLedger
    from docling_graph.templategen.evaluate import evaluate_template

    folder = HERE / "audit"
    (folder / "second").mkdir(exist_ok=True)
    data = json.loads((folder / "graph.json").read_text(encoding="utf-8"))
    for node in data["nodes"]:
        if node.get("__class__") == "Library":
            node["name"] = "library_v2"
    (folder / "second" / "graph.json").write_text(
        json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    shutil.copy(folder / "provenance.json", folder / "second" / "provenance.json")
    (folder / "source_map.json").write_text(json.dumps(MULTI_SOURCES, indent=2), encoding="utf-8")
    (folder / "source_map.csv").write_text(
        "graph,source\n" + "".join(f"{g},{d}\n" for g, d in MULTI_SOURCES.items()), encoding="utf-8"
    )
    runs = {
        document: SimpleNamespace(
            knowledge_graph=load_graph_json(folder / graph),
            provenance=ProvenanceLedger.model_validate_json(
                (folder / graph).with_name("provenance.json").read_text("utf-8")
            ),
            extracted_models=[],
            extractor=None,
        )
        for graph, document in MULTI_SOURCES.items()
    }
    sys.path.insert(0, str(HERE))
    template = importlib.import_module("library_template").Library
    report = evaluate_template(
        template, list(MULTI_SOURCES.values()), run_pipeline_fn=lambda c: runs[c["source"]]
    )
    (folder / "expected_multi_report.json").write_text(
        json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False), encoding="utf-8"
    )
    print("wrote multi-document audit fixture")


if __name__ == "__main__":
    ref = Path(sys.argv[1])
    export_extracted("library", "library_template", "Library")
    export_extracted("study", "study_template", "Study")
    export_extracted("catalog", "catalog_template", "Catalog")
    export_extracted("quirks", "quirks_template", "Ledger")
    run_script16(ref)
    run_script16_lenient(ref)
    run_script16_billing(ref)
    reference_rules(ref)
    audit_fixture()
    audit_multi_fixture()
    if (HERE / "matrix" / "input").is_dir():
        run_script17(ref)
