"""Properties of the matching on random small graphs (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.graph.canon import digit_runs, squash
from parsescore.graph.evaluate import evaluate_graphs, pair_score, relaxed_pairs, structural_pairs
from parsescore.graph.template import _FINGERPRINT_JSON, GraphData, _text_fingerprint

CLASSES = ["A", "B", "Root"]
IDS = {"A": ["code"], "B": ["name"], "Root": ["name"]}
codes = st.sampled_from(["x1", "x1y", "X-1", "x2", "ab", "abc", "The ab", "b c", "", "7", "a7b"])


@st.composite
def graphs(draw: Any) -> GraphData:
    n = draw(st.integers(1, 8))
    nodes = []
    for i in range(n):
        cls = draw(st.sampled_from(CLASSES))
        field = IDS[cls][0]
        nodes.append(
            {
                "id": f"n{i}",
                "__class__": cls,
                field: draw(codes),
                "text": draw(st.sampled_from(["red", "blue", "", None])),
            }
        )
    edges = [
        {
            "source": f"n{draw(st.integers(0, n - 1))}",
            "target": f"n{draw(st.integers(0, n - 1))}",
            "label": draw(st.sampled_from(["L", "M"])),
        }
        for _ in range(draw(st.integers(0, 6)))
    ]
    return GraphData(nodes, edges)


def brute_force_relaxed(truth: list[Any], got: list[Any]) -> list[Any]:
    """The rule as the spec states it: scan every unmatched extracted key for each truth key."""
    used: set[int] = set()
    pairs = []
    for a in truth:
        ta = "".join(a[1])
        found = []
        for i, b in enumerate(got):
            tb = "".join(b[1])
            if i in used or b[0] != a[0] or not ta or not tb or digit_runs(ta) != digit_runs(tb):
                continue
            sa, sb = squash(ta), squash(tb)
            if ta in tb or tb in ta or (sa and sb and (sa in sb or sb in sa)):
                found.append(i)
        if len(found) == 1:
            used.add(found[0])
            pairs.append((a, got[found[0]]))
    return pairs


keys = st.lists(
    st.tuples(
        st.sampled_from(["A", "B"]),
        st.tuples(st.sampled_from(["x1", "x1y", "x", "1", "xy1", "y", "é1"])),
    ),
    max_size=8,
    unique=True,
)


@settings(max_examples=200, deadline=None)
@given(keys, keys)
def test_grouped_relaxed_equals_brute_force(truth: list[Any], got: list[Any]) -> None:
    assert relaxed_pairs(truth, got) == brute_force_relaxed(truth, got)


@settings(max_examples=150, deadline=None)
@given(graphs(), graphs(), st.sampled_from(["auto", "on", "off"]), st.booleans())
def test_rung_invariants(truth: GraphData, got: GraphData, mode: str, with_source: bool) -> None:
    report = evaluate_graphs(
        truth, got, IDS, root_class="Root", align_mode=mode,  # type: ignore[arg-type]
        source_text="x1 red ab" if with_source else None,
    )  # fmt: skip
    for metrics in report["nodes"].values():
        rungs = [metrics[r] for r in ("strict", "relaxed", "aligned") if r in metrics]
        sizes = {(m["tp"] + m["fn"], m["tp"] + m["fp"]) for m in rungs}
        assert len(sizes) == 1  # every rung sees the same truth and extracted keys
        assert [m["tp"] for m in rungs] == sorted(m["tp"] for m in rungs)
    pairs = report["structural_alignment"]["pairs"]
    assert len({(p["class"], p["truth"]) for p in pairs}) == len(pairs)
    assert len({(p["class"], p["extracted"]) for p in pairs}) == len(pairs)
    assert all(p["score"] == "singleton-root" or p["score"] >= 1.0 for p in pairs)
    if mode == "off":
        assert pairs == [] and "aligned" not in report["micro"]["nodes"]
    for side in ("nodes", "edges"):
        micro = report["micro"][side]["strict"]
        section = report[side]
        assert micro["tp"] == sum(m["strict"]["tp"] for m in section.values())


values = st.one_of(
    st.sampled_from(
        ["", "abc", "abcd", "xabcdx", "Abcd ", "- abcd", "long text " * 5, "long text " * 4]
    ),
    st.integers(0, 3),
    st.lists(st.sampled_from(["a", "B", "", "abcd"]), max_size=3),
    st.none(),
)
attributes = st.dictionaries(st.sampled_from(["f", "g", "h"]), values, max_size=3)


@settings(max_examples=200, deadline=None)
@given(st.lists(attributes, max_size=6), st.lists(attributes, max_size=6))
def test_indexed_alignment_equals_all_pairs(truth_attrs: list[Any], got_attrs: list[Any]) -> None:
    truth = {("C", (f"t{i}",)): a for i, a in enumerate(truth_attrs)}
    got = {("C", (f"g{i}",)): a for i, a in enumerate(got_attrs)}
    all_pairs = structural_pairs(list(truth), list(got), truth, got, {"C"}, brute_force_pairs=10**9)
    for cells in (1, 7, 10**6):  # a band of one row, a few rows, the whole class
        indexed = structural_pairs(
            list(truth), list(got), truth, got, {"C"}, brute_force_pairs=0, dense_cells=cells
        )
        assert indexed == all_pairs


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="ab01é", max_size=6), max_size=30),
    st.text(alphabet="ab01é", min_size=0, max_size=300),
)
def test_bulk_containment_is_exact(needles: list[str], text: str) -> None:
    from parsescore.graph import canon

    long_text = text * 50
    # Needles longer than the 32-character hash prefix: real slices, and slices with one change.
    for start in range(0, max(1, len(long_text) - 70), 97):
        piece = long_text[start : start + 40 + start % 30]
        needles += [piece, piece[:-1] + "é", "b" + piece]
    expected = [needle in long_text for needle in needles]
    bulk, table = canon._BULK_MIN_WORK, canon._TABLE_MAX
    canon._BULK_MIN_WORK = 0  # force the bulk paths on small inputs
    try:
        assert canon.contained_in(needles, long_text) == expected  # short needles: tables
        canon._TABLE_MAX = 0
        assert canon.contained_in(needles, long_text) == expected  # every needle hashed
    finally:
        canon._BULK_MIN_WORK, canon._TABLE_MAX = bulk, table


_TEXT = st.text(alphabet=st.sampled_from(list("aB1 -•*+_\t\n\u00a0\u2003ßÉé\u0301ﬁK\u212a.|")))


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_text_forms_equal_their_regex_definitions(text: str) -> None:
    """loose_text and squash are written for speed; these are the rules they implement."""
    import re
    import unicodedata

    from parsescore.graph.canon import canonical_identity_value, drop_accents, loose_text

    plain = unicodedata.normalize("NFKD", text)
    plain = re.sub(r"(?<!\S)[-•*+]+(?=\S)", "", plain)
    assert loose_text(text) == re.sub(r"\s+", " ", plain).casefold().strip()
    assert squash(text) == re.sub(r"[^a-z0-9]+", "", text.casefold())
    decomposed = unicodedata.normalize("NFKD", text)
    assert drop_accents(text) == "".join(c for c in decomposed if not unicodedata.combining(c))
    stripped = unicodedata.normalize("NFKD", text.strip())
    expected = re.sub(r"[^a-z0-9]", "", stripped.casefold()) if text.strip() else ""
    assert canonical_identity_value("code", text) == expected


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("Thea AnsS's\u2019_-\té")), max_size=14))
def test_entity_names_follow_their_rule(text: str) -> None:
    """normalise_entity_name takes shortcuts (one check for all articles, none for possessives
    when there is no 's'); this is the rule it implements."""
    import re

    from parsescore.graph.canon import drop_accents, normalise_entity_name

    plain = drop_accents(text).strip()
    for article in ("The ", "the ", "A ", "a ", "An ", "an "):
        if plain.startswith(article):
            plain = plain[len(article) :].strip()
            break
    words = [re.sub("('|\u2019)s$", "", w) for w in re.split(r"[\s_\-]+", plain)]
    bare = plain in {"The", "the", "A", "a", "An", "an"}
    expected = "" if bare else "_".join(w for w in words if w).upper()
    assert normalise_entity_name(text) == expected


def plain_structural_pairs(truth: dict[Any, Any], got: dict[Any, Any]) -> list[Any]:
    """The rule as the spec states it: score every same-class pair, sort best first (ties in
    truth then extracted order), take pairs greedily one to one."""
    truth_keys, got_keys = list(truth), list(got)
    scored = [
        (score, i, j)
        for i, a in enumerate(truth_keys)
        for j, b in enumerate(got_keys)
        if a[0] == b[0] and (score := pair_score(truth[a], got[b])) >= 1.0
    ]
    scored.sort(key=lambda c: (-c[0], c[1], c[2]))
    used_t: set[int] = set()
    used_g: set[int] = set()
    pairs = []
    for score, i, j in scored:
        if i not in used_t and j not in used_g:
            used_t.add(i)
            used_g.add(j)
            pairs.append((truth_keys[i], got_keys[j], score))
    return pairs


tied_attributes = st.dictionaries(
    st.sampled_from(["u", "v", "w"]), st.sampled_from(["EA", "KG", "abcd", "xabcdx", 1]), max_size=3
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["C", "D"]), tied_attributes), max_size=10),
    st.lists(st.tuples(st.sampled_from(["C", "D"]), tied_attributes), max_size=10),
)
def test_grouped_greedy_equals_plain_greedy(truth_nodes: list[Any], got_nodes: list[Any]) -> None:
    """Many tied scores (the shape of a big class where a unit or a category is shared)."""
    truth = {(cls, (f"t{i}",)): a for i, (cls, a) in enumerate(truth_nodes)}
    got = {(cls, (f"g{i}",)): a for i, (cls, a) in enumerate(got_nodes)}
    expected = plain_structural_pairs(truth, got)
    for limit, cells in ((0, 1), (0, 10**6), (10**9, 10**6)):
        ours = structural_pairs(
            list(truth), list(got), truth, got, {"C", "D"}, brute_force_pairs=limit,
            dense_cells=cells,
        )  # fmt: skip
        assert ours == expected


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=8),
        st.one_of(st.text(max_size=12), st.lists(st.text(max_size=6), max_size=3).map(tuple)),
        max_size=4,
    )
)
def test_text_fingerprint_is_the_json_encoding(data: dict[str, Any]) -> None:
    """Node ids hash this text: it must be the encoder's text exactly (accents, quotes,
    control characters, surrogates, key order, tuples as lists)."""
    assert _text_fingerprint(data) == _FINGERPRINT_JSON.encode(data)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab0\U0001f600", min_size=4, max_size=9), unique=True),
    st.lists(st.text(alphabet="ab0\U0001f600", min_size=4, max_size=14), unique=True),
)
def test_containment_by_rarest_window_equals_every_pair(
    needles: list[str], texts: list[str]
) -> None:
    from parsescore.graph.evaluate import _contained, _Windows

    expected = sorted(
        (i, j)
        for i, needle in enumerate(needles)
        for j, text in enumerate(texts)
        if needle != text and needle in text
    )
    assert sorted(_contained(_Windows(needles), _Windows(texts))) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["A", "B", "C"]),
            st.tuples(st.sampled_from(["", "ab", "abc", "x1y", "zzz9", "b_c"])),
        ),
        max_size=12,
    ),
    st.text(alphabet="abcxyz19 ", max_size=40),
)
def test_synthetic_detection_equals_looking_every_key_up(keys: list[Any], source: str) -> None:
    """Batch by batch, only for undecided classes: the plain rule's answer."""
    from parsescore.graph.evaluate import detect_synthetic_classes

    squashed_source = squash(source)
    assert detect_synthetic_classes(keys, squashed_source) == _synthetic_by_plain_rule(
        keys, squashed_source
    )


