"""What the ``parsescore`` profile adds to the document kind's output: its native ``--out``
document (read back, JSON Schema), its lines of the terminal summary, and the per-page
alignment in the envelope's detail. The compat parts stay in ``present.py`` and ``dataset.py``;
these wrap them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console

from parsescore.core.results import Reader, Result
from parsescore.core.schema import NUMBER, STRING, map_of, ref

__all__ = ["read", "schema_defs", "summarise"]

_SHOWN = (
    ("text_cer_pooled", "Text CER, jiwer (pooled) ↓"),
    ("text_wer_pooled", "Text WER, jiwer (pooled) ↓"),
    ("text_union_error_pooled", "Text error over the union (pooled) ↓"),
    ("formula_union_error_pooled", "Formula error over the union (pooled) ↓"),
    ("table_teds_any_tables", "Table TEDS, any format ↑"),
    ("table_teds_s_any_tables", "Table TEDS-S, any format ↑"),
    ("table_grits_con_tables", "Table GriTS-Con ↑"),
    ("order_accuracy_pooled", "Order accuracy (pooled pairs) ↑"),
    ("order_tau", "Order Kendall τ (page mean) ↑"),
)


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The result of a native document: the compat totals of OmniDocBench's document, and for
    the ``parsescore`` profile's document its pages' metrics and counts with every total."""
    from parsescore.core.aggregate import totals
    from parsescore.document.dataset import read as read_compat
    from parsescore.document.kind import OMNIDOCBENCH_TOTALS as TOTALS
    from parsescore.document.kind import PARSESCORE_TOTALS

    if {"tests", "groups", "overall", "types"} <= set(doc):
        return [_read_olmocr(doc, r, name)]
    if doc.get("profile") != "parsescore":
        return read_compat(doc, r, name)
    compat = read_compat(r.mapping(r.key(doc, "omnidocbench", "top level"), "key 'omnidocbench'"),
                         r, name)[0]  # fmt: skip
    pages = r.mapping(r.key(doc, "pages", "top level"), "key 'pages'")
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    for page, record in pages.items():
        where = f"pages.{page}"
        record = r.mapping(record, where)
        for name, into in (("metrics", items), ("counts", counts)):
            values = r.mapping(r.key(record, name, where), f"{where}.{name}")
            into[page] = {k: r.number(v, f"{where}.{name}.{k}") for k, v in values.items()}
    from parsescore.document.better import undefined_totals

    found = totals((*TOTALS, *PARSESCORE_TOTALS), items, counts, given=compat.totals)
    found = {k: v for k, v in found.items() if k not in undefined_totals(PARSESCORE_TOTALS, counts)}
    return [
        Result(
            "document",
            name,
            items,
            found,
            r.path,
            options={"profile": "parsescore", "normalisation": doc.get("normalisation")},
            counts={k: v for k, v in counts.items() if v},
            dataset={
                "profile": "parsescore",
                "missing": list(doc.get("missing") or []),
                "metric_result": compat.dataset.get("metric_result"),
            },
        )
    ]


def _read_olmocr(doc: Mapping[str, Any], r: Reader, name: str) -> Result:
    """An olmOCR-bench scores document: its overall and per-type scores as the totals, its
    groups, verdicts and failure as the dataset (its test ids name no page: no items)."""
    tests = r.mapping(doc["tests"], "key 'tests'")
    for test, outcome in tests.items():
        outcome = r.mapping(outcome, f"tests.{test}")
        r.number(r.key(outcome, "fraction", f"tests.{test}"), f"tests.{test}.fraction")
    groups = {
        k: r.number(v, f"groups.{k}") for k, v in r.mapping(doc["groups"], "key 'groups'").items()
    }
    types = {
        k: r.number(v, f"types.{k}") for k, v in r.mapping(doc["types"], "key 'types'").items()
    }
    found = {"olmocr_overall": r.number(doc["overall"], "key 'overall'")}
    found |= {f"olmocr_{t}": v for t, v in types.items()}
    errors = doc.get("errors", [])
    return Result(
        "document",
        name,
        {},
        found,
        r.path,
        options={"truth_format": "olmocr-bench"},
        dataset={
            "truth_format": "olmocr-bench",
            "groups": groups,
            "types": types,
            "tests": len(tests),
            "failed": bool(doc.get("failed")),
            "errors": [str(e) for e in errors] if isinstance(errors, list) else [],
        },
    )


