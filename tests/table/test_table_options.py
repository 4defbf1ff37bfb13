"""Named variants: PubTabNet/OmniDocBench denominator and the opt-in HTML normalisation."""

from __future__ import annotations

import pytest
from apted import APTED
from lxml import html
from table_helpers import wrap
from table_recognition_metric import TEDS as ReferenceTEDS
from table_recognition_metric.utils import CustomConfig

from parsescore.shared.tables.normalise import normalise_html
from parsescore.table import TEDS
from parsescore.table.synthetic import random_pair


def _pubtabnet_score(gt: str, pred: str, structure_only: bool = False) -> float:
    """PubTabNet's formula built from the reference's own pieces: APTED distance over
    ``max(len(table.xpath('.//*')))``."""
    reference = ReferenceTEDS(structure_only=structure_only)
    parser = html.HTMLParser(remove_comments=True, encoding="utf-8")
    tables = [html.fromstring(t, parser=parser).xpath("body/table")[0] for t in (gt, pred)]
    trees = [reference.load_html_tree(t) for t in tables]
    distance = APTED(trees[0], trees[1], CustomConfig()).compute_edit_distance()
    return 1.0 - distance / max(len(t.xpath(".//*")) for t in tables)


@pytest.mark.parametrize("seed", range(12))
def test_all_descendants_denominator(seed: int) -> None:
    gt, pred = random_pair(seed, 4 + seed % 4, 3, spans=True)
    for structure_only in (False, True):
        ours = TEDS(structure_only, denominator="all_descendants")(gt, pred)
        assert ours == pytest.approx(_pubtabnet_score(gt, pred, structure_only), abs=1e-12)


def test_denominators_differ_with_inline_tags() -> None:
    gt = wrap("<tr><td><b>a</b><i>c</i></td></tr>")
    pred = wrap("<tr><td>a</td></tr>")
    # tree nodes: table, tr, td = 3 both; descendants: tr, td, b, i = 4 and tr, td = 2.
    # distance: the cell tokens <b> a </b> <i> c </i> vs a → Levenshtein 5 of 6 = 5/6.
    reference = TEDS().detail(gt, pred)
    variant = TEDS(denominator="all_descendants").detail(gt, pred)
    assert (reference.denominator, variant.denominator) == (3, 4)
    assert reference.score == pytest.approx(1 - (5 / 6) / 3, abs=1e-15)
    assert variant.score == pytest.approx(1 - (5 / 6) / 4, abs=1e-15)
    assert reference.score == pytest.approx(ReferenceTEDS()(gt, pred), abs=1e-12)
    assert variant.score == pytest.approx(_pubtabnet_score(gt, pred), abs=1e-12)


def test_bad_denominator_name() -> None:
    with pytest.raises(ValueError, match="denominator"):
        TEDS(denominator="nodes")  # type: ignore[arg-type]


def test_normalisation_steps() -> None:
    raw = (
        '<div><table class="t" style="x"><colgroup><col></colgroup><thead><tr>'
        '<th width="3">Ａ１</th></tr></thead><tbody><tr><td align="c" colspan="2">a\n  <span>b'
        '</span><sup>2</sup><math alttext="x^2"><mi>x</mi></math></td></tr></tbody></table></div>'
    )
    assert normalise_html(raw) == (
        '<html><body><table><tr><td>A1</td></tr><tr><td colspan="2">a b2$x^2$</td></tr>'
        "</table></body></html>"
    )


def test_normalisation_is_opt_in() -> None:
    gt = wrap("<thead><tr><th>a</th></tr></thead>")
    pred = "<table><tr><td>a</td></tr></table>"
    assert TEDS()(gt, pred) == 0.0  # reference behaviour: bare table has no body/table
    assert TEDS(normalise=True)(gt, pred) == 1.0


def test_normalise_without_table_is_identity() -> None:
    assert normalise_html("<p>x</p>") == "<p>x</p>"
    assert normalise_html("") == ""