def _synthetic_by_plain_rule(keys: list[Any], squashed_source: str) -> set[str]:
    found: dict[str, list[bool]] = {}
    for cls, values in keys:
        candidates = [squash(v) for v in values if v and len(squash(v)) >= 3]
        found.setdefault(cls, []).append(any(c in squashed_source for c in candidates))
    return {cls for cls, hits in found.items() if sum(hits) / len(hits) < 0.5}


_ID_VALUE = st.text(alphabet="abc12_É", min_size=0, max_size=30)


@st.composite
def _keys_and_source(draw: st.DrawFn) -> tuple[list[Any], str]:
    """A squashed source and keys of two values each, many of them cut from the source."""
    source = squash(draw(st.text(alphabet="abc12 _", max_size=200))) * 3

    def value() -> str:
        if source and draw(st.booleans()):
            start = draw(st.integers(0, len(source) - 1))
            return source[start : start + draw(st.integers(0, 30))]
        return draw(_ID_VALUE)

    classes = st.sampled_from(["A", "B", "C"])
    keys = [(draw(classes), (value(), value())) for _ in range(draw(st.integers(1, 40)))]
    return keys, source


@settings(max_examples=200, deadline=None)
@given(_keys_and_source())
def test_synthetic_detection_in_batches_equals_the_plain_rule(
    keys_and_source: tuple[list[Any], str],
) -> None:
    """With the source index's passes forced on small inputs: tables and several hash windows
    (values of 3 to 30 characters, two per key), classes decided early or late."""
    from parsescore.graph import canon
    from parsescore.graph.evaluate import detect_synthetic_classes

    keys, squashed_source = keys_and_source
    expected = _synthetic_by_plain_rule(keys, squashed_source)
    bulk, table = canon._BULK_MIN_WORK, canon._TABLE_MAX
    canon._BULK_MIN_WORK = 0
    try:
        assert detect_synthetic_classes(keys, squashed_source) == expected
        canon._TABLE_MAX = 0
        assert detect_synthetic_classes(keys, squashed_source) == expected
    finally:
        canon._BULK_MIN_WORK, canon._TABLE_MAX = bulk, table