def summarise(result: Result, out: Console) -> None:
    """The compat summary, then (profile ``parsescore``) the profile's own numbers."""
    from rich.markup import escape
    from rich.table import Table

    from parsescore.document.present import summarise as summarise_compat

    summarise_compat(result, out)
    if result.dataset.get("profile") != "parsescore":
        return
    table = Table(
        title=f"{escape(result.name)}: the parsescore profile's numbers "
        f"(normalisation {result.dataset.get('normalisation', '?')})",
        title_justify="left",
    )
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, label in _SHOWN:
        value = result.totals.get(key)
        table.add_row(label, "–" if value is None else f"{value:.4f}")
    out.print(table)
    missing = result.dataset.get("missing") or []
    if missing:
        out.print(
            f"{len(missing)} page(s) without an answer file scored as empty answers: "
            + ", ".join(missing[:5]) + (" …" if len(missing) > 5 else ""),
            highlight=False, markup=False,
        )  # fmt: skip


def schema_defs() -> dict[str, dict[str, Any]]:
    """The compat definitions, with the ``document`` definition widened to the ``parsescore``
    profile's document and the detail and dataset records to what this profile adds."""
    from parsescore.document.present import schema_defs as compat_defs

    defs = compat_defs()
    compat = defs["document"]
    side = {"type": "object", "properties": {"content": STRING}, "required": ["content"]}
    alignment = {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["kind", "status"],
            "properties": {
                "kind": {"enum": ["text", "formula", "table"]},
                "status": {"enum": ["matched", "missed", "invented", "absorbed", "optional"]},
                "truth": side,
                "answer": side,
                "edits": NUMBER,
                "truth_chars": NUMBER,
                "answer_chars": NUMBER,
                "teds": NUMBER,
                "teds_s": NUMBER,
                "grits_top": NUMBER,
                "grits_con": NUMBER,
                "unreadable": STRING,
            },
        },
    }
    parsescore = {
        "type": "object",
        "description": "parsescore document --profile parsescore --out: OmniDocBench's "
        "metric_result document (key omnidocbench) and the profile's own numbers per page.",
        "required": ["profile", "normalisation", "totals", "pages", "missing", "omnidocbench"],
        "properties": {
            "profile": {"const": "parsescore"},
            "normalisation": STRING,
            "totals": map_of(NUMBER),
            "pages": map_of({
                "type": "object",
                "required": ["metrics", "counts", "alignment"],
                "properties": {"metrics": map_of(NUMBER), "counts": map_of(NUMBER),
                               "alignment": alignment},
            }),
            "missing": {"type": "array", "items": STRING},
            "unreadable": map_of(STRING),
            "omnidocbench": ref("document_metric_result"),
        },
    }  # fmt: skip
    defs["document_metric_result"] = compat
    defs["document_parsescore"] = parsescore
    defs["document_olmocr_bench"] = {
        "type": "object",
        "description": "parsescore document --truth-format olmocr-bench --out: olmOCR-bench's "
        "scores as its harness computes them.",
        "required": ["tests", "groups", "overall", "types"],
        "properties": {
            "tests": map_of({
                "type": "object",
                "required": ["fraction", "passed"],
                "properties": {"fraction": NUMBER, "passed": {"type": "boolean"}},
            }),
            "groups": map_of(NUMBER),
            "overall": NUMBER,
            "types": map_of(NUMBER),
            "failed": {"type": "boolean"},
            "errors": {"type": "array", "items": STRING},
        },
    }  # fmt: skip
    defs["document"] = {
        "description": "OmniDocBench v1.5's <name>_metric_result.json document, the "
        "parsescore profile's document holding it, or olmOCR-bench's scores.",
        "anyOf": [
            ref("document_metric_result"),
            ref("document_parsescore"),
            ref("document_olmocr_bench"),
        ],
    }
    detail = dict(defs["document_detail"])
    detail["properties"] = {**detail.get("properties", {}), "alignment": alignment}
    detail["required"] = [k for k in detail.get("required", []) if k != "alignment"]
    defs["document_detail"] = detail
    dataset = dict(defs["document_dataset"])
    dataset["properties"] = {**dataset.get("properties", {}), "normalisation": STRING,
                             "missing": {"type": "array", "items": STRING}}  # fmt: skip
    defs["document_dataset"] = dataset
    return defs
