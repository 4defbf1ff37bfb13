"""Adversarial review of the sequence metrics against /work/shared/specs/sequence.md, rule by rule.

Every expectation below is counted by hand from the spec's "Counting rules" and "Inputs and
outputs" sections (the arithmetic is in the comments), never copied from a run of our code.
``table`` gives {category: (gt_count, insertion, deletion, substitution)} for every category
that is not all zero, so each expectation is the complete answer for the file pair.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore.sequence import CATEGORIES, ModelScore, compare_scripts, parse_plantuml
from parsescore.sequence.attributes import LINE_BINS, line_bin
from parsescore.sequence.report import TABLE1_LINES_NOTE, table1_counts, table1_markdown

Row = tuple[int, int, int, int]


def table(truth: str, pred: str, **kwargs: float) -> dict[str, Row]:
    """(gt_count, insertion, deletion, substitution) of every category that is not all zero."""
    score = compare_scripts(truth, pred, **kwargs)  # type: ignore[arg-type]
    out = {}
    for category, c in score.counts.items():
        row = (c.gt_count, c.insertion, c.deletion, c.substitution)
        if row != (0, 0, 0, 0):
            out[category] = row
    return out


def errors(truth: str, pred: str, **kwargs: float) -> dict[str, tuple[int, int, int]]:
    """(insertion, deletion, substitution) of every category with an error."""
    return {c: row[1:] for c, row in table(truth, pred, **kwargs).items() if any(row[1:])}


def gt(script: str) -> dict[str, int]:
    return {c: row[0] for c, row in table(script, script).items()}


# == Ground-truth counts ======================================================================


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        # 2 endpoints per arrow.
        ("A -> B", {"node": 2, "direction": 1, "direction_type": 1}),
        # 1 endpoint for a self-message, also when an alias and its display name meet.
        ("A -> A : me", {"node": 1, "direction": 1, "direction_type": 1, "message": 1}),
        (
            'participant "Long" as L\nL -> "Long"',
            {"node": 1, "direction": 1, "direction_type": 1, "participant": 1},
        ),
        # 1 endpoint for every incoming / outgoing form.
        ("[-> A\nA ->]\n[<- A\nA <-]\n?-> A\nA ->?", {"node": 6, "direction": 6}),
        # Direction and direction_type count arrow lines, whatever the style.
        ("A --> B\nA ->> B\nA -\\ B\nA ->x B\nA <-> B\nB <- A", {"node": 12, "direction": 6}),
    ],
)
def test_gt_nodes_and_directions(script: str, expected: dict[str, int]) -> None:
    expected = dict(expected)
    expected.setdefault("direction_type", expected["direction"])
    assert gt(script) == expected


def test_gt_message_counts_only_non_empty_text_after_the_colon() -> None:
    # Five arrows: ":" with nothing, ":" with blanks, no ":", "x", "  y  " → 2 messages.
    script = "A -> B :\nA -> B :   \nA -> B\nA -> B : x\nA -> B :  y  "
    assert gt(script) == {"node": 10, "direction": 5, "direction_type": 5, "message": 2}


def test_gt_notes_every_opening_form_and_multi_line_once() -> None:
    script = (
        "note over A : n1\n"
        "note left of A : n2\n"
        "note right of A, B : n3\n"  # one note over two participants: still one line
        "hnote over A : n4\n"
        "rnote over A : n5\n"
        "note across : n6\n"
        "note across: n7\n"
        "note right : n8\n"  # a note on the previous arrow
        "note over A\n  line 1\n  line 2\nend note\n"  # multi-line: once
        "hnote over A\n  h\nendhnote\n"
        "rnote over A\n  r\nend rnote\n"
        "note across\n  all\nend note\n"
    )
    assert gt(script) == {"note": 12}


def test_gt_groups_are_the_spec_keywords_plus_else() -> None:
    script = (
        "group G\nalt a\nopt o\nloop l\npar p\nbreak b\ncritical c\nelse e\nelse\n"
        "end\nend\nend\nend\nend\nend\nend\n"
        "ALT upper case\nend alt\n"
        "alt#Gold #LightBlue coloured\nend\n"
    )
    # 7 openings + 2 else + ALT + alt#Gold = 11; the 9 end lines count nothing.
    assert gt(script) == {"group": 11}


def test_gt_par2_also_partition_are_not_spec_group_keywords() -> None:
    # Decision (literal reading): only group alt opt loop par break critical and else count.
    script = "par2\nA -> B\nalso\nB -> A\nend\npartition P\nend"
    assert gt(script) == {"node": 4, "direction": 2, "direction_type": 2}
    diagram = parse_plantuml("@startuml\n" + script + "\n@enduml")
    assert diagram.diagnostics == ()  # the nesting is still tracked: every end closes one


def test_gt_boxes_count_opening_lines() -> None:
    script = 'box "T" #LightBlue\nend box\nbox Plain\nend box\nbox\nend box\nbox #Pink\nendbox'
    assert gt(script) == {"box": 4}


def test_gt_participant_declarations_of_every_type_and_create() -> None:
    script = (
        "participant A\nactor B\nboundary C\ncontrol D\nentity E\ndatabase F\n"
        "collections G\nqueue H\n"
        "create I\ncreate participant J\ncreate actor K\n"
        'participant "Long L" as L\nparticipant M as "Long M"\nparticipant "N N"\n'
        "actor O <<stereo>> #red\nparticipant P order 10\nParticipant Q\n"
    )
    assert gt(script) == {"participant": 17}


def test_gt_end_comments_blanks_and_no_metric_lines_count_nothing() -> None:
    script = (
        "@startuml\n' comment\n/' block\ncomment '/\n\n   \ntitle T\nskinparam a b\n"
        "autonumber\nactivate A\ndeactivate A\ndestroy A\n== x ==\n...\n|||\n"
        "ref over A : r\nend\nend note\nend box\n@enduml\n"
    )
    assert gt(script) == {}


# == Canonical one-line form ==================================================================


@pytest.mark.parametrize(
    ("truth", "pred"),
    [
        ("A -> B : x", "A->B:x"),  # spacing anywhere in a line
        ("A -> B : x", "\t  A\t->   B  :   x   "),  # indentation, tabs, message trimmed
        ("A -> B : two words", "A -> B : two    words"),  # single spaces inside the message
        ("A -> B : x", "B <- A : x"),  # A <- B is B -> A
        ("A --> B : x", "B <-- A : x"),
        ("A ->> B : x", "B <<- A : x"),
        ("A -> B : x", "' comment\nA -> B : x\n/' block '/"),  # comments never count
        # Alias both ways, and a quoted display name in an arrow resolved to its code.
        ('participant "Long Name" as L\nL -> B', 'participant L as "Long Name"\nL -> B'),
        ('participant "Long Name" as L\nL -> B', 'participant "Long Name" as L\n"Long Name" -> B'),
        ('participant "Long Name" as L\nL -> B', 'participant L as "Long Name"\nB <- "Long Name"'),
        # Declared after its use: still resolved.
        ('L -> B\nparticipant "Long Name" as L', '"Long Name" -> B\nparticipant "Long Name" as L'),
        ('participant "A B"\n"A B" -> C', 'participant   "A   B"\n"A B"->C'),
        ("note over A : a b", "note over A :   a    b  "),
        ("note over A\n  a\n  b\nend note", "  note over A\na\n    b\n  end note"),
        ("alt  ok\nend", "  alt ok\n  end"),
    ],
)
def test_canonical_equivalents_count_nothing(truth: str, pred: str) -> None:
    assert errors(truth, pred) == {}


def test_unquoted_display_name_in_an_arrow_is_not_resolved() -> None:
    # Literal: only a *quoted* display name used in an arrow is resolved; `Alice` is a code.
    truth = "participant Alice as A\nA -> B : hi"
    assert errors(truth, "participant Alice as A\nAlice -> B : hi") == {"node": (0, 0, 1)}
    assert errors(truth, 'participant Alice as A\n"Alice" -> B : hi') == {}


# == Myers diff + pairing over the whole file within element kinds ============================


def test_pairing_is_over_the_whole_file_not_per_hunk() -> None:
    # The common middle line splits the diff into two hunks; each truth line's partner sits
    # in the other hunk. Whole-file pairing finds them: 2 message substitutions.
    truth = "A -> B : alpha request\nC -> D : common\nE -> F : omega response"
    pred = "E -> F : omega responses\nC -> D : common\nA -> B : alpha requests"
    assert errors(truth, pred) == {"message": (0, 0, 2)}


def test_pairing_never_crosses_element_kinds() -> None:
    # A note removed and an arrow added with the same text are not paired.
    assert errors("note over A : hello", "A -> B : hello") == {
        "note": (0, 1, 0),
        "node": (2, 0, 0),
        "direction": (1, 0, 0),
        "message": (1, 0, 0),
    }


def test_moved_and_reordered_elements_count_nothing() -> None:
    truth = "participant A\nA -> B : one\nB -> C : two\nnote over A : n\nalt x\nend"
    pred = "alt x\nend\nnote over A : n\nB -> C : two\nparticipant A\nA -> B : one"
    assert errors(truth, pred) == {}


def test_pairing_minimises_the_total_levenshtein_distance() -> None:
    # Removed: "A -> B : abc" / "A -> B : xyz"; added "A -> B : xyq" / "A -> B : abd".
    # Best total: abc-abd (1) + xyz-xyq (1) = 2, so 2 message substitutions, nothing else.
    truth = "A -> B : abc\nC -> D : keep\nA -> B : xyz"
    pred = "A -> B : xyq\nC -> D : keep\nA -> B : abd"
    score = compare_scripts(truth, pred)
    assert sorted((p.truth_line, p.pred_line, p.distance) for p in score.pairings) == [
        (1, 3, 1),
        (3, 1, 1),
    ]
    assert errors(truth, pred) == {"message": (0, 0, 2)}


def test_one_removed_against_several_added_pairs_once() -> None:
    # 1 removed, 2 added arrows: the closer one pairs (message substitution), the other is an
    # insertion (direction, message, 2 nodes).
    truth = "A -> B : hello"
    pred = "A -> B : hallo\nC -> D : something else"
    assert errors(truth, pred) == {
        "node": (2, 0, 0),
        "direction": (1, 0, 0),
        "message": (1, 0, 1),
    }


# == The 0.5 threshold on distance / longer length ============================================


@pytest.mark.parametrize(
    ("truth", "pred", "expected"),
    [
        # box "abcdef" (12 chars) vs box "uvwxyz": distance 6, 6/12 = 0.5 → still a pair.
        ('box "abcdef"\nend box', 'box "uvwxyz"\nend box', {"box": (0, 0, 1)}),
        # box "abcdefg" (13) vs box "tuvwxyz": 7/13 = 0.54 > 0.5 → deletion + insertion.
        ('box "abcdefg"\nend box', 'box "tuvwxyz"\nend box', {"box": (1, 1, 0)}),
        # "A -> B : abcdefghi" (18) vs "A -> B : rstuvwxyz": 9/18 = 0.5 → substitution.
        ("A -> B : abcdefghi", "A -> B : rstuvwxyz", {"message": (0, 0, 1)}),
        # "A -> B : abcdefghij" (19) vs "A -> B : qrstuvwxyz": 10/19 > 0.5 → unpaired arrows.
        (
            "A -> B : abcdefghij",
            "A -> B : qrstuvwxyz",
            {"node": (2, 2, 0), "direction": (1, 1, 0), "message": (1, 1, 0)},
        ),
        # The longer length is the denominator: "note over A : ab" (16) vs
        # "note over A : abcdefghijklmnop" (30): distance 14, 14/30 = 0.47 → pair.
        ("note over A : ab", "note over A : abcdefghijklmnop", {"note": (0, 0, 1)}),
        # "group ab" (8) vs "group abcdefghijklmnopq" (23): 15/23 = 0.65 → unpaired.
        ("group ab\nend", "group abcdefghijklmnopq\nend", {"group": (1, 1, 0)}),
    ],
)
def test_threshold_exactly_half_pairs_above_half_splits(
    truth: str, pred: str, expected: dict[str, tuple[int, int, int]]
) -> None:
    assert errors(truth, pred) == expected


def test_threshold_is_applied_after_the_assignment() -> None:
    # Literal order of rule 2: assign by Levenshtein distance first, then split pairs above the
    # threshold. Removed "A -> B : hello" (14); added "A -> B" (distance 8, 8/14 = 0.57) and
    # "A -> B : hello 123456789" (distance 10, 10/24 = 0.42). The assignment takes the
    # smaller distance 8, which exceeds 0.5: deletion + insertion; the long one is inserted.
    truth = "A -> B : hello"
    pred = "A -> B\nA -> B : hello 123456789"
    # Deleted: 1 arrow, its message, 2 nodes. Inserted: 2 arrows, 1 message, 4 nodes.
    assert errors(truth, pred) == {
        "node": (4, 2, 0),
        "direction": (2, 1, 0),
        "message": (1, 1, 0),
    }


def test_threshold_pairing_records_the_normalised_distance() -> None:
    score = compare_scripts('box "abcdef"\nend box', 'box "uvwxyz"\nend box')
    (pairing,) = score.pairings
    assert (pairing.distance, pairing.normalised_distance, pairing.substitution) == (6, 0.5, True)


def test_threshold_cli_option(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "t.puml", tmp_path / "p.puml"
    # "A -> B : abcd" vs "A -> B : wxyz": 4/13 = 0.31 ≤ 0.5 → substitution; > 0.3 → split.
    truth.write_text("A -> B : abcd\n")
    pred.write_text("A -> B : wxyz\n")
    results = {}
    for value in ("0.5", "0.3"):
        out = tmp_path / f"{value}.json"
        args = ["sequence", "--truth", str(truth), "--pred", str(pred), "--out", str(out)]
        result = cli(*args, "--threshold", value)
        assert result.code == 0, result.err
        results[value] = json.loads(out.read_text())["totals"]["message"]
    assert (results["0.5"]["insertion"], results["0.5"]["deletion"]) == (0, 0)
    assert results["0.5"]["substitution"] == 1
    assert (results["0.3"]["insertion"], results["0.3"]["deletion"]) == (1, 1)
    assert results["0.3"]["substitution"] == 0


# == Paired arrows ============================================================================


def test_swapped_endpoints_are_one_direction_substitution_and_no_node_error() -> None:
    assert table("A -> B : hello", "B -> A : hello") == {
        "node": (2, 0, 0, 0),
        "direction": (1, 0, 0, 1),
        "direction_type": (1, 0, 0, 0),
        "message": (1, 0, 0, 0),
    }
    # The same swap written with <-.
    assert errors("A -> B : hello", "A <- B : hello") == {"direction": (0, 0, 1)}
    assert errors("B <- A : hello", "B -> A : hello") == {"direction": (0, 0, 1)}


def test_swap_with_style_and_message_changes() -> None:
    assert errors("A -> B : hello", "B --> A : hallo") == {
        "direction": (0, 0, 1),
        "direction_type": (0, 0, 1),
        "message": (0, 0, 1),
    }


def test_each_differing_endpoint_is_one_node_substitution() -> None:
    assert errors("A -> B : hello", "C -> B : hello") == {"node": (0, 0, 1)}
    assert errors("A -> B : hello", "A -> C : hello") == {"node": (0, 0, 1)}
    assert errors("Alpha -> Beta : hello", "Gamma -> Delta : hello") == {"node": (0, 0, 2)}
    # Not a swap (B -> C is not A -> B reversed): both positions differ, 2 node substitutions.
    assert errors("A -> B : hello there", "B -> C : hello there") == {"node": (0, 0, 2)}


@pytest.mark.parametrize(
    "pred",
    [
        "A --> B : hello",  # solid → dotted
        "A ->> B : hello",  # normal → async head
        "A -\\ B : hello",  # half head
        "A ->x B : hello",  # lost
        "A ->o B : hello",  # circle
        "A <-> B : hello",  # two heads
        "A -[dashed]> B : hello",  # dotted written as a style
    ],
)
def test_style_or_head_change_is_one_direction_type_substitution(pred: str) -> None:
    assert errors("A -> B : hello", pred) == {"direction_type": (0, 0, 1)}


def test_message_change_records_its_edit_distance() -> None:
    score = compare_scripts("A -> B : Create Session", "A -> B : create sesion")
    assert errors("A -> B : Create Session", "A -> B : create sesion") == {"message": (0, 0, 1)}
    (difference,) = score.differences
    assert difference.edit_distance == 3  # C→c, S→s, one "s" deleted


def test_message_on_one_side_only() -> None:
    # "A -> B : hi" (11) vs "A -> B" (6): 5/11 ≤ 0.5 → paired; the message is missing.
    assert table("A -> B : hi", "A -> B") == {
        "node": (2, 0, 0, 0),
        "direction": (1, 0, 0, 0),
        "direction_type": (1, 0, 0, 0),
        "message": (1, 0, 1, 0),
    }
    assert table("A -> B", "A -> B : hi") == {
        "node": (2, 0, 0, 0),
        "direction": (1, 0, 0, 0),
        "direction_type": (1, 0, 0, 0),
        "message": (0, 1, 0, 0),
    }


def test_self_message_pairs() -> None:
    assert errors("A -> A : loop", "B -> B : loop") == {"node": (0, 0, 1)}  # one endpoint
    assert errors("A -> A : loop", "A -> B : loop") == {"node": (0, 0, 1)}  # target differs
    assert errors("A -> A : loop", "A --> A : loop") == {"direction_type": (0, 0, 1)}


def test_incoming_outgoing_pairs() -> None:
    assert errors("[-> A : request", "[-> B : request") == {"node": (0, 0, 1)}
    assert errors("[-> A : request", "[<- A : request") == {"direction": (0, 0, 1)}
    assert errors("[-> A : request", "A <-[ : request") == {}
    # Decision: the two borders are one "outside" for the swap test, so "into A from the
    # left" against "out of A to the right" is a swap: 1 direction substitution, no node error.
    assert errors("[-> A : request", "A ->] : request") == {"direction": (0, 0, 1)}
    # Into A from the left against into A from the right: the border differs → direction.
    assert errors("[-> A : request", "A <-] : request") == {"direction": (0, 0, 1)}
    # A border against a participant: the prediction has one more node.
    assert errors("[-> A : request", "B -> A : request") == {"node": (1, 0, 0)}


# == Unpaired arrows ==========================================================================


def test_unpaired_truth_arrows_are_deletions() -> None:
    truth = "A -> B : keep\nC -> D : gone\nE -> E : self gone\n[-> F : in gone\nG -> H"
    # Deleted: C->D (dir 1, msg 1, node 2), E->E (1, 1, 1), [->F (1, 1, 1), G->H (1, 0, 2).
    assert table(truth, "A -> B : keep") == {
        "node": (8, 0, 6, 0),
        "direction": (5, 0, 4, 0),
        "direction_type": (5, 0, 0, 0),
        "message": (4, 0, 3, 0),
    }


def test_unpaired_prediction_arrows_are_insertions() -> None:
    pred = "A -> B : keep\nC -> D : new\nE -> E : self new\nF ->] : out new\nG -> H"
    assert table("A -> B : keep", pred) == {
        "node": (2, 6, 0, 0),
        "direction": (1, 4, 0, 0),
        "direction_type": (1, 0, 0, 0),
        "message": (1, 3, 0, 0),
    }


# == Notes, groups, boxes, participants =======================================================


def test_structural_elements_deleted_inserted_substituted() -> None:
    truth = (
        'box "Core Network"\nparticipant "Mobility Entity" as MME\nend box\n'
        "note over MME : attach starts\nalt success case\nelse failure case\nend\n"
    )
    pred = (
        'box "Core Networks"\nparticipant "Mobility Entities" as MME\nend box\n'
        "note over MME : attach started\nalt success case\nend\ngroup Extra\nend\n"
    )
    # box / participant / note: one small edit each → substitution; else deleted; group added.
    assert table(truth, pred) == {
        "box": (1, 0, 0, 1),
        "participant": (1, 0, 0, 1),
        "note": (1, 0, 0, 1),
        "group": (2, 1, 1, 0),
    }


def test_multi_line_note_is_one_element_compared_whole() -> None:
    truth = "note over A\n  first\n  second\n  third\nend note"
    assert table(truth, "note over A\n  first\n  second\n  thirds\nend note") == {
        "note": (1, 0, 0, 1)
    }
    # A multi-line note equals the single-line note with the same \n-separated text.
    assert errors(truth, "note over A : first\\nsecond\\nthird") == {}
    assert table(truth, "") == {"note": (1, 0, 1, 0)}


def test_participant_pairs() -> None:
    assert errors("participant Alice\nparticipant Bob", "participant Alice") == {
        "participant": (0, 1, 0)
    }
    assert errors('actor "Long Name" as L', 'participant "Long Name" as L') == {
        "participant": (0, 0, 1)
    }
    assert errors("participant Alice", "participant Alice\ncreate Carol") == {
        "participant": (1, 0, 0)
    }


# == Rates ====================================================================================


def test_rates_are_count_over_gt_times_100_and_0_without_gt() -> None:
    score = compare_scripts(
        "A -> B : one\nA -> B : two\nA -> B : three",
        "A -> B : one\nA -> B : twice\nA -> B : three\nbox X\nend box",
    )
    message = score.counts["message"]
    assert (message.gt_count, message.substitution) == (3, 1)
    assert message.substitution_rate == 1 / 3 * 100
    assert message.insertion_rate == 0.0 and message.deletion_rate == 0.0
    box = score.counts["box"]
    assert (box.gt_count, box.insertion, box.insertion_rate) == (0, 1, 0.0)
    assert score.as_dict()["message"] == {
        "gt_count": 3,
        "insertion": 0,
        "deletion": 0,
        "substitution": 1,
        "insertion_rate": 0.0,
        "deletion_rate": 0.0,
        "substitution_rate": 1 / 3 * 100,
    }


def test_dataset_totals_sum_counts_before_dividing() -> None:
    # File 1: 1 message of 1 substituted (100 %); file 2: 0 of 4 (0 %).
    # Sum first: 1 / 5 = 20 % (the mean of file rates would be 50 %).
    one = compare_scripts("A -> B : hello", "A -> B : hallo", path="one.puml")
    two = compare_scripts("A -> B : a\nB -> C : b\nC -> D : c\nD -> E : d", "", path="two.puml")
    model = ModelScore("m", (one, two))
    totals = model.totals
    assert (totals["message"].gt_count, totals["message"].substitution) == (5, 1)
    assert totals["message"].substitution_rate == 1 / 5 * 100
    assert (totals["message"].deletion, totals["message"].deletion_rate) == (4, 4 / 5 * 100)
    assert (totals["node"].gt_count, totals["node"].deletion) == (10, 8)
    assert totals["node"].deletion_rate == 8 / 10 * 100


# == Inputs and outputs: directories, JSON shape ==============================================

KEYS = [
    "gt_count",
    "insertion",
    "deletion",
    "substitution",
    "insertion_rate",
    "deletion_rate",
    "substitution_rate",
]
FULL = (
    "@startuml\n"
    'box "Core"\nparticipant A\nparticipant "Bee" as B\nend box\n'
    "A -> B : one\nB --> A\nA -> A : self\n"
    "note over A : n\n"
    "alt yes\nA -> B : two\nelse no\nend\n"
    "@enduml\n"
)
# FULL: arrows 4 (nodes 2 + 2 + 1 + 2 = 7; messages 3), note 1, groups 2, box 1, participants 2.
FULL_GT = {
    "node": 7,
    "direction": 4,
    "direction_type": 4,
    "message": 3,
    "box": 1,
    "group": 2,
    "note": 1,
    "participant": 2,
}


def test_gt_counts_of_a_full_script() -> None:
    assert gt(FULL) == FULL_GT


def test_directory_mode_missing_prediction_and_orphan(tmp_path: Path, cli: Cli) -> None:
    (tmp_path / "truth" / "sub").mkdir(parents=True)
    (tmp_path / "pred" / "sub").mkdir(parents=True)
    (tmp_path / "truth" / "sub" / "same.puml").write_text(FULL)
    (tmp_path / "pred" / "sub" / "same.puml").write_text(FULL)
    (tmp_path / "truth" / "lost.puml").write_text(FULL)
    (tmp_path / "pred" / "orphan.puml").write_text("@startuml\nX -> Y : z\n@enduml\n")
    (tmp_path / "pred" / "same.puml").write_text(FULL)  # same name, other folder: an orphan
    out = tmp_path / "out.json"
    run = cli(
        "sequence",
        "--truth",
        str(tmp_path / "truth"),
        "--pred",
        str(tmp_path / "pred"),
        "--out",
        str(out),
    )
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    # The JSON is {"totals", "files"} and the readable share; files are the truth files, by
    # relative path, each with its readable (0: the missing prediction).
    assert list(result) == ["totals", "files", "readable"]
    assert [f["path"] for f in result["files"]] == ["lost.puml", "sub/same.puml"]
    lost = result["files"][0]
    assert list(lost) == ["path", "gt_lines", *CATEGORIES, "readable"]
    assert (lost["readable"], result["files"][1]["readable"], result["readable"]) == (0, 1, 0.5)
    assert lost["gt_lines"] == 14  # FULL has 14 lines, @startuml to @enduml
    # Everything deleted: an empty prediction under rules 4 and 5 (direction_type has no
    # deletions by rule 4, see the Decisions in docs/sequence.md).
    for category, count in FULL_GT.items():
        expected_deleted = 0 if category == "direction_type" else count
        assert lost[category] == {
            "gt_count": count,
            "insertion": 0,
            "deletion": expected_deleted,
            "substitution": 0,
            "insertion_rate": 0.0,
            "deletion_rate": 100.0 if expected_deleted else 0.0,
            "substitution_rate": 0.0,
        }
    same = result["files"][1]
    assert all(same[c]["insertion"] == same[c]["deletion"] == 0 for c in CATEGORIES)
    # Totals: counts summed over both files, then divided (the orphans add nothing).
    for category, count in FULL_GT.items():
        totals = result["totals"][category]
        assert list(totals) == KEYS
        assert totals["gt_count"] == 2 * count
        deleted = 0 if category == "direction_type" else count
        assert totals["deletion"] == deleted
        assert totals["deletion_rate"] == deleted / (2 * count) * 100
        assert totals["insertion"] == 0 and totals["substitution"] == 0
    # Both the missing prediction and the orphans are reported.
    assert "1 of 2 files have no answer (scored as empty): lost.puml" in run.err
    assert "orphan.puml: prediction without ground truth, skipped" in run.err
    assert "same.puml: prediction without ground truth, skipped" in run.err


def test_json_value_types_and_one_block_per_model(tmp_path: Path, cli: Cli) -> None:
    for model, text in (("truth", FULL), ("m1", FULL), ("m2", FULL.replace("one", "uno"))):
        (tmp_path / model).mkdir()
        (tmp_path / model / "a.puml").write_text(text)
    out = tmp_path / "out.json"
    run = cli(
        "sequence",
        "--truth",
        str(tmp_path / "truth"),
        "--pred",
        str(tmp_path / "m1"),
        "--pred",
        str(tmp_path / "m2"),
        "--out",
        str(out),
    )
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    assert list(result) == ["m1", "m2"]
    for block in result.values():
        assert list(block) == ["totals", "files", "readable"]  # the spec's, then readable
        assert list(block["totals"]) == list(CATEGORIES) and block["readable"] == 1.0
        for file in block["files"]:
            assert list(file) == ["path", "gt_lines", *CATEGORIES, "readable"]
            assert isinstance(file["path"], str) and isinstance(file["gt_lines"], int)
        for entry in [block["totals"][c] for c in CATEGORIES] + [
            f[c] for f in block["files"] for c in CATEGORIES
        ]:
            assert list(entry) == KEYS
            assert all(type(entry[k]) is int for k in KEYS[:4])
            assert all(type(entry[k]) is float for k in KEYS[4:])
    # "A -> B : one" vs "A -> B : uno": 3/12 → one message substitution of 3 messages.
    assert result["m2"]["totals"]["message"]["substitution"] == 1
    assert result["m2"]["totals"]["message"]["substitution_rate"] == 1 / 3 * 100
    assert result["m1"]["totals"]["message"]["substitution"] == 0


# == Table 1: bins by ground-truth line count =================================================


@pytest.mark.parametrize(
    ("lines", "label"),
    [
        (0, "1-20"),
        (1, "1-20"),
        (20, "1-20"),
        (21, "21-30"),
        (30, "21-30"),
        (31, "31-40"),
        (40, "31-40"),
        (41, "41-50"),
        (50, "41-50"),
        (51, "51-100"),
        (100, "51-100"),
        (101, ">100"),
        (5000, ">100"),
    ],
)
def test_line_bins(lines: int, label: str) -> None:
    assert line_bin(lines) == label


def test_table1_bins_are_the_specs() -> None:
    assert [label for label, _, _ in LINE_BINS] == [
        "1-20",
        "21-30",
        "31-40",
        "41-50",
        "51-100",
        ">100",
    ]


def test_gt_lines_is_every_line_of_the_truth_file_and_is_stated() -> None:
    # 20 lines: @startuml, 17 lines of blanks / comments / one arrow, @enduml, a blank line;
    # the final line break ends the last line (as an editor and `wc -l` count).
    body = ["", "' comment", "   ", "A -> B"] + [""] * 13
    text = "\n".join(["@startuml", *body, "@enduml", ""]) + "\n"
    assert len(text.splitlines()) == 20
    at_20 = compare_scripts(text, text, path="a.puml")
    at_21 = compare_scripts(text + "\n", text, path="b.puml")
    crlf = compare_scripts(text.replace("\n", "\r\n"), text, path="c.puml")
    assert (at_20.gt_lines, at_21.gt_lines, crlf.gt_lines) == (20, 21, 20)
    model = ModelScore("m", (at_20, at_21, crlf))
    assert dict(table1_counts(model)) == {
        "1-20": 2,
        "21-30": 1,
        "31-40": 0,
        "41-50": 0,
        "51-100": 0,
        ">100": 0,
    }
    markdown = table1_markdown(model)
    assert "| 1-20 | 2 |" in markdown and "| 21-30 | 1 |" in markdown
    assert TABLE1_LINES_NOTE in markdown and "every line of the ground-truth file" in markdown
    docs = Path(__file__).resolve().parents[2] / "docs" / "sequence.md"
    assert "`gt_lines` is" in docs.read_text(encoding="utf-8")


# == Decisions on ambiguities (documented in docs/sequence.md, "Decisions") ===================


def test_decision_return_counts_as_an_arrow_with_its_label_as_message() -> None:
    # `return x` has no ":" but its label is the arrow's message text.
    script = "A -> B ++ : call\nreturn done"
    assert gt(script) == {"node": 4, "direction": 2, "direction_type": 2, "message": 2}
    # A `return` whose caller is unknown still has 2 endpoints (literal "2 per arrow").
    assert gt("activate B\nreturn x") == {
        "node": 2,
        "direction": 1,
        "direction_type": 1,
        "message": 1,
    }


def test_decision_unknown_return_end_against_a_participant_is_a_node_substitution() -> None:
    # Truth: B returns to an unknown caller (B --> ?); prediction: B returns to A (B --> A).
    truth = "activate B\nreturn result"
    pred = "A -> B ++ : call\nreturn result"
    # The call arrow is an insertion (direction 1, message 1, nodes 2); the returns pair
    # ("B --> ? : result" vs "B --> A : result", distance 1) with one differing endpoint.
    assert table(truth, pred) == {
        "node": (2, 2, 0, 1),
        "direction": (1, 1, 0, 0),
        "direction_type": (1, 0, 0, 0),
        "message": (1, 1, 0, 0),
    }


def test_decision_multicast_counts_each_target_endpoint() -> None:
    # A -> B & C has three endpoints (one more per further target).
    assert gt("A -> B & C : all") == {
        "node": 3,
        "direction": 1,
        "direction_type": 1,
        "message": 1,
    }


def test_decision_bidirectional_swap_is_still_a_swap() -> None:
    # Literal rule: endpoints swapped → 1 direction substitution, even for <->.
    assert errors("A <-> B : sync", "B <-> A : sync") == {"direction": (0, 0, 1)}


def test_decision_a_space_between_words_is_text() -> None:
    # Whitespace runs collapse to one space, but "hello world" and "helloworld" differ.
    assert errors("A -> B : hello world", "A -> B :   hello \t world ") == {}
    assert errors("A -> B : hello world", "A -> B : helloworld") == {"message": (0, 0, 1)}
    assert errors("note over A, B : x", "note over A,B:x") == {}


def test_decision_create_keyword_does_not_count_colours_do() -> None:
    assert errors("participant Carol", "create Carol") == {}
    assert errors("actor Carol", "create actor Carol #red") == {"participant": (0, 0, 1)}
    assert errors("actor Carol", "create actor Carol #red", ignore_colours=True) == {}
