"""Edge labels in the envelope's per-diagram details (issue #28 item 4): every labelled edge in
ground-truth numbering with both labels and, on a matched edge, the cost ``edge_label_cost``
sums; the native ``--out`` document (Flowde's format) does not have them; the report draws
them, an edited one marked as edited node texts are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema

from parsescore import evaluate, load_result
from parsescore.core.schema import schema
from parsescore.flowchart.report_html import drawings

TRUTH = {
    "d": "flowchart TD\n  A[Screened] -->|eligible| B{Consented?}\n  B -- yes --> C[Randomised]\n"
    "  B -- no --> D[Excluded]\n  C --> E[Analysed]\n"
}
ANSWER = {
    "d": "```mermaid\nflowchart TD\n  A[Screened] -->|eligible| B{Consented?}\n"
    "  B -- Yes! --> C[Randomised]\n  B --> D[Excluded]\n  A -- skip --> E[Analysed]\n"
    "  B -- maybe --> F[Waitlist]\n```"
}


def test_details_hold_every_labelled_edge_and_the_native_document_does_not(
    tmp_path: Path,
) -> None:
    result = evaluate("flowchart", TRUTH, ANSWER, quiet=True)
    records = result.details["d"]["edge_labels"]
    assert records == [
        {"edge": [1, 2], "true_label": "eligible", "pred_label": "eligible", "cost": 0},
        {"edge": [2, 3], "true_label": "yes", "pred_label": "Yes!", "cost": 2},
        {"edge": [2, 4], "true_label": "no", "pred_label": None, "cost": 2},
        {"edge": [1, 5], "true_label": None, "pred_label": "skip"},  # extra edge
        {"edge": [2, 10000], "true_label": None, "pred_label": "maybe"},  # unmatched endpoint
    ]
    flow = result.details["d"]["flow"]
    assert [1, 5] in flow["extra_edges"] and [2, 10000] in flow["extra_edges"]
    assert sum(r.get("cost", 0) for r in records) == result.items["d"]["edge_label_cost"]
    assert result.native is not None and "edge_labels" not in json.dumps(result.native)
    envelope = tmp_path / "result.json"
    result.write(envelope)
    written = json.loads(envelope.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema("result")).validate(written)
    assert load_result(envelope).details["d"]["edge_labels"] == records


def test_json_formats_record_no_edge_labels() -> None:
    truth = {"d": TRUTH["d"]}
    answer = {"d": json.dumps({"nodes": [{"node_number": 1, "text": "Screened"}]})}
    found = evaluate("flowchart", truth, answer, quiet=True).details["d"]["edge_labels"]
    assert found == [  # truth labels only, no cost: the JSON answer carries no labels
        {"edge": [1, 2], "true_label": "eligible", "pred_label": None},
        {"edge": [2, 3], "true_label": "yes", "pred_label": None},
        {"edge": [2, 4], "true_label": "no", "pred_label": None},
    ]


def test_drawings_carry_labels_and_mark_edited_ones() -> None:
    page = drawings(evaluate("flowchart", TRUTH, ANSWER, quiet=True).details["d"])
    truth_svg, pred_svg = re.findall(r"<svg.*?</svg>", page, re.S)

    def labels(svg: str) -> list[tuple[bool, str]]:
        return [
            (bool(edited), text)
            for edited, text in re.findall(r'class="edge-label( edited)?"[^>]*>([^<]*)<', svg)
        ]

    assert sorted(labels(truth_svg)) == sorted(
        [(False, "eligible"), (True, "yes ✎"), (True, "no ✎"), (False, "missing")]
    )
    assert sorted(labels(pred_svg)) == sorted(
        [
            (False, "eligible"),
            (True, "Yes! ✎"),
            (True, "✎"),
            (False, "extra: skip"),
            (False, "extra: maybe"),
        ]
    )
    assert "edge label edited: truth “yes”, prediction “Yes!”" in pred_svg
