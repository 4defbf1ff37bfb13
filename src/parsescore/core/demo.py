"""``parsescore demo``: evaluate the bundled example data of every kind, write a report folder.

Each kind with a demo (:attr:`parsescore.core.kinds.Kind.demo`) writes its files under
``out_dir/<kind>/`` and returns a Markdown section for the index and the results the HTML
report shows. The index is made inert (:func:`parsescore.core.markdown.inert_markdown`): no text
in it renders as HTML.
"""

from __future__ import annotations

from pathlib import Path

from parsescore.cli.common import announce
from parsescore.cli.common import console as command_console
from parsescore.core.files import write_text
from parsescore.core.kinds import kinds
from parsescore.core.markdown import inert_markdown
from parsescore.core.results import Result

__all__ = ["run_demo"]


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
