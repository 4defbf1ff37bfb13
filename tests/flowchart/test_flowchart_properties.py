"""Properties of the flowchart benchmark (hypothesis), and exactness against the dense MILP."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from fc_helpers import Option, benchmark
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from flowchart_dense_baseline import dense_lexicographic_optimum

TEXTS = ["Lost to follow-up", "Lost to follow-up", "Excluded (n = 2)", "Analysed", "Randomised"]
LABELS = ["Intervention", "Control", "Week 12"]


@st.composite
def flowcharts(draw: st.DrawFn) -> tuple[Option, dict[str, Any]]:
    """A ground-truth option and a noisy, renumbered prediction of it."""
    n = draw(st.integers(2, 7))
    texts = [draw(st.sampled_from(TEXTS)) for _ in range(n)]
    edges = {(draw(st.integers(1, i)), i + 1) for i in range(1, n)}  # every node in the flow
    edges |= {
        (a, b)
        for a, b in draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=n))
        if a != b
    }
    labels = [draw(st.lists(st.sampled_from(LABELS), max_size=2, unique=True)) for _ in range(n)]
    truth = Option(texts, sorted(edges), labels=labels, additional_texts=["Figure 1"])

    keep = [i for i in range(n) if draw(st.booleans()) or i == 0]
    numbers = draw(
        st.lists(st.integers(1, 999), min_size=len(keep), max_size=len(keep), unique=True)
    )
    number_of = dict(zip(keep, numbers, strict=True))
    nodes = []
    for i in keep:
        text = (
            texts[i]
            if draw(st.booleans())
            else texts[i] + draw(st.sampled_from(["", "s", " (n = 1)"]))
        )
        targets = sorted({number_of[b - 1] for a, b in edges if a == i + 1 and b - 1 in number_of})
        if draw(st.booleans()) and len(keep) > 1:
            targets = sorted(
                set(targets) | {number_of[draw(st.sampled_from(keep))]} - {number_of[i]}
            )
        node_labels = labels[i] if draw(st.booleans()) else labels[i][:1]
        nodes.append(
            {"node_number": number_of[i], "text": text, "labels": node_labels, "points_to": targets}
        )
    extra = draw(st.sampled_from(["", "Withdrew consent"]))
    if extra:
        nodes.append(
            {
                "node_number": 1000 - 1 - len(nodes) if 999 not in numbers else 1,
                "text": extra,
                "labels": [],
                "points_to": [],
            }
        )
        if len({n["node_number"] for n in nodes}) != len(nodes):
            nodes.pop()
    return truth, {"nodes": nodes, "additional_texts": ["Figure 1"]}


def scores(bench: Any) -> tuple:
    flow = bench.all_flow_scores()[0]
    return (
        bench.total_node_text_cost(),
        bench.total_label_cost(),
        bench.total_additional_text_cost(),
        flow.tp,
        flow.fp,
        flow.fn,
        flow.jaccard,
        bench.node_matches()[0].true_diagram_option_idx,
    )


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(flowcharts(), st.randoms(use_true_random=False))
def test_renumbering_predicted_nodes_changes_no_score(case: tuple, rnd: Any) -> None:
    truth, pred = case
    numbers = [n["node_number"] for n in pred["nodes"]]
    new_numbers = rnd.sample(range(0, 1000), len(numbers))
    remap = dict(zip(numbers, new_numbers, strict=True))
    renumbered = {
        "nodes": [
            {
                **n,
                "node_number": remap[n["node_number"]],
                "points_to": [remap[t] for t in n["points_to"]],
            }
            for n in reversed(pred["nodes"])
        ],
        "additional_texts": pred["additional_texts"],
    }
    with tempfile.TemporaryDirectory() as tmp:
        a = scores(benchmark(Path(tmp) / "a", {"d": [truth]}, {"d": pred}))
        b = scores(benchmark(Path(tmp) / "b", {"d": [truth]}, {"d": renumbered}))
    assert a == b


@SETTINGS
@given(flowcharts(), st.integers(0, 1))
def test_prediction_equal_to_an_option_scores_perfectly(case: tuple, which: int) -> None:
    truth, _noisy = case
    other = Option(
        [*truth.texts[:1], "Something else"], [(1, 2)], labels=[[], []], additional_texts=["x"]
    )
    options = [truth, other] if which == 0 else [other, truth]
    exact = {
        "nodes": [
            {
                "node_number": i + 1,
                "text": t,
                "labels": truth.labels[i],
                "points_to": [b for a, b in truth.edges if a == i + 1],
            }  # type: ignore[index]
            for i, t in enumerate(truth.texts)
        ],
        "additional_texts": truth.additional_texts,
    }
    with tempfile.TemporaryDirectory() as tmp:
        bench = benchmark(Path(tmp), {"d": options}, {"d": exact})
        assert bench.total_node_text_cost() == 0
        assert bench.total_label_cost() == 0
        assert bench.total_additional_text_cost() == 0
        assert bench.avg_flow_jaccard() == 1.0
        assert bench.diagram_matches()[0].true_diagram.true_option_idx == which


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flowcharts())
def test_same_optimum_as_the_dense_reference_formulation(case: tuple) -> None:
    """Our reduced model reaches the dense two-stage MILP's lexicographic optimum."""
    truth, pred = case
    index = {
        n["node_number"]: k
        for k, n in enumerate(sorted(pred["nodes"], key=lambda n: n["node_number"]))
    }
    nodes = sorted(pred["nodes"], key=lambda n: n["node_number"])
    dense = dense_lexicographic_optimum(
        truth.texts,
        [n["text"] for n in nodes],
        [(a - 1, b - 1) for a, b in truth.edges],
        [(index[n["node_number"]], index[t]) for n in nodes for t in n["points_to"]],
        truth.labels,  # type: ignore[arg-type]
        [n["labels"] for n in nodes],
    )
    with tempfile.TemporaryDirectory() as tmp:
        bench = benchmark(Path(tmp), {"d": [truth]}, {"d": pred})
        ours = (
            bench.total_node_text_cost(),
            bench.all_flow_scores()[0].tp,
            bench.total_label_cost(),
        )
    assert ours == dense


