"""One test per counting rule of the spec, each a tiny pair of scripts counted by hand.

``counts`` returns {category: (insertions, deletions, substitutions)} for categories with any
error; every other category must be all zero, so each expectation is the complete answer.
"""

from __future__ import annotations

import pytest
from sequence_helpers import counts, gt

from parsescore.sequence import ModelScore, compare_scripts

# -- ground-truth counts -------------------------------------------------------------------


def test_ground_truth_counts_per_kind() -> None:
    script = """@startuml
participant "Alice Long" as A
actor B
box "Backend"
participant C
end box
A -> B : hello
B --> A
A -> A : self
[-> C : incoming
C ->] : outgoing
note over A : one line
note left of B
  two
  lines
end note
hnote over C : h
alt ok
  A -> C : x
else fail
  A -> B : y
end
loop 3 times
end
@enduml
"""
    # arrows: 7; messages: all but `B --> A` = 6; nodes: 2 + 2 + 1 (self) + 1 + 1 (exo)
    # + 2 + 2 = 11; notes 3 (multi-line counts once); groups: alt, else, loop = 3.
    assert gt(script) == {
        "node": 11,
        "direction": 7,
        "direction_type": 7,
        "message": 6,
        "box": 1,
        "group": 3,
        "note": 3,
        "participant": 3,
    }


# -- arrows: direction --------------------------------------------------------------------


def test_direction_flip_is_one_direction_substitution() -> None:
    # "A -> B : hello" vs "B -> A : hello": distance 2 over 14 → paired; swapped endpoints.
    assert counts("A -> B : hello", "B -> A : hello") == {"direction": (0, 0, 1)}


def test_reverse_arrow_written_the_other_way_counts_nothing() -> None:
    assert counts("A -> B : hello", "B <- A : hello") == {}
    assert counts("A --> B : hello", "B <-- A : hello") == {}


def test_reverse_arrow_pointing_the_wrong_way_is_a_direction_substitution() -> None:
    assert counts("A -> B : hello", "A <- B : hello") == {"direction": (0, 0, 1)}


def test_direction_flip_plus_type_change() -> None:
    assert counts("A -> B : hello", "B --> A : hello") == {
        "direction": (0, 0, 1),
        "direction_type": (0, 0, 1),
    }


# -- arrows: type ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("truth", "pred"),
    [
        ("A -> B : hello", "A --> B : hello"),  # solid vs dotted
        ("A -> B : hello", "A ->> B : hello"),  # normal vs async head
        ("A -> B : hello", "A ->x B : hello"),  # lost message
        ("A -> B : hello", "A <-> B : hello"),  # two heads
        ("A -> B : hello", "A -\\ B : hello"),  # half head
        ("A -> B : hello", "A ->o B : hello"),  # circle decoration
    ],
)
def test_arrow_style_is_one_direction_type_substitution(truth: str, pred: str) -> None:
    assert counts(truth, pred) == {"direction_type": (0, 0, 1)}


def test_equivalent_arrow_spellings_count_nothing() -> None:
    assert counts("A --> B : hello", "A -[dashed]> B : hello") == {}
    # a colour is part of the arrow's type, as in the paper's git diff ...
    assert counts("A -> B : hello", "A -[#red]> B : hello") == {"direction_type": (0, 0, 1)}
    # ... unless colours are ignored
    assert counts("A -> B : hello", "A -[#red]> B : hello", ignore_colours=True) == {}
    assert counts("A -> B : hello", "A -> B ++ : hello") == {}  # activation is no metric
    assert counts("A ->x B : hello", "A -x B : hello") == {}


# -- arrows: message ---------------------------------------------------------------------


def test_message_edit_is_one_message_substitution_with_its_edit_distance() -> None:
    score = compare_scripts("A -> B : hello", "A -> B : hallo")
    assert {c: v for c, v in score.counts.items() if v.errors} == {
        "message": score.counts["message"]
    }
    assert score.counts["message"].substitution == 1
    (difference,) = score.differences
    assert difference.edit_distance == 1
    assert (difference.truth_line, difference.pred_line) == (1, 1)
    assert (difference.truth_text, difference.pred_text) == ("A -> B : hello", "A -> B : hallo")


def test_message_missing_or_added_on_a_paired_arrow() -> None:
    # "A -> B : hi" vs "A -> B": distance 5 over 11 = 0.45 → paired.
    assert counts("A -> B : hi", "A -> B") == {"message": (0, 1, 0)}
    assert counts("A -> B", "A -> B : hi") == {"message": (1, 0, 0)}


def test_message_spacing_counts_nothing() -> None:
    assert counts("A -> B : hello  world", "A->B:hello world") == {}


# -- arrows: nodes --------------------------------------------------------------------------


def test_endpoint_rename_is_one_node_substitution() -> None:
    assert counts("A -> B : hello", "A -> C : hello") == {"node": (0, 0, 1)}


def test_both_endpoints_renamed() -> None:
    assert counts("A -> B : hello there", "C -> D : hello there") == {"node": (0, 0, 2)}


# -- arrows: unpaired -----------------------------------------------------------------------


