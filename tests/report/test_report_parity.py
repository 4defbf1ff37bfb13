"""The report's numbers agree with the kinds' own: Figure 6/7 with the sequence kind's plot
data, the comparison with ``parsescore compare``'s, the drill-down differences with the
sequence kind's ``differences.csv``."""

from __future__ import annotations

import math

from parsescore.core.compare import compare_results
from parsescore.core.results import load_results
from parsescore.report import ReportOptions, load_report_systems, render_report
from parsescore.sequence.report_html import figure67_rates


def test_figure67_equals_the_sequence_kinds_plot_data(tmp_path):
    from parsescore.sequence.cli import run_models
    from parsescore.sequence.demo import DEMO_DATA
    from parsescore.sequence.options import SequenceOptions
    from parsescore.sequence.report import bin_error_rates

    out = tmp_path / "results.json"
    results = run_models(
        DEMO_DATA / "truth",
        [DEMO_DATA / "model_a", DEMO_DATA / "model_b"],
        SequenceOptions(report=tmp_path, quiet=True),
        out=out,
    )
    models = [result.computed for result in results]
    systems = load_report_systems([out])
    assert len(systems) == len(models) == 2
    for model, system in zip(models, systems, strict=True):
        ours, theirs = figure67_rates(system), bin_error_rates(model)
        assert ours.keys() == theirs.keys()
        for category in theirs:
            for label, value in theirs[category].items():
                if math.isnan(value):
                    assert math.isnan(ours[category][label])
                else:
                    assert ours[category][label] == value
        # every counted difference of the kind's CSV is in the system's drill-down data
        counted = sum(len(f.differences) for f in model.files)
        details = system.result.details.values()
        assert sum(len(detail["differences"]) for detail in details) == counted
        assert counted > 0


def test_comparison_equals_parsescore_compare(demo_results):
    sequence = demo_results[2]
    options = ReportOptions(n_resamples=500, n_permutations=500)
    page = render_report(load_report_systems([sequence]), options)
    expected = compare_results(
        load_results(sequence), metrics=["error_rate"], n_resamples=500, n_permutations=500
    )
    d = expected.metrics["error_rate"].differences[0]
    assert f"{d.mean_difference:+.4f}" in page
    assert f"[{d.ci_low:+.4f}, {d.ci_high:+.4f}]" in page
    summary = expected.metrics["error_rate"].systems["scores:model_a"]
    assert f"[{summary.ci_low:.4f}, {summary.ci_high:.4f}]" in page
