"""The Mermaid reader against Mermaid's own parser (npm ``mermaid``, pinned, run by node with
jsdom through ``tests/mermaid_ref.py``), on real diagrams and on one case per mapping row.

Compared: declared participants (id, description, type) and the actors every message and note
creates, every message (from, to, text, arrow kind), notes (placement, participants, text),
groups and their branches in order, boxes (title, colour, members). One node process parses
everything.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mermaid_compare import from_mermaid, from_ours

from mermaid_ref import mermaid_parse
from parsescore.sequence import compare_scripts
from parsescore.sequence.mermaid import parse_mermaid

CORPUS = Path(__file__).parent / "data" / "mermaid_corpus"
FILES = sorted(CORPUS.glob("*.mmd"))

#: One Mermaid case per row of the mapping (docs/sequence.md), with the canonical forms it must
#: give: the PlantUML elements, written as PlantUML's canonical lines.
MAPPING: dict[str, tuple[str, list[str]]] = {
    "participant as": (
        "participant A as Alice\nactor B as Bob\nparticipant C\nA->>B: hi",
        ['participant "Alice" as A', 'actor "Bob" as B', "participant C", "A -> B : hi"],
    ),
    "participant type": (
        'participant D@{ "type": "database" }\nD->>D: q',
        ["database D", "D -> D : q"],
    ),
    "create": (
        "A->>B: hi\ncreate participant C\nB->>C: new\ndestroy C",
        ["A -> B : hi", "participant C", "B -> C : new"],
    ),
    "arrows": (
        "A->>B: a\nA-->>B: b\nA-)B: c\nA--)B: d\nA-xB: e\nA--xB: f\nA->B: g\nA-->B: h\n"
        "A<<->>B: i\nA<<-->>B: j",
        [
            "A -> B : a",
            "A --> B : b",
            "A ->> B : c",
            "A -->> B : d",
            "A -x B : e",
            "A --x B : f",
            "A - B : g",
            "A -- B : h",
            "A <-> B : i",
            "A <--> B : j",
        ],
    ),
    "activation": ("A->>+B: go\nB-->>-A: done", ["A -> B : go", "B --> A : done"]),
    "notes": (
        "A->>B: x</br>y\nNote left of A: l\nnote right of B: r<br/>2</BR>3\nNote over A,B: both",
        [
            "A -> B : x\\ny",
            "note left A : l",
            "note right B : r\\n2\\n3",
            "note over A, B : both",
        ],
    ),
    "groups": (
        "loop every minute\nA->>B: x\nend\nalt ok\nA->>B: y\nelse ko\nA->>B: z\nend\n"
        "opt maybe\nA->>B: w\nend\npar one\nA->>B: p\nand two\nA->>B: q\nend\n"
        "critical c\nA->>B: r\noption o\nA->>B: s\nend\nbreak stop\nA->>B: t\nend\n"
        "rect rgb(0, 0, 255)\nA->>B: u\nend",
        [
            "loop every minute",
            "A -> B : x",
            "alt ok",
            "A -> B : y",
            "else ko",
            "A -> B : z",
            "opt maybe",
            "A -> B : w",
            "par one",
            "A -> B : p",
            "else two",
            "A -> B : q",
            "critical c",
            "A -> B : r",
            "else o",
            "A -> B : s",
            "break stop",
            "A -> B : t",
            "A -> B : u",
        ],
    ),
    "box": (
        "box aqua Backend\nparticipant A\nparticipant B\nend\nbox Front end\nparticipant C\nend\n"
        "A->>C: x",
        [
            'box "Backend" #aqua',
            "participant A",
            "participant B",
            'box "Front end"',
            "participant C",
            "A -> C : x",
        ],
    ),
    "no metric": (
        "%% a comment\nautonumber\ntitle T\nactivate A\nA->>B: x\ndeactivate A\n"
        'links A: {"x": "https://example.org"}\nlink A: y @ https://example.org',
        ["A -> B : x"],
    ),
    "entities and semicolons": (
        "A->>B: say #quot;hi#quot;; B->>A: #9829;",
        ['A -> B : say "hi"', "B -> A : \u2665"],
    ),
}


def _diagram(body: str) -> str:
    return "sequenceDiagram\n" + "\n".join(f"    {line}" for line in body.splitlines()) + "\n"


@pytest.fixture(scope="module")
def reference() -> dict[str, dict[str, Any]]:
    """Mermaid's parse of every corpus file and mapping case (one node process)."""
    texts = {p.name: p.read_text(encoding="utf-8") for p in FILES}
    texts |= {f"mapping:{name}": _diagram(body) for name, (body, _) in MAPPING.items()}
    parsed = mermaid_parse(list(texts.values()))
    return dict(zip(texts, parsed, strict=True))


