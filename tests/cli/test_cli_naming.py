"""One naming for every kind (issue 28, item 5): the demo's file names, ``--pred``, and a short
``repr(Result)``. Every check iterates the kind registry, so a new kind is held to it too."""

from __future__ import annotations

import pytest

from parsescore.core.demo import DEMO_FILES, run_demo
from parsescore.core.kinds import kinds
from parsescore.core.results import load_result


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("demo")
    run_demo(out)
    return out


@pytest.mark.parametrize("kind", [k for k in kinds() if k.demo is not None], ids=lambda k: k.name)
def test_every_kinds_demo_writes_scores_and_result_under_the_same_names(kind, demo):
    folder = demo / kind.name
    scores, envelope = DEMO_FILES
    stem = scores.removesuffix(".json")
    assert sorted(folder.glob(f"{stem}*.json")), f"{kind.name}: no {scores}"  # or per system
    envelopes = sorted(folder.glob("result*.json"))
    assert envelopes, f"{kind.name}: no {envelope}"
    for path in envelopes:
        loaded = load_result(path)
        assert loaded.kind == kind.name and loaded.items
    # no other name for the same thing
    for old in ("results.json", "envelope.json", "eval.json"):
        assert not (folder / old).exists(), f"{kind.name} still writes {old}"


@pytest.mark.parametrize(
    "kind", [k for k in kinds() if k.command is not None], ids=lambda k: k.name
)
def test_every_kind_command_takes_pred_and_shows_no_other_name(kind, cli):
    shown = cli(kind.name, "--help").out
    assert "--pred" in shown
    for old in kind.command.pred_flags:
        assert old not in shown  # accepted (below), not advertised


def test_graphs_old_name_for_pred_still_works_and_both_together_is_an_error(cli, tmp_path):
    from parsescore.graph.demo import DEMO_DIR

    common = ("--truth", DEMO_DIR / "truth.json", "--template", f"{DEMO_DIR}/library_template.py")
    template = (*common[:3], f"{common[3]}:Library")
    new = cli("graph", "--pred", DEMO_DIR / "graph.json", *template, "--out", tmp_path / "a.json")
    old = cli("graph", "--graph", DEMO_DIR / "graph.json", *template, "--out", tmp_path / "b.json")
    assert new.code == old.code == 0, new.err + old.err
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    both = cli("graph", "--pred", DEMO_DIR / "graph.json", "--graph", DEMO_DIR / "graph.json",
               *template)  # fmt: skip
    assert both.code == 2 and both.err.startswith("error: give --pred once")
    none = cli("graph", *template)
    assert none.code == 2 and both.err.count("\n") == 1
    assert none.err.startswith("error: missing option --pred")


@pytest.mark.parametrize("kind", [k for k in kinds() if k.demo is not None], ids=lambda k: k.name)
def test_repr_of_a_result_is_one_short_line_with_the_headline_totals(kind, demo):
    result = load_result(sorted((demo / kind.name).glob("result*.json"))[0])
    shown = repr(result)
    assert "\n" not in shown and len(shown) < 400
    assert shown.startswith(f"Result(kind={kind.name!r}, name={result.name!r}, ")
    assert f"items={len(result.items)}" in shown
    headline = [m for m in kind.headline_totals() if m.name in result.totals]
    assert headline, f"{kind.name}: its result carries no headline total"
    for metric in headline:
        assert f"{metric.name}={metric.show(result.totals[metric.name])}" in shown
