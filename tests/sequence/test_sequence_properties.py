"""Hypothesis properties over generated PlantUML scripts.

* a script scores all zeros against itself, and its ground-truth counts are the generator's;
* re-spacing, re-indenting and adding comments / blank lines change nothing;
* swapping truth and prediction swaps insertions and deletions (substitutions stay).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.sequence import CATEGORIES, compare_scripts

NAMES = ["A", "B", "Cee", "d_1"]
ARROWS = ["->", "-->", "->>", "<-", "<--", "-\\", "<->", "->x", "->o"]
WORDS = ["get", "list", "of", "devices", "(a)", "{id}", "ok", "x=1"]


@dataclass(frozen=True)
class Arrow:
    source: str
    token: str
    target: str
    message: tuple[str, ...]


@dataclass(frozen=True)
class Note:
    position: str
    name: str
    lines: tuple[tuple[str, ...], ...]  # one line when single-line
    multiline: bool


@dataclass(frozen=True)
class Group:
    keyword: str
    label: tuple[str, ...]
    body: tuple[object, ...]
    else_label: tuple[str, ...] | None


@dataclass(frozen=True)
class Decl:
    kind: str
    name: str
    display: tuple[str, ...] | None


@dataclass(frozen=True)
class Box:
    title: tuple[str, ...]
    decls: tuple[Decl, ...]


words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(tuple)
names = st.sampled_from(NAMES)
arrows = st.builds(Arrow, names, st.sampled_from(ARROWS), names, st.one_of(st.just(()), words))
notes = st.builds(
    Note,
    st.sampled_from(["over", "left of", "right of"]),
    names,
    st.lists(words, min_size=1, max_size=3).map(tuple),
    st.booleans(),
)
decls = st.builds(
    Decl,
    st.sampled_from(["participant", "actor", "database"]),
    names,
    st.one_of(st.none(), words),
)
boxes = st.builds(Box, words, st.lists(decls, min_size=1, max_size=2).map(tuple))
simple = st.one_of(arrows, arrows, notes, decls, boxes)
groups = st.builds(
    Group,
    st.sampled_from(["alt", "loop", "group", "opt", "par", "critical", "break"]),
    words,
    st.lists(simple, max_size=3).map(tuple),
    st.one_of(st.none(), words),
)
scripts = st.lists(st.one_of(simple, groups), max_size=10).map(tuple)


class Style:
    """Random spacing, indentation and comments (a seed makes it reproducible)."""

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.plain = seed is None

    def sp(self, required: bool = False) -> str:
        if self.plain:
            return " "
        options = [" ", "  ", "\t", " \t "] if required else ["", " ", "  ", "\t"]
        return self.rng.choice(options)

    def indent(self) -> str:
        return "" if self.plain else self.rng.choice(["", "  ", "    ", "\t"])

    def join(self, parts: tuple[str, ...]) -> str:
        out = parts[0]
        for part in parts[1:]:
            out += self.sp(required=True) + part
        return out

    def comment(self) -> list[str]:
        if self.plain or self.rng.random() < 0.6:
            return []
        return [
            self.rng.choice(
                ["", "' a comment -> with arrow", "   ' indented comment", "/' block\nA -> B '/"]
            )
        ]


def render(script: tuple[object, ...], style: Style) -> str:
    lines = ["@startuml"]
    for statement in script:
        lines += render_statement(statement, style)
    lines += style.comment()
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def render_statement(statement: object, style: Style) -> list[str]:
    out = style.comment()
    if isinstance(statement, Arrow):
        text = statement.source + style.sp() + statement.token
        text += style.sp(required=statement.token[-1] in "ox") + statement.target
        if statement.message:
            text += style.sp() + ":" + style.sp() + style.join(statement.message)
        out.append(style.indent() + text)
    elif isinstance(statement, Note):
        head = f"note{style.sp(True)}{statement.position.replace(' ', style.sp(True))}"
        head += style.sp(True) + statement.name
        if statement.multiline:
            out.append(style.indent() + head)
            out += [style.indent() + style.join(line) + style.sp() for line in statement.lines]
            out.append(style.indent() + "end note")
        else:
            text = "\\n".join(style.join(line) for line in statement.lines)
            out.append(style.indent() + head + style.sp() + ":" + style.sp() + text)
    elif isinstance(statement, Decl):
        out.append(style.indent() + render_decl(statement, style))
    elif isinstance(statement, Box):
        out.append(style.indent() + 'box "' + style.join(statement.title) + '"')
        out += [style.indent() + render_decl(decl, style) for decl in statement.decls]
        out.append(style.indent() + "end box")
    elif isinstance(statement, Group):
        out.append(
            style.indent() + statement.keyword + style.sp(True) + style.join(statement.label)
        )
        for inner in statement.body:
            out += render_statement(inner, style)
        if statement.else_label is not None:
            out.append(style.indent() + "else" + style.sp(True) + style.join(statement.else_label))
        out.append(style.indent() + "end")
    return out


def render_decl(decl: Decl, style: Style) -> str:
    if decl.display is None:
        return decl.kind + style.sp(True) + decl.name
    quoted = '"' + style.join(decl.display) + '"'
    return decl.kind + style.sp(True) + quoted + style.sp(True) + "as" + style.sp(True) + decl.name


def expected_counts(script: tuple[object, ...]) -> dict[str, int]:
    """Ground-truth counts computed from the generator's own statements."""
    totals = dict.fromkeys(CATEGORIES, 0)

    def visit(statement: object) -> None:
        if isinstance(statement, Arrow):
            totals["direction"] += 1
            totals["direction_type"] += 1
            totals["message"] += bool(statement.message)
            totals["node"] += 1 if statement.source == statement.target else 2
        elif isinstance(statement, Note):
            totals["note"] += 1
        elif isinstance(statement, Decl):
            totals["participant"] += 1
        elif isinstance(statement, Box):
            totals["box"] += 1
            totals["participant"] += len(statement.decls)
        elif isinstance(statement, Group):
            totals["group"] += 1 + (statement.else_label is not None)
            for inner in statement.body:
                visit(inner)

    for statement in script:
        visit(statement)
    return totals