def _browser_box_colours(theirs: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """jsdom has no ``CSS.supports``, so Mermaid under jsdom takes a box's first word as its
    colour only when it is written in lower case (``box Purple X`` keeps ``Purple X`` as the
    title); a browser takes any case. We read boxes as browsers draw them: this applies the
    browser's rule to the reference's boxes."""
    from parsescore.sequence.mermaid import _CSS_COLOURS

    boxes = []
    for title, colour, members in theirs["boxes"]:
        first, _, rest = title.partition(" ")
        if not colour and first.lower() in _CSS_COLOURS and first != first.lower():
            title, colour = rest.strip(), first.lower()
        boxes.append((title, colour, members))
    return theirs | {"boxes": boxes}


def test_corpus_is_real_and_recorded() -> None:
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    assert len(FILES) >= 60
    assert {re.split(r"__", p.name)[0] for p in FILES} >= {"ory", "kubernetes", "mermaid-js"}
    for path in FILES:
        assert f"| {path.name} |" in sources


@pytest.mark.parametrize("path", FILES, ids=[p.stem[-45:] for p in FILES])
def test_reader_equals_mermaid_on_real_diagrams(
    path: Path, reference: dict[str, dict[str, Any]]
) -> None:
    theirs = reference[path.name]
    ours = parse_mermaid(path.read_text(encoding="utf-8"), path=path.name)
    if "error" in theirs:
        # Mermaid rejects the file: we read what we can, and say where it goes wrong.
        assert ours.diagnostics, theirs["error"]
        return
    assert theirs["type"] == "sequence"
    assert from_ours(ours) == _browser_box_colours(from_mermaid(theirs["db"]))


@pytest.mark.parametrize("name", list(MAPPING))
def test_mapping_rows(name: str, reference: dict[str, dict[str, Any]]) -> None:
    body, canonical = MAPPING[name]
    theirs = reference[f"mapping:{name}"]
    assert "error" not in theirs, theirs.get("error")
    ours = parse_mermaid(_diagram(body))
    assert ours.diagnostics == ()
    assert from_ours(ours) == _browser_box_colours(from_mermaid(theirs["db"]))
    assert list(ours.canonical_lines) == canonical


def test_a_faithful_mermaid_rendering_scores_zero_against_plantuml() -> None:
    """Cross-dialect: the same diagram in both dialects has no error either way round."""
    plantuml = """@startuml
participant "Mobility Management Entity" as MME
participant SGW
database PGW
box "Core" #LightBlue
participant HSS
end box
MME -> SGW : 1. Create Session Request
SGW ->> PGW : 2. Create Session Request
PGW --> SGW : 3. Create Session Response
SGW -->> MME : 4. ack
MME -x HSS : lost
alt success
  note over SGW, PGW : bearer established
else failure
  note left of MME : retry
end
loop every 10 s
  MME <-> HSS : keep-alive
end
@enduml
"""
    mermaid = """sequenceDiagram
    participant MME as Mobility Management Entity
    participant SGW
    participant PGW@{ "type": "database" }
    box lightblue Core
        participant HSS
    end
    MME->>SGW: 1. Create Session Request
    SGW-)PGW: 2. Create Session Request
    PGW-->>SGW: 3. Create Session Response
    SGW--)MME: 4. ack
    MME-xHSS: lost
    alt success
        Note over SGW,PGW: bearer established
    else failure
        Note left of MME: retry
    end
    loop every 10 s
        MME<<->>HSS: keep-alive
    end
"""
    for truth, pred in ((plantuml, mermaid), (mermaid, plantuml)):
        score = compare_scripts(truth, pred)
        assert score.errors == 0, score.differences
        assert (
            score.elements == 40
        )  # 6 arrows (12 nodes, 6 x3), 4 participants, 3 groups, 2 notes, 1 box


def test_line_breaks_are_mermaids_own() -> None:
    """``<br>``, ``<br/>`` and ``</br>`` are line breaks because Mermaid's ``lineBreakRegex``
    (which draws message and note text) says so: ours is that regex, read from the pinned
    package."""
    from mermaid_ref import install_dir
    from parsescore.sequence.mermaid import _BR

    chunks = install_dir() / "node_modules" / "mermaid" / "dist" / "chunks" / "mermaid.esm"
    found = {
        match[1]
        for path in chunks.glob("*.mjs")
        for match in re.finditer(r"lineBreakRegex = /(.+?)/gi;", path.read_text("utf-8"))
    }
    assert found == {r"<\/?br\s*\/?>"}
    assert _BR.pattern == r"</?br\s*/?>" and _BR.flags & re.IGNORECASE
    pred = "sequenceDiagram\n    A->>B: first</br>second\n    Note over A: a</BR >b"
    truth = "@startuml\nA -> B : first\\nsecond\nnote over A : a\\nb\n@enduml"
    assert compare_scripts(truth, pred).errors == 0
