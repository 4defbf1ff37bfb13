"""The Mermaid oracle itself works: Mermaid parses a flowchart and a sequence diagram, refuses a
broken one, and names another diagram type (the readers' tests rely on all three)."""

from __future__ import annotations

from mermaid_ref import mermaid_parse


def test_mermaid_reference_parses_both_kinds_and_reports_errors() -> None:
    flow, seq, broken, other = mermaid_parse(
        [
            "flowchart TD\n  A[Start] --> B{Is it?}\n  B -->|Yes| C[OK]\n"
            "  subgraph s [Phase 1]\n  C\n  end\n",
            "sequenceDiagram\n  participant A as Alice\n  A->>B: hi\n"
            "  loop every day\n  B-->>A: yo\n  end\n",
            "flowchart TD\n  A -->\n",
            "classDiagram\n  A <|-- B\n",
        ]
    )
    assert [v["id"] for v in flow["db"]["vertices"]] == ["A", "B", "C"]
    assert [(e["start"], e["end"], e["text"]) for e in flow["db"]["edges"]] == [
        ("A", "B", ""),
        ("B", "C", "Yes"),
    ]
    assert flow["db"]["subgraphs"] == [{"id": "s", "title": "Phase 1", "nodes": ["C"]}]
    actors = [(a["name"], a["description"]) for a in seq["db"]["actors"]]
    assert actors == [("A", "Alice"), ("B", "B")]
    kinds = seq["db"]["lineType"]
    assert [m["type"] for m in seq["db"]["messages"]] == [
        kinds["SOLID"],
        kinds["LOOP_START"],
        kinds["DOTTED"],
        kinds["LOOP_END"],
    ]
    assert "Parse error" in broken["error"]
    assert other["type"] == "classDiagram"