def test_deleted_arrow() -> None:
    truth = "A -> B : one\nB -> C : two"
    assert counts(truth, "A -> B : one") == {
        "node": (0, 2, 0),
        "direction": (0, 1, 0),
        "message": (0, 1, 0),
    }


def test_inserted_arrow_without_message() -> None:
    assert counts("A -> B : one", "A -> B : one\nB -> C") == {
        "node": (2, 0, 0),
        "direction": (1, 0, 0),
    }


def test_dissimilar_pair_above_threshold_is_deletion_plus_insertion() -> None:
    # "A -> B : hello world" (20) vs "A -> B" (6): distance 14, 0.7 > 0.5 → not paired.
    assert counts("A -> B : hello world", "A -> B") == {
        "node": (2, 2, 0),
        "direction": (1, 1, 0),
        "message": (0, 1, 0),
    }


def test_threshold_option() -> None:
    # "A -> B : abcd" vs "A -> B : wxyz": distance 4 over 13 = 0.307.
    assert counts("A -> B : abcd", "A -> B : wxyz") == {"message": (0, 0, 1)}
    assert counts("A -> B : abcd", "A -> B : wxyz", threshold=0.3) == {
        "node": (2, 2, 0),
        "direction": (1, 1, 0),
        "message": (1, 1, 0),
    }
    # Equal to the threshold still pairs ("exceeds" means strictly greater).
    assert counts("A -> B : abcd", "A -> B : wxyz", threshold=4 / 13) == {"message": (0, 0, 1)}


# -- self and incoming/outgoing arrows -----------------------------------------------------


def test_self_arrow_counts_one_node() -> None:
    assert gt("A -> A : loop") == {"node": 1, "direction": 1, "direction_type": 1, "message": 1}
    assert counts("A -> A : loop\nA -> B : x", "A -> B : x") == {
        "node": (0, 1, 0),
        "direction": (0, 1, 0),
        "message": (0, 1, 0),
    }
    assert counts("A -> A : loop", "B -> B : loop") == {"node": (0, 0, 1)}
    assert counts("A -> A : loop", "A -> B : loop") == {"node": (0, 0, 1)}


def test_incoming_and_outgoing_arrows_count_one_node() -> None:
    assert gt("[-> A : in\nA ->] : out") == {
        "node": 2,
        "direction": 2,
        "direction_type": 2,
        "message": 2,
    }
    assert counts("[-> A : in\nA -> B : x", "A -> B : x") == {
        "node": (0, 1, 0),
        "direction": (0, 1, 0),
        "message": (0, 1, 0),
    }
    assert counts("[-> A : request", "[-> B : request") == {"node": (0, 0, 1)}
    assert counts("[-> A : request", "[<- A : request") == {"direction": (0, 0, 1)}
    assert counts("[-> A : request", "A <-[ : request") == {}  # the same arrow written twice


# -- notes ------------------------------------------------------------------------------------


def test_multi_line_note_is_one_element() -> None:
    truth = "note over A\n  first line\n  second line\nend note"
    assert gt(truth) == {"note": 1}
    assert counts(truth, "note over A\nfirst line\nsecond line\nend note") == {}
    assert counts(truth, "note over A\n  first line\n  second lines\nend note") == {
        "note": (0, 0, 1)
    }
    assert counts(truth, "") == {"note": (0, 1, 0)}
    assert counts("", truth) == {"note": (1, 0, 0)}


def test_note_position_or_participant_change_is_a_substitution() -> None:
    assert counts("note over A : text here", "note left of A : text here") == {"note": (0, 0, 1)}
    assert counts("note over A : text here", "note over B : text here") == {"note": (0, 0, 1)}
    assert counts("note over A : text here", "note over A #pink : text here") == {"note": (0, 0, 1)}
    assert (
        counts("note over A : text here", "note over A #pink : text here", ignore_colours=True)
        == {}
    )


# -- groups, else, boxes ---------------------------------------------------------------------


def test_group_deleted_and_end_counts_nothing() -> None:
    truth = "group Setup\nA -> B : x\nend"
    assert gt(truth)["group"] == 1
    assert counts(truth, "A -> B : x") == {"group": (0, 1, 0)}
    assert counts("A -> B : x", truth) == {"group": (1, 0, 0)}
    assert counts("loop 10 times\nend", "loop 20 times\nend") == {"group": (0, 0, 1)}


def test_else_lines_count_as_group() -> None:
    truth = "alt success\nA -> B : ok\nelse failure\nA -> B : ko\nend"
    assert gt(truth)["group"] == 2
    assert counts(truth, "alt success\nA -> B : ok\nA -> B : ko\nend") == {"group": (0, 1, 0)}
    assert counts(truth, "alt success\nA -> B : ok\nelse failed\nA -> B : ko\nend") == {
        "group": (0, 0, 1)
    }


