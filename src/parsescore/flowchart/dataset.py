"""A flowchart dataset as :func:`parsescore.flowchart.result.evaluate` reads it: the truth and the
answers from folders or from ``{id: text}``, each answer unwrapped
(:mod:`parsescore.shared.answers`) and read in its format, and an answer its reader refuses kept as
a result, not the end of the run (shared/specs/formats.md, "Chat answers", "Unreadable answers in a
dataset").

Flowde's ``ParsingBenchmark`` keeps Flowde's rules when used directly (every file valid, the same
stems as the truth). This is parsescore's path: Flowde's per-file checks decide which answers are
readable, and the benchmark is handed what was read
(:meth:`~parsescore.flowchart.benchmark.ParsingBenchmark.from_loaded`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.files import read_text
from parsescore.flowchart.edges import EdgeLabels
from parsescore.flowchart.formats import (
    detect_format,
    flowchart_format,
    flowde_data,
    format_of,
    read_flowchart,
)
from parsescore.flowchart.kind import KIND
from parsescore.flowchart.load import (
    PredParts,
    check_pred_file,
    combined_structure,
    flowchart_files,
    join_pred_parts,
    no_files_message,
)
from parsescore.flowchart.models import Diagram, PredDiagramStructure
from parsescore.shared.answers import Answer, unwrap_answer

__all__ = [
    "answers_from_folder",
    "answers_from_texts",
    "check_answers",
    "check_mermaid_syntax",
    "check_same_stems",
]

#: The parts every Mermaid or DOT answer gives, assumed when no answer is readable.
_FULL = PredDiagramStructure(node_text=True, labels=True, flow=True, additional_texts=True)


@dataclass
class ReadAnswer:
    """One answer: where it came from, the format it was read in and what was read, or why it
    is unreadable (``error``, its place counted in the answer as written)."""

    stem: str
    source: str
    fmt: str | None
    answer: Answer
    data: Any = None
    edge_labels: EdgeLabels | None = None
    error: InputError | None = None

    def refuse(self, error: InputError) -> None:
        """Mark the answer unreadable: ``error`` (raised reading its content) in its own place."""
        self.error = self.answer.relocate(error, self.source)

    @property
    def reason(self) -> str:
        """Why it is unreadable, with the place (``line N, column M``) first where known."""
        assert self.error is not None
        where = self.error.where
        return f"{where}: {self.error.reason}" if where else self.error.reason


def _read_answer(text: str, stem: str, source: str, fmt: str) -> ReadAnswer:
    """Unwrap and read one answer; ``fmt`` is the format expected (by extension, or forced),
    ``auto`` reads it by content."""
    names = tuple(entry.name for entry in KIND.formats)
    answer = unwrap_answer(text, (fmt,) if fmt != "auto" else names)
    found = detect_format(answer.text) if fmt == "auto" else flowchart_format(fmt).name
    read = ReadAnswer(stem, source, found, answer)
    try:
        if found is None:
            first = next((line.strip() for line in answer.text.splitlines() if line.strip()), "")
            shown = repr(first[:40]) if first else "an empty text"
            raise InputError(
                f"neither Flowde JSON, Mermaid nor DOT: found {shown}", where="line 1, column 1"
            )
        read.data, read.edge_labels = flowde_data(read_flowchart(answer.text, found, path=source))
    except InputError as exc:
        read.refuse(exc)
    return read


def answers_from_folder(directory: Path, fmt: str) -> list[ReadAnswer]:
    """Every flowchart file of a prediction folder, read (by extension, or ``fmt`` forced)."""
    paths = flowchart_files(directory, "prediction", fmt)
    if not paths:
        raise InputError(no_files_message("prediction"), path=directory)
    answers = []
    for path in paths:
        expected = format_of(path, fmt) or "json"
        try:
            text = read_text(path)
        except InputError as exc:
            read = ReadAnswer(path.stem, str(path), expected, Answer(""))
            read.refuse(exc)
            answers.append(read)
            continue
        answers.append(_read_answer(text, path.stem, str(path), expected))
    return answers


def answers_from_texts(texts: Mapping[str, str], fmt: str) -> list[ReadAnswer]:
    """``{id: answer text}``, read (``fmt``, or ``auto``: by content), in id order."""
    answers = []
    for stem in sorted(texts):
        text = texts[stem]
        if not isinstance(text, str):
            raise InputError(f"the answer {stem!r} should be a string, found {type(text).__name__}")
        answers.append(_read_answer(text, stem, f"answer {stem!r}", fmt))
    return answers


@dataclass(frozen=True)
class ReadAnswers:
    """The answers checked by Flowde's prediction rules: the parts they predict, and per
    flowchart the prediction read or the unreadable answer."""

    structure: PredDiagramStructure
    diagrams: dict[str, Diagram]
    unreadable: dict[str, ReadAnswer]


def _check_source(answers: Sequence[ReadAnswer]) -> tuple[PredDiagramStructure, set[str]] | None:
    """Flowde's prediction-folder rules on one folder's readable answers.

    Every answer is first checked as if it were alone in its folder; the parts (top-level and
    node keys) most of them share are the folder's (the first such answer's on a tie), and an
    answer with other parts is unreadable: one odd answer cannot make the others unreadable.
    None when no answer is readable.
    """
    checked: dict[str, PredParts] = {}
    for read in answers:
        if read.error is not None:
            continue
        try:
            checked[read.stem] = check_pred_file(read.data, Path(read.source))
        except InputError as exc:
            read.refuse(exc)
    if not checked:
        return None
    counts = Counter(parts.signature for parts in checked.values())
    best = max(counts.values())
    chosen = next(parts for parts in checked.values() if counts[parts.signature] == best)
    for read in answers:
        parts = checked.get(read.stem)
        if parts is None or parts.signature == chosen.signature:
            continue
        (top, nodes), (chosen_top, chosen_nodes) = parts.keys(), chosen.keys()
        read.refuse(
            InputError(
                f"top-level keys {top} and node keys {nodes} differ from the other answers' "
                f"({chosen_top}, {chosen_nodes}); every prediction of a folder must contain "
                "the same parts",
                path=read.source,
            )
        )
    return chosen.structure, set(chosen.nodes)


def check_same_stems(sources: Sequence[Sequence[ReadAnswer]], names: Sequence[str]) -> None:
    """Folders of separately parsed parts must hold the same flowcharts (Flowde's rule)."""
    stems = [read.stem for read in sources[0]]
    for name, answers in zip(names, sources, strict=True):
        other = [read.stem for read in answers]
        if other != stems:
            raise InputError(
                "all prediction directories must hold files for the same flowcharts; "
                f"{name} vs {names[0]}: missing {sorted(set(stems) - set(other))}, "
                f"extra {sorted(set(other) - set(stems))}"
            )


def check_answers(sources: Sequence[Sequence[ReadAnswer]], names: Sequence[str]) -> ReadAnswers:
    """Check the answers of one folder (or text mapping), or of several folders of separately
    parsed parts (``names`` name them; :func:`check_same_stems` first), and join each
    flowchart's parts into its prediction.

    Folder-level mistakes stay errors: the same part in two folders, no predicted node text, a
    folder of parts with no readable answer at all (its parts are unknown).
    """
    stems = [read.stem for read in sources[0]]
    checked = [_check_source(answers) for answers in sources]
    if len(sources) == 1 and checked[0] is None:
        checked = [(_FULL, {"node_number", "text", "labels", "points_to"})]
    for answers, found in zip(sources, checked, strict=True):
        if found is None:  # the parts this folder holds are unknown
            first = next(read for read in answers if read.error is not None)
            assert first.error is not None
            raise first.error
    structure = combined_structure(
        [(name, found[0].parts) for name, found in zip(names, checked, strict=True) if found]
    )
    text_index = next(k for k, found in enumerate(checked) if found and found[0].node_text)
    diagrams: dict[str, Diagram] = {}
    unreadable: dict[str, ReadAnswer] = {}
    for k, stem in enumerate(stems):
        reads = [answers[k] for answers in sources]
        refused = next((read for read in reads if read.error is not None), None)
        if refused is None:
            refused = _numbers_differ(reads, checked, text_index)
        if refused is not None:
            unreadable[stem] = refused
            continue
        text_read = reads[text_index]
        try:
            diagrams[stem] = join_pred_parts(
                stem,
                text_read.source,
                [
                    (found[0], read.data)
                    for read, found in zip(reads, checked, strict=True)
                    if found
                ],
            )
        except InputError as exc:
            text_read.refuse(exc)
            unreadable[stem] = text_read
    return ReadAnswers(structure, diagrams, unreadable)


def _numbers_differ(
    reads: Sequence[ReadAnswer],
    checked: Sequence[tuple[PredDiagramStructure, set[str]] | None],
    text_index: int,
) -> ReadAnswer | None:
    """The part file whose node numbers differ from the node-text file's (None: they agree)."""
    expected = {n["node_number"] for n in reads[text_index].data["nodes"]}
    for read, found in zip(reads, checked, strict=True):
        if read is reads[text_index] or found is None or not found[0].has_nodes:
            continue
        numbers = {n["node_number"] for n in read.data["nodes"]}
        if numbers != expected:
            read.refuse(
                InputError(
                    f"node numbers {sorted(numbers)} differ from {sorted(expected)} in the "
                    f"node-text file {reads[text_index].source}",
                    path=read.source,
                )
            )
            return read
    return None


def check_mermaid_syntax(
    answers: Sequence[ReadAnswer], mermaid_dir: str | Path | None
) -> str | None:
    """Give the readable Mermaid answers to Mermaid's own parser; those it refuses become
    unreadable, with its message. Returns the one line saying why the check could not run."""
    from parsescore.shared.mermaidjs import MermaidUnavailable, mermaid_syntax

    mermaid = [read for read in answers if read.error is None and read.fmt == "mermaid"]
    if not mermaid:
        return None
    try:
        verdict = mermaid_syntax([read.answer.text for read in mermaid], mermaid_dir)
    except MermaidUnavailable as exc:
        return f"--check-syntax: Mermaid's parser is unavailable, answers not checked: {exc}"
    for read, error, line in zip(mermaid, verdict.errors, verdict.lines, strict=True):
        if error is not None:
            where = None if line is None else f"line {line}"
            read.refuse(InputError(f"Mermaid {verdict.version} refuses it: {error}", where=where))
    return None
