"""``parsescore schema KIND``: print (or write) the JSON Schema of a result document."""

# no ``from __future__ import annotations``: the help text below is computed when the command
# is registered, and typer reads the annotation then.

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``schema`` subcommand to a typer app."""
    from parsescore.core.schema import schema_names

    @app.command("schema")
    def schema_command(
        kind: Annotated[
            str,
            typer.Argument(
                help=f"Which document: {', '.join(schema_names())}.",
                show_default=False,
                metavar="KIND",
            ),
        ],
        out: Annotated[
            Path | None, typer.Option("--out", help="Write the schema here instead of stdout.")
        ] = None,
    ) -> None:
        """Print the JSON Schema (draft 2020-12) of a document: a command's --out (KIND), the
        --result envelope (result) or anything load_result reads (any)."""
        from parsescore.cli.common import announce, console
        from parsescore.core.files import write_text
        from parsescore.core.schema import schema_json

        text = schema_json(kind)  # an unknown KIND is an InputError naming the known ones
        if out is None:
            typer.echo(text, nl=False)
        else:
            write_text(out, text)
            announce(console(), out)
