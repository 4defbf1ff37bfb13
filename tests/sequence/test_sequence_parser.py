"""Parser: the grammar forms of the spec, every real mwdi diagram, diagnostics, fuzzing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sequence_helpers import MWDI_FILES

from parsescore.sequence import compare_scripts, parse_plantuml
from parsescore.sequence.model import Arrow, NoMetric, Note, Participant


def only(text: str) -> Arrow | Note | Participant | object:
    """The single metric element of a one-statement script."""
    (element,) = parse_plantuml(text).metric_elements
    return element


# -- arrows ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "canonical", "shape"),
    [
        ("A -> B : hi", "A -> B : hi", "->"),
        ("A --> B", "A --> B", "-->"),
        ("A ->> B", "A ->> B", "->>"),
        ("A -\\ B", "A -\\ B", "-\\"),
        ("A -/ B", "A -/ B", "-/"),
        ("A <- B : back", "B -> A : back", "->"),
        ("A <-- B", "B --> A", "-->"),
        ("A <<- B", "B ->> A", "->>"),
        ("A <-> B", "A <-> B", "<->"),
        ("A ->x B", "A -x B", "-x"),
        ("A ->o B", "A ->o B", "->o"),
        ("A o-> B", "A o-> B", "o->"),
        ("A -[#red]> B : c", "A -[#red]> B : c", "-[#red]>"),
        ("A -[#red]-> B", "A -[#red]-> B", "-[#red]->"),
        ("A -[dotted]> B", "A --> B", "-->"),
        ("[-> A : in", "[-> A : in", "->"),
        ("A ->] : out", "A ->] : out", "->"),
        ("[<- A", "[<- A", "->"),
        ("A <-]", "A <-]", "->"),
        ("?-> A", "?-> A", "?->"),
        ("A ->?", "A ->?", "->?"),
        ("A -> B & C : all", "A -> B & C : all", "->"),
        ("A -> B ++ : go", "A -> B : go", "->"),
        ("A -> B -- : done", "A -> B : done", "->"),
        ("&A -> B : parallel", "A -> B : parallel", "->"),
        ('"Long A" -> B', '"Long A" -> B', "->"),
        ("A->B:no spaces", "A -> B : no spaces", "->"),
        ("A   ->   B  :  many   spaces ", "A -> B : many spaces", "->"),
    ],
)
def test_arrow_forms(line: str, canonical: str, shape: str) -> None:
    arrow = only(line)
    assert isinstance(arrow, Arrow)
    assert arrow.canonical == canonical
    assert arrow.shape == shape
    assert (arrow.line, arrow.end_line) == (1, 1)


def test_arrow_normalised_fields() -> None:
    arrow = only("Alice <-- Bob : reply")
    assert isinstance(arrow, Arrow)
    assert (arrow.source.name, arrow.target.name) == ("Bob", "Alice")
    assert (arrow.line_style, arrow.target_head, arrow.message) == ("dotted", "normal", "reply")
    exo = only("[-> Alice : start")
    assert isinstance(exo, Arrow)
    assert exo.exo and exo.source.kind == "boundary" and exo.nodes == ("Alice",)


def test_return_goes_back_to_the_caller() -> None:
    diagram = parse_plantuml("A -> B ++ : call\nreturn result\nA -> C : x\nactivate C\nreturn")
    returns = [a for a in diagram.arrows if a.is_return]
    assert [a.canonical for a in returns] == ["B --> A : result", "C --> A"]


def test_inline_alias_in_arrow() -> None:
    diagram = parse_plantuml('"Long Name" as L -> B : x\nL -> B : y\n"Long Name" -> B : z')
    assert [a.source.name for a in diagram.arrows] == ["L", "L", "L"]


def test_not_an_arrow_without_a_head() -> None:
    diagram = parse_plantuml("A - B")
    assert not diagram.arrows
    assert len(diagram.unknown) == 1


# -- participants, notes, groups, boxes ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "canonical", "code"),
    [
        ("participant Alice", "participant Alice", "Alice"),
        ('participant "Long Name" as L', 'participant "Long Name" as L', "L"),
        ('participant L as "Long Name"', 'participant "Long Name" as L', "L"),
        ('participant "Long  Name"', 'participant "Long Name"', "Long Name"),
        ("actor Bob #red", "actor Bob #red", "Bob"),
        ("database DB <<store>> order 10", "database DB <<store>>", "DB"),
        ("create control C", "control C", "C"),
        ("create C", "participant C", "C"),
        ("queue Q", "queue Q", "Q"),
        ("collections Items", "collections Items", "Items"),
        ("boundary Web", "boundary Web", "Web"),
        ("entity E", "entity E", "E"),
        ("PARTICIPANT X", "participant X", "X"),
    ],
)
def test_participant_forms(line: str, canonical: str, code: str) -> None:
    element = only(line)
    assert isinstance(element, Participant)
    assert element.canonical == canonical
    assert element.code == code


def test_multiline_participant() -> None:
    diagram = parse_plantuml("participant P [\n  =Title\n  ----\n  sub\n]\nP -> Q : x")
    (participant,) = diagram.participants
    assert (participant.line, participant.end_line, participant.display) == (
        1,
        5,
        "=Title\\n----\\nsub",
    )
    assert [a.canonical for a in diagram.arrows] == ["P -> Q : x"]


@pytest.mark.parametrize(
    ("text", "canonical", "lines"),
    [
        ("note over A : hello", "note over A : hello", (1, 1)),
        ("note left of A: hi", "note left A : hi", (1, 1)),
        ("note right A : hi", "note right A : hi", (1, 1)),
        ("note over A, B : both", "note over A, B : both", (1, 1)),
        ("hnote over A : h", "hnote over A : h", (1, 1)),
        ("rnote over A : r", "rnote over A : r", (1, 1)),
        ("note across : all", "note across : all", (1, 1)),
        ("note left : on arrow", "note left : on arrow", (1, 1)),
        (
            "note over A #LightCoral\n  one\n  two\nend note",
            "note over A #lightcoral : one\\ntwo",
            (1, 4),
        ),
        ("hnote over A\nx\nendhnote", "hnote over A : x", (1, 3)),
        ("note right\nx\nend note", "note right : x", (1, 3)),
    ],
)
def test_note_forms(text: str, canonical: str, lines: tuple[int, int]) -> None:
    note = only(text)
    assert isinstance(note, Note)
    assert note.canonical == canonical
    assert (note.line, note.end_line) == lines


def test_note_participants_resolve_through_aliases() -> None:
    diagram = parse_plantuml('participant "Long Name" as L\nnote over "Long Name" : n')
    assert diagram.notes[0].participants == ("L",)


def test_groups_else_and_box() -> None:
    diagram = parse_plantuml(
        'box "Back end" #LightBlue\nparticipant A\nend box\n'
        "alt #Gold success case\nA -> B : ok\nelse #Pink failure\nend\n"
        "group My own label [my secondary]\nend\nloop 1000 times\nend\n"
        "opt\nend\npar\nend\nbreak x\nend\ncritical y\nend"
    )
    assert [g.canonical for g in diagram.groups] == [
        "alt #gold success case",
        "else #pink failure",
        "group My own label [my secondary]",
        "loop 1000 times",
        "opt",
        "par",
        "break x",
        "critical y",
    ]
    assert [b.canonical for b in diagram.boxes] == ['box "Back end" #lightblue']
    assert [d.message for d in diagram.diagnostics] == [
        "no @startuml line: this may not be a PlantUML script"
    ]


def test_no_metric_lines_and_blocks() -> None:
    text = (
        "@startuml\ntitle One line\ntitle\nmulti\nend title\nskinparam a b\n"
        "skinparam sequence {\n  ArrowColor red\n}\nautonumber 10 10\nactivate A\n"
        "deactivate A\ndestroy A\n== divider ==\n...\n... 5 minutes ...\n|||\n||45||\n"
        "ref over A, B : init\nref over A\n  long ref\nend ref\nhide footbox\n"
        "legend right\n  x\nendlegend\nheader h\nfooter f\n!theme plain\n"
        "newpage\nautoactivate on\n' comment\n/' block\ncomment '/\n@enduml"
    )
    diagram = parse_plantuml(text)
    assert not diagram.metric_elements
    assert not diagram.diagnostics, [str(d) for d in diagram.diagnostics]


# -- diagnostics ---------------------------------------------------------------------------


def test_unknown_line_is_kept_and_reported() -> None:
    diagram = parse_plantuml("@startuml\nA -> B : x\nthis is not plantuml\n@enduml")
    (other,) = diagram.unknown
    assert other.line == 3
    (diagnostic,) = diagram.diagnostics
    assert diagnostic.line == 3 and "not a PlantUML" in diagnostic.message


def test_unterminated_note_is_reported_and_parsing_goes_on() -> None:
    diagram = parse_plantuml("@startuml\nnote over A\ntext\nA -> B : still counted\n@enduml")
    assert any(d.line == 2 and "never closed" in d.message for d in diagram.diagnostics)
    assert len(diagram.notes) == 1
    assert [a.canonical for a in diagram.arrows] == ["A -> B : still counted"]


def test_unterminated_group_and_box_are_reported() -> None:
    diagram = parse_plantuml("@startuml\nbox B\nalt x\nA -> B : y\n@enduml")
    messages = {(d.line, d.message) for d in diagram.diagnostics}
    assert (3, "group opened here is never closed by 'end'") in messages
    assert (2, "box opened here is never closed by 'end box'") in messages


def test_stray_end_and_else_are_reported() -> None:
    diagram = parse_plantuml("@startuml\nend\nelse x\nend box\nend note\n@enduml")
    assert [d.line for d in diagram.diagnostics] == [2, 3, 4, 5]


def test_not_plantuml_is_reported() -> None:
    diagram = parse_plantuml('{"nodes": [1, 2, 3]}\n')
    messages = [d.message for d in diagram.diagnostics]
    assert any("no @startuml" in m for m in messages)
    assert any("no PlantUML sequence-diagram statement" in m for m in messages)


def test_unterminated_block_comment() -> None:
    diagram = parse_plantuml("A -> B : x\n/' never closed\nB -> A : y")
    assert len(diagram.arrows) == 1
    assert any(d.line == 2 for d in diagram.diagnostics)


def test_line_endings() -> None:
    for newline in ("\n", "\r\n", "\r"):
        diagram = parse_plantuml(newline.join(["@startuml", "A -> B : x", "B -> A", "@enduml"]))
        assert [a.line for a in diagram.arrows] == [2, 3]
        assert diagram.line_count == 4


# -- the real diagrams -------------------------------------------------------------------


def test_all_thirty_real_diagrams_are_there() -> None:
    assert len(MWDI_FILES) == 30


@pytest.mark.parametrize("path", MWDI_FILES, ids=lambda p: p.name)
def test_real_diagram_parses_completely(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    diagram = parse_plantuml(text)
    assert not diagram.unknown
    assert not diagram.diagnostics, [str(d) for d in diagram.diagnostics]
    raw_lines = text.splitlines()
    assert diagram.line_count == len(raw_lines)
    # Independent counts from plain line patterns (these files put one statement per line).
    assert len(diagram.participants) == sum(
        bool(re.match(r"\s*participant\s", line)) for line in raw_lines
    )
    assert len(diagram.notes) == sum(bool(re.match(r"\s*note\s", line)) for line in raw_lines)
    assert len(diagram.groups) == sum(bool(re.match(r"\s*group\s", line)) for line in raw_lines)
    arrow_re = r"\s*[\w.@]+\s*(->|-->|<--|<-)\s*[\w.@]+\s*(:|$)"
    assert len(diagram.arrows) == sum(bool(re.match(arrow_re, line)) for line in raw_lines)
    # Every element's line numbers point at its text.
    for element in diagram.elements:
        assert raw_lines[element.line - 1] == element.raw.splitlines()[0]
    # The canonical forms parse back to themselves.
    reparsed = parse_plantuml("\n".join(diagram.canonical_lines))
    assert reparsed.canonical_lines == diagram.canonical_lines
    # A script scores all zeros against itself.
    assert all(c.errors == 0 for c in compare_scripts(text, text).counts.values())


def test_hand_counted_real_diagram() -> None:
    path = next(p for p in MWDI_FILES if p.name.startswith("spec_00x"))
    diagram = parse_plantuml(path.read_text(encoding="utf-8"))
    # Counted by reading the file: 7 participants, 13 arrows (4 without text), 8 notes.
    assert len(diagram.participants) == 7
    assert len(diagram.arrows) == 13
    assert sum(a.has_message for a in diagram.arrows) == 9
    assert len(diagram.notes) == 8
    assert diagram.participants[2].code == "odlConnectionStatus"
    assert diagram.arrows[0].canonical == "ro -> mwdi"
    assert diagram.arrows[2].canonical == (
        "odlConnectionStatus --> mwdi : "
        "{list of-(mount-name, connection-status, schema-cache-directory)}"
    )
    assert (diagram.notes[0].line, diagram.notes[0].end_line) == (25, 29)


# -- fuzzing -------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "A",
        "B",
        '"X y"',
        "->",
        "-->",
        "<-",
        "<->",
        "->>",
        "-x",
        "[",
        "]",
        "?",
        ":",
        "msg",
        "note",
        "over",
        "left",
        "of",
        "end",
        "note",
        "group",
        "alt",
        "else",
        "box",
        "end box",
        "participant",
        "as",
        "actor",
        "#red",
        "'",
        "/'",
        "'/",
        "++",
        "--",
        "&",
        ",",
        "return",
        "@startuml",
        "@enduml",
        "title",
        "end title",
        "{",
        "}",
        "skinparam",
        "\\",
        "/",
        "o",
        "create",
        "ref",
        "==",
        "...",
        "|||",
        "\t",
        "  ",
        "\u201c",
        "é",
        "<<s>>",
    ]
)
_LINES = st.lists(st.lists(_PIECES, max_size=6).map(" ".join), max_size=14).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(_LINES)
def test_parser_never_raises_on_plantuml_like_noise(text: str) -> None:
    diagram = parse_plantuml(text)
    for element in diagram.elements:
        assert 1 <= element.line <= element.end_line <= max(diagram.line_count, 1)
    compare_scripts(text, "A -> B : x")


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_parser_never_raises_on_any_text(text: str) -> None:
    diagram = parse_plantuml(text)
    assert diagram.line_count >= 0


def test_participants_named_like_keywords_are_arrow_ends() -> None:
    diagram = parse_plantuml("title -> show : x\nshow -> page\nactor -> B : hi")
    assert [a.canonical for a in diagram.arrows] == [
        "title -> show : x",
        "show -> page",
        "actor -> B : hi",
    ]


def test_long_dash_runs_do_not_backtrack() -> None:
    # Possessive runs in the grammar: a long body without a head fails fast (no hang).
    diagram = parse_plantuml("A " + "-" * 20000 + "\nA " + "-" * 20000 + "> B : ok")
    assert [a.line for a in diagram.arrows] == [2]
    assert [o.line for o in diagram.unknown] == [1]


def test_autoactivate_and_par2_also() -> None:
    diagram = parse_plantuml(
        "autoactivate on\nA -> B : call\nreturn done\npar2\nA -> B : x\nalso\nB -> A : y\nend"
    )
    assert [a.canonical for a in diagram.arrows] == [
        "A -> B : call",
        "B --> A : done",
        "A -> B : x",
        "B -> A : y",
    ]
    # par2 / also keep the nesting (the final ``end`` closes par2: no warning) but are not
    # among the spec's group keywords, so they are no group elements.
    assert diagram.groups == ()
    assert [e.keyword for e in diagram.elements if e.kind == "no_metric"][-2:] == ["par2", "also"]
    assert [d.message for d in diagram.diagnostics] == [
        "no @startuml line: this may not be a PlantUML script"
    ]


def test_hidden_arrows_are_no_elements() -> None:
    """PlantUML neither draws nor numbers a ``[hidden]`` arrow (checked with autonumber on
    Debian's PlantUML): it is a layout spacer, so it carries no metric."""
    for line in ("A -[hidden]> B", "A -[hidden]-> B : x", "[-[hidden]> A"):
        diagram = parse_plantuml(line)
        assert diagram.arrows == ()
        assert [e.keyword for e in diagram.elements if isinstance(e, NoMetric)] == ["hidden arrow"]


@pytest.mark.parametrize("path", MWDI_FILES[:10], ids=lambda p: p.name)
def test_lines_after_enduml_are_not_part_of_the_diagram(path: Path) -> None:
    """A real diagram followed by prose and a second diagram (as a chat answer, or a file
    holding two diagrams) is read as the first diagram alone, as PlantUML draws it: on either
    side of a comparison."""
    text = path.read_text(encoding="utf-8")
    second = MWDI_FILES[-1].read_text(encoding="utf-8")
    longer = f"{text.rstrip()}\n\nThis diagram shows the sync. A second one:\n\n{second}"
    diagram, alone = parse_plantuml(longer), parse_plantuml(text)
    assert diagram.canonical_lines == alone.canonical_lines
    end = text.rstrip().count("\n") + 1
    assert [str(d) for d in diagram.diagnostics] == [
        f"warning: line {end + 2}: lines after @enduml (line {end}) are not part of the "
        "diagram: ignored"
    ]
    for truth, pred in ((longer, text), (text, longer)):
        assert all(c.errors == 0 for c in compare_scripts(truth, pred).counts.values())
    assert diagram.line_count == len(longer.splitlines())  # gt_lines: the file's lines


def test_an_included_files_enduml_does_not_end_the_diagram() -> None:
    part = "@startuml\nB -> C : inner\n@enduml\n"
    text = "@startuml\n!include part.iuml\nA -> B : outer\n@enduml\nC -> D\n"
    diagram = parse_plantuml(text, path="main.puml", includes={"part.iuml": part})
    assert [a.canonical for a in diagram.arrows] == ["B -> C : inner", "A -> B : outer"]