def test_all_identical_texts_reach_the_dense_optimum() -> None:
    """The hardest case: every text equal, so flow and labels alone decide the matching."""
    import random

    rng = random.Random(7)
    n = 8
    edges = sorted({(rng.randint(1, i), i + 1) for i in range(1, n)} | {(1, n), (3, 5)})
    labels = [[rng.choice("AB")] for _ in range(n)]
    truth = Option(["Same"] * n, edges, labels=labels)
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    pred_edges = {(perm[a - 1], perm[b - 1]) for a, b in edges[1:]} | {(perm[0], perm[1])}
    pred_nodes = [
        {
            "node_number": perm[i],
            "text": "Same",
            "labels": labels[i] if i % 3 else [],
            "points_to": sorted(b for a, b in pred_edges if a == perm[i]),
        }
        for i in range(n)
    ]
    nodes = sorted(pred_nodes, key=lambda node: node["node_number"])
    index = {node["node_number"]: k for k, node in enumerate(nodes)}
    dense = dense_lexicographic_optimum(
        truth.texts,
        [node["text"] for node in nodes],
        [(a - 1, b - 1) for a, b in edges],
        [(index[node["node_number"]], index[t]) for node in nodes for t in node["points_to"]],
        labels,
        [node["labels"] for node in nodes],
    )
    with tempfile.TemporaryDirectory() as tmp:
        bench = benchmark(Path(tmp), {"d": [truth]}, {"d": {"nodes": pred_nodes}})
        ours = (
            bench.total_node_text_cost(),
            bench.all_flow_scores()[0].tp,
            bench.total_label_cost(),
        )
    assert ours == dense


