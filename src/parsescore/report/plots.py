"""Plots for the HTML report, as inline SVG text (matplotlib, Agg backend, imported lazily).

Every figure is rendered with a fixed ``svg.hashsalt`` (a different one per figure, so that the
element ids of several SVGs on one page never collide), no date in the metadata, text kept as
text (``svg.fonttype: none``) and mathtext off, so the same data give the same bytes and no
user text is ever interpreted as TeX.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["binned_lines_svg", "distribution_svg", "size_scatter_svg"]

_RC = {
    "svg.fonttype": "none",
    "text.parse_math": False,
    "font.size": 9,
    "axes.titlesize": 10,
    "figure.dpi": 100,
}


_FLIERS = {"markersize": 3, "alpha": 0.5}


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ImportError(
            "the report's plots need matplotlib: pip install 'parsescore[plot]' (or matplotlib)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _render(figure: Any, salt: str) -> str:
    """The figure as an ``<svg>`` element (no XML declaration), deterministic bytes."""
    import matplotlib
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    with matplotlib.rc_context({**_RC, "svg.hashsalt": salt}):  # type: ignore[dict-item]
        figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :].strip()


def _short(label: str, limit: int = 28) -> str:
    return label if len(label) <= limit else "…" + label[-(limit - 1) :]


def distribution_svg(
    metrics: Sequence[tuple[str, bool]],
    values: Mapping[str, Mapping[str, Sequence[float]]],
    *,
    salt: str,
    max_dots: int = 400,
) -> str:
    """Box plots with every item as a dot: one panel per metric, one box per system.

    ``metrics`` is ``[(metric, higher_is_better)]``; ``values[metric][system]`` the item values.
    With more than ``max_dots`` items in a box, only the box and its outliers are drawn (tens of
    thousands of dots would make the page slow and big).
    """
    plt = _pyplot()
    import matplotlib

    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        n = len(metrics)
        columns = min(n, 4)
        rows = math.ceil(n / columns)
        systems = list(dict.fromkeys(s for m, _ in metrics for s in values.get(m, {})))
        width = max(3.0, 0.9 * len(systems) + 1.4)
        figure, axes = plt.subplots(
            rows, columns, figsize=(width * columns, 2.6 * rows), squeeze=False
        )
        for k, (metric, higher) in enumerate(metrics):
            axis = axes[k // columns][k % columns]
            series = [list(values.get(metric, {}).get(s, [])) for s in systems]
            positions = [i + 1 for i, data in enumerate(series) if data]
            kept = [data for data in series if data]
            if kept:
                dots = all(len(data) <= max_dots for data in kept)
                axis.boxplot(
                    kept, positions=positions, widths=0.5, showfliers=not dots, flierprops=_FLIERS
                )
                for position, data in zip(positions, kept if dots else [], strict=False):
                    count = len(data)
                    offsets = [((j % 7) - 3) * 0.045 for j in range(count)]
                    axis.scatter([position + o for o in offsets], data, s=9, alpha=0.55, zorder=3)
            axis.set_xticks(range(1, len(systems) + 1))
            labels = [_short(s, 16) for s in systems]
            tilt = len(systems) > 2 or (len(systems) > 1 and max(map(len, labels)) > 10)
            axis.set_xticklabels(
                labels, rotation=25 if tilt else 0, ha="right" if tilt else "center"
            )
            axis.set_xlim(0.4, len(systems) + 0.6)
            axis.set_title(f"{metric} ({'higher' if higher else 'lower'} is better)")
            axis.grid(axis="y", alpha=0.3)
        for k in range(n, rows * columns):
            axes[k // columns][k % columns].set_visible(False)
        figure.tight_layout()
        return _render(figure, salt)


def size_scatter_svg(
    panels: Sequence[tuple[str, str]],
    points: Mapping[str, Mapping[str, Sequence[tuple[float, float]]]],
    *,
    xlabel: str,
    salt: str,
) -> str:
    """Error against item size (one dot per item): a panel per error measure, a colour per system.

    ``panels`` is ``[(key, title)]``; ``points[key][system]`` the ``(size, error)`` pairs.
    """
    plt = _pyplot()
    import matplotlib

    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        figure, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.4), squeeze=False)
        for axis, (key, title) in zip(axes[0], panels, strict=True):
            for system, pairs in points.get(key, {}).items():
                ordered = sorted(pairs)
                axis.plot(
                    [x for x, _ in ordered],
                    [y for _, y in ordered],
                    marker="o",
                    markersize=4,
                    linestyle="none",
                    alpha=0.75,
                    label=_short(system),
                )
            axis.set_title(title)
            axis.set_xlabel(xlabel)
            axis.grid(alpha=0.3)
        axes[0][-1].legend(fontsize=8)
        figure.tight_layout()
        return _render(figure, salt)


def binned_lines_svg(
    rates: Mapping[str, Mapping[str, Mapping[str, float]]],
    *,
    bins: Sequence[str],
    titles: Mapping[str, str],
    xlabel: str,
    ylabel: str,
    salt: str,
) -> str:
    """A measure by bin (e.g. error % by size bin), a panel per measure, one line per system.

    ``rates[measure][system][bin]`` (NaN where a system has no item in the bin).
    """
    plt = _pyplot()
    import matplotlib

    labels = list(bins)
    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        figure, axes = plt.subplots(1, len(rates), figsize=(4.4 * len(rates), 3.4), squeeze=False)
        for axis, (category, by_model) in zip(axes[0], rates.items(), strict=True):
            for model, by_bin in by_model.items():
                axis.plot(
                    labels,
                    [by_bin.get(label, math.nan) for label in labels],
                    marker="o",
                    label=_short(model),
                )
            axis.set_title(titles.get(category, category))
            axis.set_xlabel(xlabel)
            axis.grid(alpha=0.3)
        axes[0][0].set_ylabel(ylabel)
        axes[0][-1].legend(fontsize=8)
        figure.tight_layout()
        return _render(figure, salt)
