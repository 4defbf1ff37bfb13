"""Reading sequence diagrams as real repositories and models write them: the PlantUML
preprocessor subset, line continuation, either-case heads, no-metric blocks, Mermaid, format
choice, and bad input (one line with file and line, bounded)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sequence_helpers import counts

from parsescore.core.errors import InputError
from parsescore.sequence import compare_scripts, parse_plantuml
from parsescore.sequence.mermaid import parse_mermaid
from parsescore.sequence.preprocess import (
    MAX_INCLUDE_DEPTH,
    collect_includes,
    include_target,
    preprocess,
)
from parsescore.sequence.read import detect_format, read_diagram


def lines(text: str, **kwargs: object) -> list[str]:
    return [line.text for line in preprocess(text, **kwargs).lines]  # type: ignore[arg-type]


# -- PlantUML preprocessor ---------------------------------------------------------------------


def test_if_else_with_variables_keeps_one_branch_and_line_numbers() -> None:
    text = "!$simple = 1\n!if ($simple == 1)\nA -> B : short\n!else\nA -> B : long\n!endif\n"
    result = preprocess(text)
    assert [(line.number, line.text) for line in result.lines] == [(3, "A -> B : short")]
    assert result.diagnostics == []


@pytest.mark.parametrize(
    ("condition", "kept"),
    [
        ('$s == "abc"', True),
        ('$s != "abc"', False),
        ("$n > 3 && $n < 9", True),
        ("$n >= 6 and $n <= 5", False),
        ("$n == 1 || $n == 5", True),
        ("0 or 1", True),
        ("not ($n == 5)", False),
        ("!($n == 4)", True),
        ('$n == "5"', True),  # PlantUML compares 5 and "5" equal
        ("0", False),
        ('"0"', True),  # a non-empty string is true
        ('""', False),
        ("%true()", True),
        ("%false()", False),
        # PlantUML (Debian's 1.2020.2, checked with -preproc): a bare word is its undefined
        # value, true and equal to every other bare word: false == true holds.
        ("$f == true", True),
        ("$f != true", False),
        ("$f", True),
        ("true == false", True),
        ('$f == "false"', False),
    ],
)
def test_conditions(condition: str, kept: bool) -> None:
    text = f'!$s = "abc"\n!$n = 5\n!$f = false\n!if ({condition})\nkept\n!endif\n'
    assert lines(text) == (["kept"] if kept else [])


def test_elseif_nesting_and_ifdef() -> None:
    text = (
        "!define DETAIL\n!$level = 2\n"
        "!if ($level == 1)\none\n!elseif ($level == 2)\ntwo\n"
        "!if ($level > 5)\ninner-no\n!else\ninner-yes\n!endif\n"
        "!elseif ($level == 2)\nnot-twice\n!else\nelse\n!endif\n"
        "!ifdef DETAIL\ndefined\n!endif\n!ifndef DETAIL\nundefined\n!endif\n"
    )
    assert lines(text) == ["two", "inner-yes", "defined"]


def test_substitution_of_variables_and_defines() -> None:
    text = (
        '!$name = "Alice"\n!$who = $name\n!define SRV Server\n'
        "$who -> SRV : hi $name, $nameless SRV_1 (SRV)\n!$f = false\nvalue [$f]\n"
    )
    assert lines(text) == [
        "Alice -> Server : hi Alice, $nameless SRV_1 (Server)",
        "value [undefined]",  # as PlantUML prints a bare word's value
    ]


def test_backslash_continues_a_line() -> None:
    text = (
        "@startuml\nca -[#blue]> a1: signature to remove agent 2 \\\n  from all policies\n@enduml"
    )
    diagram = parse_plantuml(text)
    assert [a.message for a in diagram.arrows] == ["signature to remove agent 2 from all policies"]
    assert diagram.diagnostics == ()
    assert diagram.arrows[0].line == 2
    assert diagram.line_count == 4


def test_unsupported_directives_warn_once_by_name_and_are_dropped() -> None:
    text = (
        "!pragma teoz true\n!theme plain\n!procedure $p()\nA -> B\n!endprocedure\n"
        "!log hello\n!log again\n!assert 1\nA -> C\n"
    )
    result = preprocess(text)
    assert [line.text for line in result.lines] == ["A -> C"]
    assert [str(d) for d in result.diagnostics] == [
        "warning: line 3: preprocessor directive !procedure is not supported: ignored",
        "warning: line 6: preprocessor directive !log is not supported: ignored",
        "warning: line 8: preprocessor directive !assert is not supported: ignored",
    ]


def test_unclosed_if_and_bad_condition_are_warned_with_their_line() -> None:
    result = preprocess("A -> B\n!if ($x == 1)\nC -> D\n")
    assert [str(d) for d in result.diagnostics] == [
        "warning: line 2: !if condition not understood ($x is not defined): taken as false",
        "warning: line 2: !if opened here is never closed by !endif",
    ]


# -- !include ---------------------------------------------------------------------------------


def test_include_of_a_local_file_relative_to_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "parts.iuml").write_text(
        "participant Alice\n!include more.iuml\n", encoding="utf-8"
    )
    (tmp_path / "common" / "more.iuml").write_text("participant Bob\n", encoding="utf-8")
    main = "@startuml\n!include common/parts.iuml\nAlice -> Bob : hi\n@enduml\n"
    (tmp_path / "flows").mkdir()

    def read(relative: str) -> str:
        return (tmp_path / relative).read_text(encoding="utf-8")

    includes = collect_includes("flows/main.puml", main.replace("common/", "../common/"), read)
    assert sorted(includes) == ["common/more.iuml", "common/parts.iuml"]
    diagram = parse_plantuml(
        main.replace("common/", "../common/"), path="flows/main.puml", includes=includes
    )
    assert [p.code for p in diagram.participants] == ["Alice", "Bob"]
    assert {p.line for p in diagram.participants} == {2}  # the !include line
    assert diagram.diagnostics == ()


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("https://example.org/x.puml", "of a URL (https://example.org/x.puml) is never fetched"),
        ("<C4/C4_Sequence>", "of PlantUML's standard library <C4/C4_Sequence> is not read"),
        ("/etc/passwd", "of an absolute path (/etc/passwd) is not read"),
        ("../../secret.puml", "of ../../secret.puml leaves the dataset's root: not read"),
    ],
)
def test_include_outside_the_root_or_of_a_url_is_refused(target: str, why: str) -> None:
    assert include_target("a/main.puml", target) == (None, why)
    diagram = parse_plantuml(f"@startuml\n!include {target}\nA -> B\n@enduml", path="a/main.puml")
    assert [str(d) for d in diagram.diagnostics] == [f"warning: line 2: !include {why}"]
    assert len(diagram.arrows) == 1


def test_include_loops_are_reported_and_bounded() -> None:
    includes = {"a.iuml": "A -> B\n!include b.iuml\n", "b.iuml": "!include a.iuml\nB -> C\n"}
    diagram = parse_plantuml(
        "!include main.puml\n!include a.iuml\n", path="main.puml", includes=includes
    )
    assert [a.canonical for a in diagram.arrows] == ["A -> B", "B -> C"]
    assert [str(d) for d in diagram.diagnostics] == [
        "warning: line 1: !include main.puml includes itself (an include loop): skipped",
        "warning: line 1: b.iuml: !include a.iuml includes itself (an include loop): skipped",
        "warning: no @startuml line: this may not be a PlantUML script",
    ]
    deep = {f"{i}.iuml": f"!include {i + 1}.iuml\n" for i in range(50)}
    result = preprocess("!include 0.iuml\n", path="main.puml", includes=deep)
    assert any(f"nested more than {MAX_INCLUDE_DEPTH} deep" in str(d) for d in result.diagnostics)


def test_missing_include_is_warned() -> None:
    diagram = parse_plantuml("@startuml\n!include parts.iuml\n@enduml", path="x.puml")
    assert [str(d) for d in diagram.diagnostics] == [
        "warning: line 2: !include parts.iuml: no such file in the dataset"
    ]


def test_dataset_includes_are_read_inside_the_root_only(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    for folder in (truth, pred):
        folder.mkdir()
        (folder / "people.iuml").write_text("participant Alice\nparticipant Bob\n", "utf-8")
    (tmp_path / "outside.iuml").write_text("participant Mallory\n", "utf-8")
    body = "@startuml\n!include people.iuml\n!include ../outside.iuml\nAlice -> Bob : hi\n@enduml\n"
    (truth / "a.puml").write_text(body, "utf-8")
    (pred / "a.puml").write_text(body.replace("people.iuml", "none.iuml"), "utf-8")
    run = cli(
        "sequence", "--truth", str(truth), "--pred", str(pred), "--out", str(tmp_path / "o.json")
    )
    assert run.code == 0, run.err
    err = " ".join(run.err.split())
    assert (
        "a.puml: truth warning: line 3: !include of ../outside.iuml leaves the dataset's root: "
        "not read" in err
    )
    assert (
        "a.puml: prediction warning: line 2: !include none.iuml: no such file in the dataset" in err
    )
    import json

    totals = json.loads((tmp_path / "o.json").read_text())["totals"]
    assert totals["participant"]["gt_count"] == 2  # Mallory never read
    assert totals["participant"]["deletion"] == 2  # the prediction's include is missing


# -- PlantUML as repositories write it -------------------------------------------------------------


@pytest.mark.parametrize(
    ("upper", "lower"),
    [
        ("PayeeSDK-->X PayeeDFSP: return rejected", "PayeeSDK -->x PayeeDFSP : return rejected"),
        ("A ->O B : x", "A ->o B : x"),
        ("A X<- B : x", "A x<- B : x"),
        ("A -X B", "A -x B"),
        ("[-->X A : x", "[-->x A : x"),
    ],
)
def test_arrow_heads_in_either_case(upper: str, lower: str) -> None:
    ours = parse_plantuml(f"@startuml\n{upper}\n@enduml")
    theirs = parse_plantuml(f"@startuml\n{lower}\n@enduml")
    assert ours.diagnostics == () and len(ours.arrows) == 1
    assert ours.canonical_lines == theirs.canonical_lines


def test_sprite_and_skinparam_blocks_are_skipped_without_warnings() -> None:
    text = (
        "@startuml\nsprite $bProcess [16x16/16] {\nFFFFFFFFFFFFFFFF\nFFFFFFFFFFFFFFFF\n}\n"
        "skinparam sequence {\n  ArrowColor red\n  LifeLineBorderColor {\n  }\n}\n"
        "A -> B : x\n@enduml\n"
    )
    diagram = parse_plantuml(text)
    assert diagram.diagnostics == ()
    assert [e.canonical for e in diagram.metric_elements] == ["A -> B : x"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "@startuml\nnote over A\ntext\n@enduml\n",
            "line 2: note opened here is never closed by 'end note'",
        ),
        (
            "@startuml\nalt x\nA -> B\n@enduml\n",
            "line 2: group opened here is never closed by 'end'",
        ),
        (
            "@startuml\nbox B\nparticipant A\n",
            "line 2: box opened here is never closed by 'end box'",
        ),
    ],
)
def test_unterminated_blocks_are_warned_with_their_line(text: str, message: str) -> None:
    assert f"warning: {message}" in [str(d) for d in parse_plantuml(text).diagnostics]


def test_an_unterminated_note_does_not_swallow_the_next_diagram() -> None:
    text = "@startuml\nnote over A\nA -> B\n@enduml\n@startuml\nnote over B\nx\nend note\n@enduml\n"
    diagram = parse_plantuml(text)
    assert "warning: line 2: note opened here is never closed by 'end note'" in [
        str(d) for d in diagram.diagnostics
    ]
    # the note ends at @enduml; the second diagram (after it) is not part of this one
    assert [n.line for n in diagram.notes] == [2]
    assert "warning: line 5: lines after @enduml (line 4) are not part of the diagram: ignored" in [
        str(d) for d in diagram.diagnostics
    ]


# -- formats --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "path", "expected"),
    [
        ("sequenceDiagram\n A->>B: x", "", "mermaid"),
        ("---\ntitle: t\n---\n%% c\nsequenceDiagram\n A->>B: x", "a.txt", "mermaid"),
        ("flowchart TD\n A-->B", "", "mermaid"),
        ("@startuml\nA -> B\n@enduml", "a.mmd", "plantuml"),
        ("A -> B", "a.mermaid", "mermaid"),
        ("A -> B", "a.puml", "plantuml"),
        ("A -> B", "", "plantuml"),
    ],
)
def test_detect_format(text: str, path: str, expected: str) -> None:
    assert detect_format(text, path) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "flowchart TD\n  A --> B",
            "x.mmd (line 1): a Mermaid 'flowchart' diagram, not a sequenceDiagram",
        ),
        (
            "classDiagram\n  A <|-- B",
            "x.mmd (line 1): a Mermaid 'classDiagram' diagram, not a sequenceDiagram",
        ),
        ("%% only a comment\n", "x.mmd: empty Mermaid file: expected a 'sequenceDiagram'"),
        (
            "\n\nhello world\n",
            "x.mmd (line 3): expected 'sequenceDiagram' first, found 'hello world'",
        ),
    ],
)
def test_a_mermaid_file_that_is_not_a_sequence_diagram_is_one_line(text: str, message: str) -> None:
    with pytest.raises(InputError) as error:
        read_diagram(text, format="mermaid", path="x.mmd")
    assert str(error.value) == message
    assert "\n" not in str(error.value)


def test_mermaid_blocks_never_ended_and_bad_statements_are_warned() -> None:
    diagram = parse_mermaid(
        "sequenceDiagram\n  loop forever\n  A->>B: x\n  A=>B what\n  end\n  end\n  alt x\n"
    )
    assert [str(d) for d in diagram.diagnostics] == [
        "warning: line 4: column 5: not a Mermaid sequenceDiagram statement, ignored: 'A=>B what'",
        "warning: line 6: 'end' closes no open block",
        "warning: line 7: alt opened here is never closed by 'end'",
    ]
    assert [e.canonical for e in diagram.metric_elements] == ["loop forever", "A -> B : x", "alt x"]


def test_mermaid_keywords_as_name_prefixes_are_names() -> None:
    diagram = parse_mermaid(
        "sequenceDiagram\n  loopback->>Notifier: a\n  Endpoint->>Parser: b\n  End User->>B: c\n"
    )
    assert diagram.diagnostics == ()
    assert [a.canonical for a in diagram.arrows] == [
        "loopback -> Notifier : a",
        "Endpoint -> Parser : b",
        '"End User" -> B : c',
    ]


def test_cli_mixes_dialects_matched_by_stem(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    (truth / "call.puml").write_text("@startuml\nA -> B : hi\nB --> A : ok\n@enduml\n", "utf-8")
    (pred / "call.mmd").write_text("sequenceDiagram\n  A->>B: hi\n  B-->>A: okay\n", "utf-8")
    (pred / "other.mmd").write_text("flowchart TD\n  A --> B\n", "utf-8")
    out = tmp_path / "o.json"
    run = cli("sequence", "--truth", str(truth), "--pred", str(pred), "--out", str(out))
    assert run.code == 0, run.err
    import json

    totals = json.loads(out.read_text())["totals"]
    assert totals["message"]["substitution"] == 1
    assert sum(totals[c][k] for c in totals for k in ("insertion", "deletion", "substitution")) == 1
    assert "other.mmd: prediction without ground truth, skipped" in run.err
    forced = cli(
        "sequence",
        "--truth",
        str(truth / "call.puml"),
        "--pred",
        str(pred / "call.mmd"),
        "--pred-format",
        "plantuml",
    )
    assert forced.code == 0
    assert "not a PlantUML sequence-diagram line" in forced.err
    bad = cli("sequence", "--truth", str(truth), "--pred", str(pred), "--pred-format", "dot")
    assert bad.code == 2 and "dot" in bad.err


def test_unreadable_mermaid_prediction_counts_as_deleted(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "t.puml").write_text("@startuml\nA -> B : hi\n@enduml\n", "utf-8")
    (tmp_path / "p.mmd").write_text("flowchart LR\n  A --> B\n", "utf-8")
    run = cli("sequence", "--truth", str(tmp_path / "t.puml"), "--pred", str(tmp_path / "p.mmd"))
    assert run.code == 0
    err = " ".join(run.err.split())
    assert (
        "1 of 1 answers are unreadable (scored as missing; --strict stops at the first): "
        "t.puml: line 1: a Mermaid 'flowchart' diagram, not a sequenceDiagram" in err
    )
    strict = cli(
        "sequence", "--truth", tmp_path / "t.puml", "--pred", tmp_path / "p.mmd", "--strict"
    )
    assert strict.code == 2
    assert strict.err == (
        f"error: {tmp_path / 'p.mmd'} (line 1): a Mermaid 'flowchart' diagram, not a "
        "sequenceDiagram\n"
    )


def test_cli_ignore_colours(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "t.puml").write_text("@startuml\nA -[#red]> B : hi\n@enduml\n", "utf-8")
    (tmp_path / "p.puml").write_text("@startuml\nA -> B : hi\n@enduml\n", "utf-8")
    import json

    for extra, expected in (((), 1), (("--ignore-colours",), 0)):
        out = tmp_path / "o.json"
        run = cli(
            "sequence",
            "--truth",
            str(tmp_path / "t.puml"),
            "--pred",
            str(tmp_path / "p.puml"),
            "--out",
            str(out),
            *extra,
        )
        assert run.code == 0
        assert json.loads(out.read_text())["totals"]["direction_type"]["substitution"] == expected


def test_colour_rule_on_the_api() -> None:
    assert counts('box "B" #red\nend box', 'box "B" #blue\nend box') == {"box": (0, 0, 1)}
    assert (
        compare_scripts('box "B" #red\nend box', 'box "B"\nend box', ignore_colours=True).errors
        == 0
    )


# -- hostile input ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("AB->)x:;#%+-<| \n\t()/\\[]{}\"'")), max_size=200))
def test_mermaid_reader_is_total(body: str) -> None:
    """Any text gives a diagram or one InputError line: never another exception."""
    try:
        diagram = read_diagram("sequenceDiagram\n" + body, format="mermaid", path="f.mmd")
    except InputError as error:
        assert "\n" not in str(error)
        return
    assert diagram.format == "mermaid"
    for element in diagram.metric_elements:
        assert "\n" not in element.canonical


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('!$ifelsndu=()"01 &|<>\n-AB:\\')), max_size=200))
def test_preprocessor_is_total(text: str) -> None:
    result = preprocess(text, includes={"x": text})
    assert all(isinstance(line.text, str) for line in result.lines)


def test_large_inputs_are_read_in_bounded_time() -> None:
    started = time.perf_counter()
    parse_mermaid("sequenceDiagram\n" + "A" * 200_000 + "->>B: x\n" + "A->>B: " + "y" * 200_000)
    parse_mermaid("sequenceDiagram\n" + "loop x\n" * 5000)
    preprocess("!if (" + "(" * 3000 + "1" + ")" * 3000 + ")\nx\n!endif\n")
    assert time.perf_counter() - started < 20


def test_check_syntax_leaves_mermaid_predictions_out(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    from test_sequence_plantuml_reference import _plantuml

    _plantuml()  # installed as the reference tests install it
    (tmp_path / "t.puml").write_text("@startuml\nA -> B : hi\n@enduml\n", "utf-8")
    (tmp_path / "p.mmd").write_text("sequenceDiagram\n  A->>B: hi\n", "utf-8")
    run = cli(
        "sequence", "--truth", str(tmp_path / "t.puml"), "--pred", str(tmp_path / "p.mmd"),
        "--check-syntax",
    )  # fmt: skip
    assert run.code == 0
    assert "syntax check: 1 Mermaid prediction(s) not checked" in run.out
    assert "does not compile" not in run.out
