"""``parsescore demo``: evaluate the bundled example data of every kind, write a report folder.

Each kind with a demo (:attr:`parsescore.core.kinds.Kind.demo`) writes its files under
``out_dir/<kind>/`` and returns a Markdown section for the index and the results the HTML
report shows. The index is made inert (:func:`parsescore.core.markdown.inert_markdown`): no text
in it renders as HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from parsescore.cli.common import announce
from parsescore.cli.common import console as command_console
from parsescore.core.files import write_text
from parsescore.core.kinds import kinds
from parsescore.core.markdown import inert_markdown
from parsescore.core.results import Result

__all__ = ["DEMO_FILES", "run_demo", "write_demo_results"]

#: The names every kind's demo folder uses for its results, as ``parsescore run`` names them:
#: the kind's own document (what ``--out`` writes) and the envelope (``--result``).
DEMO_FILES = ("scores.json", "result.json")


def write_demo_results(out_dir: Path, results: Sequence[Result], native: Any = None) -> list[Path]:
    """Write a kind demo's results under the one naming of every kind: ``scores.json`` (the
    kind's ``--out`` document: ``native``, else the one result's; several systems and no
    combined ``native``: ``scores.<system>.json``) and ``result.json`` (the envelope; several
    systems: ``result.<system>.json``, as ``--result`` names them)."""
    from parsescore.cli.common import per_system_paths, write_files

    names = [r.name.rpartition(":")[2] for r in results]  # "sequence:model_a" -> "model_a"
    scores, envelope = (Path(out_dir) / name for name in DEMO_FILES)
    named = [replace(r, name=n) for r, n in zip(results, names, strict=True)]
    if native is None and len(results) > 1:  # no combined document: one per system
        written = []
        for result, path in zip(named, per_system_paths(scores, names), strict=True):
            written += write_files([result], out=path)
        return written + write_files(named, result=envelope, names=names, named=True)
    return write_files(named, out=scores, native=native, result=envelope, names=names, named=True)


def run_demo(out_dir: Path) -> Path:
    """Run every kind's demo into ``out_dir/<kind>/`` and write ``out_dir/index.md`` and the
    HTML report ``out_dir/report/index.html``."""
    console = command_console()
    sections = ["# parsescore demo report\n"]
    results: list[Result] = []
    for kind in kinds():
        if kind.demo is None:
            continue
        console.rule(f"[bold]{kind.name}")
        output = kind.demo(out_dir / kind.name)
        sections.append(output.section)
        results.extend(output.results)
    if results:
        from parsescore.report import write_report

        write_report(results, out_dir / "report")
        sections.append("## HTML report\n\n[report/index.html](report/index.html)\n")
    index = out_dir / "index.md"
    # no answer text in a kind's section may render as HTML in a Markdown viewer
    write_text(index, inert_markdown("\n".join(sections)))
    start = out_dir / "report" / "index.html" if results else index
    announce(console, f"{out_dir} (open {start})")
    return index
