"""``parsescore predict``, ``parsescore run`` and ``parsescore prompt``.

``register(app)`` adds them to the main app, for every kind with predict parts
(:attr:`parsescore.core.kinds.Kind.predict`). The openai client, and the kinds' scoring code, are
imported only when a command runs, so ``--help`` is instant and the scoring commands work without
the ``predict`` extra.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsescore.core.errors import InputError
from parsescore.core.kinds import kinds

if TYPE_CHECKING:
    from rich.console import Console

    from parsescore.core.results import Result
    from parsescore.predict.engine import PredictOptions, PredictSummary

__all__ = ["register", "run_images"]


class OnExistingChoice(StrEnum):
    error = "error"
    resume = "resume"
    overwrite = "overwrite"


ImagesOption = Annotated[
    Path, typer.Option("--images", help="Folder of .png/.jpg/.jpeg images (not recursive).")
]
ModelOption = Annotated[str, typer.Option("--model", help="Model name the server knows.")]
BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url", help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 (vLLM)."
    ),
]
ApiKeyEnvOption = Annotated[
    str, typer.Option("--api-key-env", help="Environment variable holding the API key.")
]
ConcurrencyOption = Annotated[int, typer.Option("--concurrency", help="Requests in flight.")]
OnExistingOption = Annotated[
    OnExistingChoice,
    typer.Option(
        "--on-existing", help="When --out holds an earlier run: error, resume or overwrite."
    ),
]
CaptionsOption = Annotated[
    Path | None,
    typer.Option("--captions", help="Captions: JSON {image: caption} or CSV image,caption."),
]
PromptOption = Annotated[
    Path | None,
    typer.Option("--prompt", help="Prompt template file ({caption}, {stem}); see `prompt`."),
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        help="Seconds one request may take as a whole (a slow or trickling answer is cut).",
    ),
]
RetriesOption = Annotated[
    int, typer.Option("--max-retries", help="Retries on 429, 5xx, timeouts, lost connections.")
]
StructuredOption = Annotated[
    bool,
    typer.Option(
        "--structured-output/--no-structured-output",
        help="Kinds with a structured-output format: ask for answers following it (off for "
        "servers without response_format support).",
    ),
]
TemperatureOption = Annotated[
    float | None, typer.Option("--temperature", help="Sampling temperature (default: server's).")
]
MaxTokensOption = Annotated[
    int | None, typer.Option("--max-tokens", help="Answer length limit (default: server's).")
]
RetryBaseOption = Annotated[
    float, typer.Option("--retry-base", hidden=True, help="First backoff in seconds.")
]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No progress bar.")]
FormatOption = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="Answer format to ask for, for kinds with several (see each kind's docs); "
        "default: the kind's own.",
    ),
]


def _options(
    *,
    model: str,
    base_url: str | None,
    api_key_env: str,
    concurrency: int,
    on_existing: OnExistingChoice,
    captions: Path | None,
    prompt: Path | None,
    timeout: float,
    max_retries: int,
    structured_output: bool,
    temperature: float | None,
    max_tokens: int | None,
    retry_base: float,
    format: str | None = None,
) -> PredictOptions:
    from parsescore.core.files import read_text
    from parsescore.predict.engine import PredictOptions
    from parsescore.predict.inputs import load_captions

    return PredictOptions(
        model=model,
        base_url=base_url,
        api_key_env=api_key_env,
        concurrency=concurrency,
        on_existing=on_existing.value,
        captions=load_captions(captions) if captions is not None else None,
        prompt=read_text(prompt) if prompt is not None else None,
        timeout=timeout,
        max_retries=max_retries,
        retry_base=retry_base,
        structured_output=structured_output,
        temperature=temperature,
        max_tokens=max_tokens,
        format=format,
    )


def run_predict(
    kind: str, images: Path, out: Path, options: PredictOptions, *, quiet: bool, console: Console
) -> PredictSummary:
    """Predict with a progress bar on stderr; print the summary; Ctrl-C exits 130."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from parsescore.cli.common import warn
    from parsescore.predict.engine import PredictInterrupted, predict_images, prompt_warnings

    err = Console(stderr=True, soft_wrap=True, emoji=False)  # ids print as written
    for warning in prompt_warnings(kind, images, options):
        warn(err, warning)
    progress = Progress(
        TextColumn(f"predict {kind}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=quiet or not err.is_terminal,
        transient=True,
    )
    task = progress.add_task("predict", total=None)
    try:
        with progress:
            summary = predict_images(
                kind,
                images,
                out,
                options,
                on_progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
    except PredictInterrupted as stop:
        _print_summary(stop.summary, console)
        err.print(f"[yellow]{escape(str(stop))}[/]", highlight=False)
        raise typer.Abort from None  # error: interrupted, exit status 130
    _print_summary(summary, console)
    return summary


def _print_summary(summary: PredictSummary, console: Console) -> None:
    from rich.markup import escape

    from parsescore.cli.common import announce
    from parsescore.predict.engine import STATE_DIR

    console.print(
        f"predict {escape(summary.kind)} with {escape(summary.model)}: "
        f"{summary.images} images, {summary.done} done, {summary.skipped} resumed, "
        f"{len(summary.failed)} failed; {summary.retries} retries; tokens "
        f"{summary.prompt_tokens} in, {summary.completion_tokens} out; {summary.seconds:.1f} s",
        highlight=False,
    )
    for stem, error in summary.failed.items():
        image = summary.outcomes[stem].image
        console.print(f"[red]failed[/] {escape(image)}: {escape(error)}", highlight=False)
    announce(console, summary.out_dir)
    announce(console, f"{summary.out_dir / STATE_DIR} (raw responses and state)")


def run_images(
    kind: str,
    images: Path,
    truth: Path,
    out: Path,
    options: PredictOptions,
    *,
    quiet: bool = False,
    console: Console | None = None,
) -> tuple[PredictSummary, Result]:
    """Predict every image, score the predictions against ``truth`` with
    :func:`parsescore.evaluate`, write the predictions, scores, envelope and report into
    ``out``; return the predict summary and the result.

    Writes ``out/predictions/`` (as ``predict``), ``out/scores.json`` (the kind's ``--out``),
    ``out/result.json`` (the envelope) and ``out/report/index.html``. Failed images are missing
    predictions, scored as the kind scores those.
    """
    from dataclasses import replace

    from parsescore.cli.common import announce, wide_console, write_files
    from parsescore.core.api import evaluate
    from parsescore.core.kinds import get_kind
    from parsescore.predict.answers import predict_parts
    from parsescore.predict.engine import prediction_to_score
    from parsescore.report import write_report

    if not truth.exists():
        raise InputError("--truth does not exist", path=truth)
    console = console or wide_console()
    predict_parts(kind, options.format)  # an unknown kind or format, before any request
    summary = run_predict(kind, images, out / "predictions", options, quiet=quiet, console=console)
    pred, run_options = prediction_to_score(
        truth, summary, options.format, out / "predictions.json"
    )
    result = evaluate(kind, truth, pred, quiet=quiet, **dict(run_options))
    result = replace(result, name=options.model)
    written = write_files([result], out=out / "scores.json", result=out / "result.json")
    written.append(write_report([result], out / "report"))  # every file before the summary
    get_kind(kind).summarise(result, console)
    for path in written:
        announce(console, path)
    return summary, result


def register(app: typer.Typer) -> None:
    """Add ``predict``, ``run`` and ``prompt`` to the main app (if some kind is predicted)."""
    able = [kind.name for kind in kinds() if kind.predict is not None]
    if not able:
        return
    kind_choice = StrEnum("PredictKind", {name: name for name in able})  # type: ignore[misc]
    kind_argument = Annotated[kind_choice, typer.Argument(help=f"{', '.join(able)}.")]

    def command(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
        """Register a command whose ``kind`` argument is a choice of the predicted kinds (the
        choice is built from the registry, so it is set on the function here)."""

        def decorate(function: Callable[..., None]) -> Callable[..., None]:
            function.__annotations__["kind"] = kind_argument
            return app.command(name)(function)

        return decorate

    @command("predict")
    def predict_command(
        kind: Any,
        images: ImagesOption,
        out: Annotated[Path, typer.Option("--out", help="Folder for the predictions.")],
        model: ModelOption,
        base_url: BaseUrlOption = None,
        api_key_env: ApiKeyEnvOption = "OPENAI_API_KEY",
        concurrency: ConcurrencyOption = 4,
        on_existing: OnExistingOption = OnExistingChoice.error,
        captions: CaptionsOption = None,
        prompt: PromptOption = None,
        timeout: TimeoutOption = 120.0,
        max_retries: RetriesOption = 5,
        structured_output: StructuredOption = True,
        temperature: TemperatureOption = None,
        max_tokens: MaxTokensOption = None,
        retry_base: RetryBaseOption = 1.0,
        quiet: QuietOption = False,
        format: FormatOption = None,
    ) -> None:
        """Ask a vision-language model for a prediction of every image (OpenAI-compatible API).

        Exits 1 when some images failed (they are listed), 130 when interrupted.
        """
        options = _options(
            model=model,
            base_url=base_url,
            api_key_env=api_key_env,
            concurrency=concurrency,
            on_existing=on_existing,
            captions=captions,
            prompt=prompt,
            timeout=timeout,
            max_retries=max_retries,
            structured_output=structured_output,
            temperature=temperature,
            max_tokens=max_tokens,
            retry_base=retry_base,
            format=format,
        )
        from rich.console import Console

        summary = run_predict(
            kind.value,
            images,
            out,
            options,
            quiet=quiet,
            console=Console(soft_wrap=True, emoji=False),
        )
        if summary.failed:
            raise typer.Exit(1)

    @command("run")
    def run_command(
        kind: Any,
        images: ImagesOption,
        truth: Annotated[
            Path,
            typer.Option(
                "--truth", help="Ground truth, as the kind's own command reads it (--truth)."
            ),
        ],
        model: ModelOption,
        out: Annotated[Path, typer.Option("--out", help="Folder for predictions, scores, report.")],
        base_url: BaseUrlOption = None,
        api_key_env: ApiKeyEnvOption = "OPENAI_API_KEY",
        concurrency: ConcurrencyOption = 4,
        on_existing: OnExistingOption = OnExistingChoice.error,
        captions: CaptionsOption = None,
        prompt: PromptOption = None,
        timeout: TimeoutOption = 120.0,
        max_retries: RetriesOption = 5,
        structured_output: StructuredOption = True,
        temperature: TemperatureOption = None,
        max_tokens: MaxTokensOption = None,
        retry_base: RetryBaseOption = 1.0,
        quiet: QuietOption = False,
        format: FormatOption = None,
    ) -> None:
        """Predict every image, score the predictions against --truth and write the report.

        Writes OUT/predictions/ (as `predict`), OUT/scores.json (the kind's --out),
        OUT/result.json (the common envelope) and OUT/report/index.html. Exits 1 when some
        images failed: they are missing predictions, scored as the kind scores those.
        """
        options = _options(
            model=model,
            base_url=base_url,
            api_key_env=api_key_env,
            concurrency=concurrency,
            on_existing=on_existing,
            captions=captions,
            prompt=prompt,
            timeout=timeout,
            max_retries=max_retries,
            structured_output=structured_output,
            temperature=temperature,
            max_tokens=max_tokens,
            retry_base=retry_base,
            format=format,
        )
        summary, _ = run_images(kind.value, images, truth, out, options, quiet=quiet)
        if summary.failed:
            raise typer.Exit(1)

    @command("prompt")
    def prompt_command(kind: Any, format: FormatOption = None) -> None:
        """Print the default prompt of a kind (save it, edit it, pass it with --prompt)."""
        from parsescore.predict.inputs import default_prompt

        typer.echo(default_prompt(kind.value, format), nl=False)
