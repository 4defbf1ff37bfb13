"""Fuzz the collection loaders: any JSON either loads as {name: html} or fails with an
InputError naming the file; never another exception."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.table.batch import evaluate_tables
from parsescore.table.inputs import load_tables

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(value=json_values, suffix=st.sampled_from([".json", ".jsonl"]))
def test_loader_accepts_or_names_the_file(value: object, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"tables{suffix}"
        path.write_text(json.dumps(value), encoding="utf-8")
        try:
            tables = load_tables(path)
        except InputError as exc:
            assert str(path) in str(exc)
            return
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in tables.items())


@settings(max_examples=40, deadline=None)
@given(pred=st.text(max_size=80))
def test_batch_on_arbitrary_predictions(pred: str) -> None:
    """A prediction that is any string scores in [0, 1] or fails with an InputError."""
    truth = {"t": "<html><body><table><tr><td>a</td><td>b</td></tr></table></body></html>"}
    try:
        result = evaluate_tables(truth, {"t": pred}, pred_path="pred.json")
    except InputError as exc:
        assert "pred.json (key 't')" in str(exc)
        return
    for name in result.metric_names():
        low = -1.0 if name.startswith("TEDS") else 0.0  # TEDS is not clamped (reference)
        assert low <= result.mean(name) <= 1.0
