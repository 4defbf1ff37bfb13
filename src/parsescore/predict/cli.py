"""``parsescore predict``, ``parsescore run`` and ``parsescore prompt``.

``register(app)`` adds them to the main app. The openai client is imported only when a command
runs, so the scoring commands work without the ``predict`` extra.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from parsescore.errors import InputError
from parsescore.files import read_text, write_json
from parsescore.predict.engine import (
    STATE_DIR,
    PredictInterrupted,
    PredictOptions,
    PredictSummary,
    predict_images,
    prompt_warnings,
)
from parsescore.predict.inputs import default_prompt, load_captions

__all__ = ["PredictKind", "register"]


class PredictKind(StrEnum):
    flowchart = "flowchart"
    sequence = "sequence"
    table = "table"


class OnExistingChoice(StrEnum):
    error = "error"
    resume = "resume"
    overwrite = "overwrite"


KindArgument = Annotated[PredictKind, typer.Argument(help="flowchart, sequence or table.")]
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
TimeoutOption = Annotated[float, typer.Option("--timeout", help="Seconds per request.")]
RetriesOption = Annotated[
    int, typer.Option("--max-retries", help="Retries on 429, 5xx, timeouts, lost connections.")
]
StructuredOption = Annotated[
    bool,
    typer.Option(
        "--structured-output/--no-structured-output",
        help="Flowchart: ask for JSON following the prediction schema (off for servers "
        "without response_format support).",
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
) -> PredictOptions:
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
    )


def run_predict(
    kind: str, images: Path, out: Path, options: PredictOptions, *, quiet: bool, console: Console
) -> PredictSummary:
    """Predict with a progress bar on stderr; print the summary; Ctrl-C exits 130."""
    err = Console(stderr=True, soft_wrap=True)
    for warning in prompt_warnings(kind, images, options):
        err.print(f"[yellow]warning[/] {escape(warning)}", highlight=False)
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
        raise typer.Exit(130) from None
    _print_summary(summary, console)
    return summary


def _print_summary(summary: PredictSummary, console: Console) -> None:
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
    console.print(
        f"predictions in {escape(str(summary.out_dir))}; raw responses and state in "
        f"{escape(str(summary.out_dir / STATE_DIR))}",
        highlight=False,
    )


def _tables_named_as_truth(truth: Path, summary: PredictSummary, target: Path) -> Path:
    """The prediction folder, or a JSON of the predictions keyed as the truth names them.

    PubTabNet-style truth names each table by its image file (``PMC…_00.png``) while the
    prediction folder names it by stem; when the truth uses file names, the predictions are
    collected into ``target`` under those names so that tables meet their truth.
    """
    from parsescore.table.inputs import load_tables

    names = set(load_tables(truth))
    done = {s: (o.image, o.output) for s, o in summary.outcomes.items() if o.status != "failed"}
    if not any(image in names for image, _ in done.values()):
        return summary.out_dir
    tables = {
        (image if image in names else stem): read_text(summary.out_dir / str(output))
        for stem, (image, output) in done.items()
    }
    write_json(target, tables)
    return target


def register(app: typer.Typer) -> None:
    """Add ``predict``, ``run`` and ``prompt`` to the main app."""

    @app.command("predict")
    def predict_command(
        kind: KindArgument,
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
        )
        summary = run_predict(
            kind.value, images, out, options, quiet=quiet, console=Console(soft_wrap=True)
        )
        if summary.failed:
            raise typer.Exit(1)

    @app.command("run")
    def run_command(
        kind: KindArgument,
        images: ImagesOption,
        truth: Annotated[
            Path,
            typer.Option(
                "--truth",
                help="Ground truth, as the kind's command reads it (flowchart: the folder with "
                "nodes/ labels/ flow/ additional_texts/).",
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
    ) -> None:
        """Predict every image, score the predictions against --truth and write the report.

        Writes OUT/predictions/ (as `predict`; tables whose truth is named by image file also
        OUT/predictions.json, keyed so), OUT/scores.json (the kind's --out),
        OUT/result.json (the common envelope) and OUT/report/index.html. Exits 1 when some
        images failed: they are missing predictions, scored as the kind scores those (flowchart:
        left out and listed, as with --allow-missing).
        """
        from parsescore.cli import app as main_app
        from parsescore.report import write_report

        if not truth.exists():
            raise InputError("--truth does not exist", path=truth)
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
        )
        console = Console(soft_wrap=True)
        predictions = out / "predictions"
        summary = run_predict(
            kind.value, images, predictions, options, quiet=quiet, console=console
        )
        if summary.done + summary.skipped == 0:
            raise InputError("no image gave a valid prediction; nothing to score")
        scores, result = out / "scores.json", out / "result.json"
        pred = predictions
        if kind is PredictKind.table:
            pred = _tables_named_as_truth(truth, summary, out / "predictions.json")
        args = [kind.value, "--truth", str(truth), "--pred", str(pred)]
        args += ["--out", str(scores), "--result", str(result)]
        if quiet:
            args.append("--quiet")
        if kind is PredictKind.flowchart:  # failed images are missing predictions
            args.append("--allow-missing")
        main_app(args, prog_name="parsescore", standalone_mode=False)
        report = write_report([result], out / "report", names=[model])
        console.print(f"report: {escape(str(report))}", highlight=False)
        if summary.failed:
            raise typer.Exit(1)

    @app.command("prompt")
    def prompt_command(kind: KindArgument) -> None:
        """Print the default prompt of a kind (save it, edit it, pass it with --prompt)."""
        typer.echo(default_prompt(kind.value), nl=False)