def test_box() -> None:
    truth = 'box "Internal" #LightBlue\nparticipant A\nend box\nA -> B : x'
    assert gt(truth)["box"] == 1
    assert counts(truth, "participant A\nA -> B : x") == {"box": (0, 1, 0)}
    assert counts(truth, 'box "Internals"\nparticipant A\nend box\nA -> B : x') == {
        "box": (0, 0, 1)
    }
    # the colour differs: a substitution (the paper's changed line) unless colours are ignored
    assert counts(truth, 'box "Internal"\nparticipant A\nend box\nA -> B : x') == {"box": (0, 0, 1)}
    assert counts(truth, 'box "Internal" #lightblue\nparticipant A\nend box\nA -> B : x') == {}
    other = 'box "Internal"\nparticipant A\nend box\nA -> B : x'
    assert counts(truth, other, ignore_colours=True) == {}


def test_colours_as_the_paper_counts_them() -> None:
    """Each colour difference is one substitution of its element; case, ``#`` and spacing of
    a colour do not count; ``ignore_colours`` drops them all."""
    cases = [
        ("participant A #red", "participant A #blue", {"participant": (0, 0, 1)}),
        ("participant A #red", "participant A #RED", {}),
        ("alt #Gold ok\nA -> B : x\nend", "alt ok\nA -> B : x\nend", {"group": (0, 0, 1)}),
        ("A -[#red]-> B : x", "A -[#blue]-> B : x", {"direction_type": (0, 0, 1)}),
        ("A -[#red]-> B : x", "A -[#red,dashed]> B : x", {}),
        ("[-[#red]> A : x", "[-> A : x", {"direction_type": (0, 0, 1)}),
        ("note left of A #aqua : n", "note left of A : n", {"note": (0, 0, 1)}),
    ]
    for truth, pred, expected in cases:
        assert counts(truth, pred) == expected, (truth, pred)
        assert counts(pred, truth) == {c: (d, i, s) for c, (i, d, s) in expected.items()}
        assert counts(truth, pred, ignore_colours=True) == {}


# -- participants --------------------------------------------------------------------------


def test_participant_alias_both_ways_and_quoted_name_in_arrows() -> None:
    truth = 'participant "Long Name" as L\nL -> B : hello'
    assert counts(truth, 'participant L as "Long Name"\n"Long Name" -> B : hello') == {}
    assert counts(truth, 'participant "Long Name" as L\nB <- "Long Name" : hello') == {}


def test_participant_type_or_display_change_is_a_substitution() -> None:
    assert counts('participant "Alice Cooper" as AC', 'actor "Alice Cooper" as AC') == {
        "participant": (0, 0, 1)
    }
    # Short lines: "participant Alice" vs "actor Alice" is more than half different (0.53),
    # so the threshold makes it a deletion plus an insertion.
    assert counts("participant Alice", "actor Alice") == {"participant": (1, 1, 0)}
    assert counts('participant "Long Name" as L', 'participant "Long Names" as L') == {
        "participant": (0, 0, 1)
    }
    assert counts("participant Alice\nparticipant Bob", "participant Alice") == {
        "participant": (0, 1, 0)
    }


# -- what counts nothing --------------------------------------------------------------------


def test_comments_indentation_and_no_metric_lines_count_nothing() -> None:
    truth = "@startuml\nparticipant A\nA -> B : hi\nalt x\n  B -> A : back\nend\n@enduml"
    pred = (
        "@startuml\n' a comment\n/' block\n comment '/\ntitle Something\nskinparam x y\n"
        "autonumber\n    participant   A\nactivate A\n== step ==\n...\n|||\n"
        "A->B:hi\n   alt   x\n        B  ->  A :  back\n    end\ndeactivate A\n@enduml\n"
    )
    assert counts(truth, pred) == {}


def test_moved_line_counts_nothing() -> None:
    # A line moved elsewhere is removed and added by the diff, then paired at distance 0.
    truth = "A -> B : one\nB -> C : two\nnote over A : n"
    pred = "note over A : n\nA -> B : one\nB -> C : two"
    assert counts(truth, pred) == {}


# -- rates -----------------------------------------------------------------------------------


def test_rates_per_file_and_summed_over_a_dataset() -> None:
    first = compare_scripts("A -> B : hello", "A -> B : hallo", path="a.puml")
    second = compare_scripts(
        "A -> B : x\nB -> C : y\nC -> D : z", "A -> B : x\nB -> C : y\nC -> D : z"
    )
    assert first.counts["message"].substitution_rate == 100.0
    assert second.counts["message"].substitution_rate == 0.0
    model = ModelScore("m", (first, second))
    totals = model.totals["message"]
    assert (totals.gt_count, totals.substitution) == (4, 1)
    assert totals.substitution_rate == 25.0  # counts summed first, not the mean 50 %
    assert model.totals["box"].insertion_rate == 0.0  # no ground truth: rate 0


def test_every_difference_keeps_both_lines_and_line_numbers() -> None:
    truth = "@startuml\nA -> B : one\nB -> C : two\n@enduml"
    pred = "@startuml\n\nA -> B : one\nB -> D : two\n@enduml"
    score = compare_scripts(truth, pred)
    (difference,) = score.differences
    assert difference.category == "node"
    assert (difference.truth_line, difference.truth_text) == (3, "B -> C : two")
    assert (difference.pred_line, difference.pred_text) == (4, "B -> D : two")