def _symmetric_case(n: int, shape: str, seed: int, noise: bool) -> tuple[Option, dict[str, Any]]:
    """Identical texts and labels on a symmetric or random flow, renumbered (maybe noisy)."""
    import random

    rng = random.Random(seed)
    if shape == "cycle":
        edges = [(i, i % n + 1) for i in range(1, n + 1)]
    elif shape == "star":
        edges = [(1, i) for i in range(2, n + 1)]
    elif shape == "tree":
        edges = [((i - 2) // 2 + 1, i) for i in range(2, n + 1)]
    else:
        chosen = {(rng.randint(1, i - 1), i) for i in range(2, n + 1)}
        while len(chosen) < 2 * n:
            a, b = rng.randint(1, n), rng.randint(1, n)
            if a != b:
                chosen.add((a, b))
        edges = sorted(chosen)
    truth = Option(["Same"] * n, edges, labels=[["L"]] * n)
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    pred_edges = [(perm[a - 1], perm[b - 1]) for a, b in edges]
    if noise:
        pred_edges = pred_edges[1:]
        while len(pred_edges) < len(edges):
            a, b = rng.randint(1, n), rng.randint(1, n)
            if a != b and (a, b) not in pred_edges:
                pred_edges.append((a, b))
    nodes = [
        {
            "node_number": perm[i],
            "text": "Same",
            "labels": ["L"],
            "points_to": sorted(b for a, b in pred_edges if a == perm[i]),
        }
        for i in range(n)
    ]
    return truth, {"nodes": nodes}


def _dense_and_ours(truth: Option, pred: dict[str, Any]) -> tuple[tuple, tuple]:
    nodes = sorted(pred["nodes"], key=lambda node: node["node_number"])
    index = {node["node_number"]: k for k, node in enumerate(nodes)}
    dense = dense_lexicographic_optimum(
        truth.texts,
        [node["text"] for node in nodes],
        [(a - 1, b - 1) for a, b in truth.edges],
        [(index[node["node_number"]], index[t]) for node in nodes for t in node["points_to"]],
        truth.labels,  # type: ignore[arg-type]
        [node["labels"] for node in nodes],
    )
    with tempfile.TemporaryDirectory() as tmp:
        bench = benchmark(Path(tmp), {"d": [truth]}, {"d": pred})
        ours = (
            bench.total_node_text_cost(),
            bench.all_flow_scores()[0].tp,
            bench.total_label_cost(),
        )
    return ours, dense


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(3, 8),
    st.sampled_from(["cycle", "star", "tree", "random"]),
    st.integers(0, 10**6),
    st.booleans(),
)
def test_identical_texts_and_symmetric_flows_reach_the_dense_optimum(
    n: int, shape: str, seed: int, noise: bool
) -> None:
    """The structural fast path (and the MILP behind it) keeps the dense model's optimum."""
    ours, dense = _dense_and_ours(*_symmetric_case(n, shape, seed, noise))
    assert ours == dense


def test_sixty_identical_nodes_with_an_isomorphic_flow_need_no_milp(monkeypatch: Any) -> None:
    """Identical texts and labels, a renumbered copy: proved optimal without any MILP."""
    import parsescore.flowchart.match as match

    def no_milp(*args: object, **kwargs: object) -> None:
        raise AssertionError("the MILP was called")

    monkeypatch.setattr(match, "solve_binary_milp", no_milp)
    for shape in ("cycle", "star", "tree", "random"):
        truth, pred = _symmetric_case(60, shape, 3, noise=False)
        with tempfile.TemporaryDirectory() as tmp:
            bench = benchmark(Path(tmp), {"d": [truth]}, {"d": pred})
            flow = bench.all_flow_scores()[0]
            assert (flow.tp, flow.fp, flow.fn) == (len(truth.edges), 0, 0)
            assert bench.total_label_cost() == 0