@settings(max_examples=120, deadline=None)
@given(scripts)
def test_a_script_scores_all_zeros_against_itself(script: tuple[object, ...]) -> None:
    text = render(script, Style(None))
    score = compare_scripts(text, text)
    assert all(c.errors == 0 for c in score.counts.values())
    assert {c: score.counts[c].gt_count for c in CATEGORIES} == expected_counts(script)
    assert not score.diagnostics


@settings(max_examples=120, deadline=None)
@given(scripts, st.integers(0, 2**32), st.integers(0, 2**32))
def test_whitespace_and_comments_change_nothing(
    script: tuple[object, ...], seed_a: int, seed_b: int
) -> None:
    truth = render(script, Style(seed_a))
    pred = render(script, Style(seed_b))
    score = compare_scripts(truth, pred)
    assert all(c.errors == 0 for c in score.counts.values()), score.differences
    plain = compare_scripts(render(script, Style(None)), pred)
    assert all(c.errors == 0 for c in plain.counts.values()), plain.differences


@settings(max_examples=150, deadline=None)
@given(scripts, scripts)
def test_swapping_truth_and_prediction_swaps_insertions_and_deletions(
    first: tuple[object, ...], second: tuple[object, ...]
) -> None:
    a, b = render(first, Style(None)), render(second, Style(None))
    forward = compare_scripts(a, b)
    backward = compare_scripts(b, a)
    for category in CATEGORIES:
        f, r = forward.counts[category], backward.counts[category]
        assert (f.insertion, f.deletion, f.substitution) == (
            r.deletion,
            r.insertion,
            r.substitution,
        ), category


def test_swap_regression_found_by_hypothesis() -> None:
    # Myers' minimal diffs tie here; the oriented diff keeps the swap exact.
    self_loop = Arrow("A", "->", "A", ())
    first = (
        self_loop,
        self_loop,
        self_loop,
        Decl("actor", "B", None),
        self_loop,
        Box(("get", "get"), (Decl("participant", "B", None),)),
        Decl("database", "B", None),
        self_loop,
        self_loop,
        self_loop,
    )
    second = (
        Decl("actor", "B", None),
        Decl("database", "A", None),
        self_loop,
        self_loop,
        self_loop,
        Box(("get",), (Decl("database", "B", None),)),
    )
    a, b = render(first, Style(None)), render(second, Style(None))
    forward, backward = compare_scripts(a, b), compare_scripts(b, a)
    for category in CATEGORIES:
        f, r = forward.counts[category], backward.counts[category]
        assert (f.insertion, f.deletion, f.substitution) == (
            r.deletion,
            r.insertion,
            r.substitution,
        )
