"""Scoring a dataset of documents: a folder of extracted graph.json answers against a folder of
truths, one document each (``parsescore graph --truth DIR --pred DIR``).

A document's id is its file name without ``.json``; ``TRUTH_DIR/<id>.json`` is an instance of
the template (a graph.json without one) and ``PRED_DIR/<id>.json`` the extracted graph.json, as
the one-document mode reads them; ``SRC_DIR/<id>.<suffix>`` (any one suffix: ``.md``, ``.dclg``
...) is the text the model was served. Each document is scored exactly as the one-document mode
scores its files (its eval.json is the same), through :mod:`parsescore.core.runner` (local
processes, Dask, content-hash cache). The dataset's numbers are micro over documents: tp, fp
and fn summed over every document's classes (labels) per rung, and the verbatim ratio as the
long strings found over the long strings checked.

The rules every dataset kind follows (:mod:`parsescore.shared.coverage`): a document without an
answer, or whose answer cannot be read (not UTF-8, not JSON, a duplicate key, not a graph.json's
shape), is scored against an empty graph (every truth node and edge missed) and listed in
``missing`` / ``unreadable``; ``strict`` stops at the first unreadable answer, or the first one
that docling-graph's script 16 scores only with a warning (an edge to no node, no nodes).
A truth that cannot be read or validated is an error: the ground truth is the user's own.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.files import read_text
from parsescore.core.results import Reader, Result
from parsescore.core.runner import item_bytes, run_items
from parsescore.graph.kind import DOCUMENT_NOUNS, SECTIONS
from parsescore.graph.options import GraphOptions
from parsescore.shared.coverage import READABLE, Coverage, check_names

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__: list[str] = []  # internal: the kind's own machinery

#: The suffix of truth and answer files in dataset mode.
SUFFIX = ".json"


@dataclass(frozen=True)
class Document:
    """One document's inputs, read in the parent process and sent to a worker.

    Attributes:
        id: the document's id (the file name without ``.json``).
        truth: how the truth is named (its path; ``truth/<id>`` for texts given in memory).
        truth_text: the truth file's text.
        graph: how the answer is named (None: no answer).
        graph_text: the answer's text (None: no answer, or ``read_error``).
        read_error: (reason, place) of an answer file that could not be read as text.
        source: how the source is named (None: no source).
        source_text: the source's raw text.
    """

    id: str
    truth: str
    truth_text: str
    graph: str | None
    graph_text: str | None
    read_error: tuple[str, str | None] | None = None
    source: str | None = None
    source_text: str | None = None


def _document_bytes(document: Document) -> bytes:
    """The cache key's view of a document: every input, names included (eval.json holds the
    names)."""
    error = document.read_error or (None, None)
    return item_bytes(
        document.id,
        document.truth,
        document.truth_text,
        document.graph,
        document.graph_text,
        *error,
        document.source,
        document.source_text,
    )


#: Templates imported in this process, by (spec, sha256 of the module's file): a worker
#: imports each once (a forked worker inherits the parent's), an edited template again.
_TEMPLATES: dict[tuple[str, str], type[BaseModel]] = {}


def _template(spec: str, digest: str) -> type[BaseModel]:
    """The template ``spec`` whose module file hashes to ``digest``, imported once."""
    from parsescore.graph.template import load_template

    model = _TEMPLATES.get((spec, digest))
    if model is None:
        model = load_template(spec)
        if len(_TEMPLATES) >= 8:
            _TEMPLATES.clear()
        _TEMPLATES[(spec, digest)] = model
    return model


def _template_digest(model: type[BaseModel]) -> str:
    """sha256 of the template module's source file ("" when it has none): the cache key
    changes when the template does."""
    try:
        path = inspect.getsourcefile(model)
    except TypeError:
        path = None
    if path is None:
        return ""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def _reason(error: InputError) -> str:
    """An unreadable answer's reason as ``Result.dataset["unreadable"]`` lists it (the place,
    then the problem; the file is the document's)."""
    return f"{error.where}: {error.reason}" if error.where else error.reason


def score_document(
    document: Document,
    *,
    options: GraphOptions,
    template_spec: str | None,
    template_digest: str,
) -> dict[str, Any]:
    """Score one document (pure and picklable: the runner's scoring function). ``options``
    without its ``source`` (each document brings its own); ``template_spec``: the template as
    a worker imports it, ``template_digest`` the hash of its file.

    Returns its eval.json (``report``), the unmatched nodes and edges, the count behind its
    verbatim ratio, the warnings of odd graph files, the reason its answer was unreadable
    (None when readable or missing) and the info string of the fenced block it came from.
    """
    from parsescore.core.files import gc_paused
    from parsescore.graph.api import match_loaded
    from parsescore.graph.evaluate import report_and_verbatim_hits
    from parsescore.graph.io import read_graph, read_instance, source_from_text
    from parsescore.graph.template import GraphData
    from parsescore.graph.unmatched import unmatched_items

    strict = options.strict
    with gc_paused():
        model = None if template_spec is None else _template(template_spec, template_digest)
        if model is not None:
            truth_graph = read_instance(document.truth_text, document.truth, template=model)
        else:
            truth_graph = read_graph(document.truth_text, document.truth, strict=strict)
        extracted = GraphData(nodes=[], edges=[])
        unreadable: str | None = None
        if document.read_error is not None:
            reason, where = document.read_error
            error = InputError(reason, path=document.graph, where=where)
            if strict:
                raise error
            unreadable = _reason(error)
        elif document.graph_text is not None:
            assert document.graph is not None
            try:
                extracted = read_graph(
                    document.graph_text, document.graph, strict=strict, answer=True
                )
            except InputError as exc:
                if strict:
                    raise
                unreadable = _reason(exc)
        source_text = None
        if document.source_text is not None:
            source_text = source_from_text(document.source_text, document.source)
        matching = match_loaded(
            truth_graph,
            extracted,
            model=model,
            truth=document.truth,
            source_text=source_text,
            options=options,
        )
        report, hits = report_and_verbatim_hits(
            matching,
            graph=document.graph,  # type: ignore[arg-type]  # null: no answer
            truth=document.truth,
            template=options.template,
        )
        return {
            "report": report,
            "unmatched": unmatched_items(matching),
            "verbatim_hits": hits,
            "warnings": [*truth_graph.warnings, *extracted.warnings],
            "unreadable": unreadable,
            "fence": extracted.fence,
        }


# -- reading the inputs -------------------------------------------------------------------------


def _json_files(folder: Path, option: str) -> dict[str, Path]:
    """``{id: path}`` of the ``.json`` files directly in ``folder`` (sorted by id)."""
    if not folder.is_dir():
        raise InputError(f"{option} must be a folder in dataset mode", path=folder)
    found = {
        path.name[: -len(SUFFIX)]: path
        for path in folder.iterdir()
        if path.name.lower().endswith(SUFFIX) and not path.name.startswith(".") and path.is_file()
    }
    return dict(sorted(found.items()))


def _source_files(folder: Path) -> dict[str, Path]:
    """``{id: path}`` of the per-document sources: ``<id>.<suffix>`` directly in ``folder``
    (one suffix removed); two sources of one document is an error naming both."""
    if not folder.is_dir():
        raise InputError(
            "--source must be a folder of per-document sources (<id>.md, <id>.dclg, ...) when "
            "--truth and --pred are folders",
            path=folder,
        )
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        other = found.setdefault(path.stem, path)
        if other != path:
            raise InputError(
                f"two sources for document {path.stem!r}: {other.name} and {path.name} "
                "(keep one per document)",
                path=folder,
            )
    return found


#: An answer as read: its name, its text (None when it cannot be read) and why not.
_Answer = tuple[str, str | None, tuple[str, str | None] | None]


def collect_documents(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    *,
    source: str | Path | Mapping[str, str] | None,
    allow_missing: bool,
) -> tuple[list[Document], list[str], list[str], list[str]]:
    """The documents to score, in id order; the truth ids without an answer; the answer ids
    without a truth; the scored ids without a source (when ``source`` is given).

    ``truth``/``pred``: two folders, or two ``{id: text}`` mappings; ``source``: a folder of
    ``<id>.<suffix>`` files or an ``{id: text}`` mapping. No answer matching any truth is an
    error (:func:`~parsescore.shared.coverage.check_names`); ``allow_missing`` leaves the truth ids
    without an answer out. Files are read in id order, truths first; an answer that cannot be
    read as text is kept as its reason (scored as unreadable).
    """
    truths: dict[str, tuple[str, Callable[[], str]]]
    answers: dict[str, Callable[[], _Answer]]
    if isinstance(truth, Mapping) and isinstance(pred, Mapping):
        truths = {str(k): (f"truth/{k}", partial(str, v)) for k, v in truth.items()}
        answers = {str(k): partial(_given, f"pred/{k}", str(v)) for k, v in pred.items()}
        truth_name, pred_name = "the truth texts", "the answer texts"
    elif isinstance(truth, Mapping) or isinstance(pred, Mapping):
        raise InputError("truth and pred must both be {id: text} mappings, or both folders")
    else:
        truths = {
            item: (str(path), partial(read_text, path))
            for item, path in _json_files(Path(truth), "--truth").items()
        }
        answers = {
            item: partial(_answer_file, path)
            for item, path in _json_files(Path(pred), "--pred").items()
        }
        truth_name, pred_name = str(truth), str(pred)
        if not truths:
            raise InputError("no truth documents (<id>.json files) in this folder", path=truth)
    # Names are matched both ways alike (ids are file names on both sides), so a swap of
    # --truth and --pred cannot be told from the names: the truth's validation says it.
    missing = check_names(list(truths), list(answers), truth=truth_name, pred=pred_name)
    extra = [item for item in answers if item not in truths]
    sources: Mapping[str, str | Path] = {}
    if isinstance(source, Mapping):
        sources = source
    elif source is not None:
        sources = _source_files(Path(source))
    documents: list[Document] = []
    without_source: list[str] = []
    for item, (truth_label, truth_text) in truths.items():
        read = answers.get(item)
        if read is None and allow_missing:
            continue
        graph_label, graph_text, read_error = (None, None, None) if read is None else read()
        source_label: str | None = None
        source_text: str | None = None
        if source is not None:
            found = sources.get(item)
            if found is None:
                without_source.append(item)
            elif isinstance(found, Path):
                source_label, source_text = str(found), read_text(found)
            else:
                source_label, source_text = f"source/{item}", str(found)
        documents.append(
            Document(
                item,
                truth_label,
                truth_text(),
                graph_label,
                graph_text,
                read_error,
                source_label,
                source_text,
            )
        )
    return documents, missing, extra, without_source


def _given(label: str, text: str) -> _Answer:
    return label, text, None


def _answer_file(path: Path) -> _Answer:
    """An answer file's text, or why it cannot be read as text."""
    try:
        return str(path), read_text(path), None
    except InputError as exc:
        return str(path), None, (exc.reason, exc.where)


# -- the dataset's result -----------------------------------------------------------------------


def _first(names: Sequence[str], shown: int = 5) -> str:
    more = f", ... and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def evaluate_dataset(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    options: GraphOptions,
) -> Result:
    """The :class:`Result` of a dataset (see the module); items are the documents."""
    from parsescore.graph.micro import document_counts, micro

    template = options.template
    template_spec: str | None = None
    digest = ""
    if template is not None:
        # Workers import the template themselves: a file path is made absolute (a Dask worker
        # runs elsewhere), and it is imported here first so that a broken one is one error.
        template_spec = template
        file_part, colon, attribute = template.rpartition(":")
        if colon and file_part.endswith(".py"):
            template_spec = f"{Path(file_part).resolve()}:{attribute}"
        from parsescore.graph.template import load_template

        model = load_template(template_spec)
        digest = _template_digest(model)
        _TEMPLATES[(template_spec, digest)] = model
    documents, missing, extra, without_source = collect_documents(
        truth, pred, source=options.source, allow_missing=options.allow_missing
    )
    recorded = options.recorded(dataset=True)
    # The cache key: the recorded options, without allow_missing (it changes which documents
    # are scored, not a document's record), with what else changes a record: the template (as
    # given: eval.json holds it; as imported; its file's hash) and strict (an odd answer
    # stops the run instead of being scored).
    key = {k: v for k, v in recorded.items() if k != "allow_missing"}
    key |= {"template": template, "template_spec": template_spec, "template_digest": digest}
    key["strict"] = options.strict
    run = run_items(
        partial(
            score_document,
            options=replace(options, source=None),
            template_spec=template_spec,
            template_digest=digest,
        ),
        documents,
        kind="graph",
        options=key,
        item_input=_document_bytes,
        jobs=options.jobs,
        dask_scheduler=options.dask_scheduler,
        cache_dir=options.cache,
        quiet=options.quiet,
        description="scoring graphs",
    )
    allow_missing = options.allow_missing
    coverage = Coverage(len(documents) + (len(missing) if allow_missing else 0), list(missing))
    warnings: list[str] = []
    reports: dict[str, dict[str, Any]] = {}
    unmatched: dict[str, Any] = {}
    hits = 0
    for document, record in zip(documents, run.records, strict=True):
        reports[document.id] = record["report"]
        unmatched[document.id] = record["unmatched"]
        hits += record["verbatim_hits"]
        warnings.extend(record["warnings"])
        if record["unreadable"] is not None:
            coverage.unreadable[document.id] = record["unreadable"]
        if record["fence"] is not None:
            coverage.fenced[document.id] = record["fence"]
    # micro over documents: each document's micro counts summed, scored by the core
    counts, rungs = document_counts(reports)
    checked = sum(r["verbatim_n"] or 0 for r in reports.values())
    in_memory = isinstance(truth, Mapping)
    source = options.source
    native: dict[str, Any] = {
        "truth": None if in_memory else str(truth),
        "graph": None if in_memory else str(pred),
        "template": template,
        "source": None if source is None or isinstance(source, Mapping) else str(source),
        "micro": micro(counts, rungs),
        "verbatim_ratio": round(hits / checked, 3) if checked else None,
        "verbatim_n": checked,
        "verbatim_hits": hits,
        **coverage.facts(),
        "documents": reports,
    }
    (result,) = read_documents(native, Reader(None), options.name or _default_name(pred))
    if without_source:
        warnings.append(
            f"{len(without_source)} of {len(documents)} documents have no source (scored "
            "without one: no verbatim ratio, no synthetic-id detection): " + _first(without_source)
        )
    if extra:
        warnings.append(f"{len(extra)} answers have no truth (not scored): " + _first(extra))
    warnings.extend(coverage.warnings(DOCUMENT_NOUNS[1], allow_missing=allow_missing))
    details = {
        item: detail | {"unmatched": unmatched[item]} for item, detail in result.details.items()
    }
    return replace(
        result,
        version=__version__,
        options=result.options | recorded,
        details=details,
        native=native,
        warnings=tuple(warnings),
    )


def _default_name(pred: str | Path | Mapping[str, str]) -> str:
    return "answers" if isinstance(pred, Mapping) else (Path(pred).name or str(pred))


# -- reading the dataset document back ----------------------------------------------------------

#: eval.json keys a document's item detail leaves out: they are the run's (``inputs``) or
#: become the item's metrics.
_NOT_IN_DETAIL = frozenset({"template", "micro"})


def read_documents(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of a dataset document (``parsescore graph --out`` with folders):
    an item per document, its metrics the micro P/R/F1 of its eval.json and ``readable``, its
    counts the micro tp/fp/fn per rung of the dataset (:func:`~parsescore.graph.micro.
    with_rungs`); the totals computed from them by the core."""
    from parsescore.graph.attributes import dominant_class
    from parsescore.graph.micro import totals_of, with_rungs
    from parsescore.graph.result import micro_counts, micro_rungs, rung_scores

    documents = r.mapping(r.key(doc, "documents", "top level"), "documents")
    missing = [
        r.string(v, f"missing[{k}]")
        for k, v in enumerate(r.array(doc.get("missing", []), "missing"))
    ]
    unreadable = {
        str(k): r.string(v, f"unreadable.{k}")
        for k, v in r.mapping(doc.get("unreadable", {}), "unreadable").items()
    }
    fenced = {
        str(k): r.string(v, f"fenced.{k}")
        for k, v in r.mapping(doc.get("fenced", {}), "fenced").items()
    }
    coverage = Coverage(len(set(documents) | set(missing)), missing, unreadable, fenced)
    micro = r.mapping(r.key(doc, "micro", "top level"), "micro")
    rungs = micro_rungs(micro, "micro", r)
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    attributes: dict[str, dict[str, str]] = {}
    modes: set[str] = set()
    for item, report in documents.items():
        where = f"documents.{item}"
        report = r.mapping(report, where)
        doc_micro = r.mapping(r.key(report, "micro", where), f"{where}.micro")
        values: dict[str, float] = {}
        found: dict[str, float] = {}
        rest: dict[str, Any] = {}  # each rung's tp/fp/fn, as the item's detail keeps them
        for section, prefix in SECTIONS:
            if section in doc_micro:
                inner = f"{where}.micro.{section}"
                scores, section_counts, rest[section] = rung_scores(
                    r.mapping(doc_micro[section], inner), inner, prefix, r
                )
                values |= scores
                found |= section_counts
        try:
            counts[item] = with_rungs(found, rungs)
        except KeyError as exc:
            raise r.fail(f"{where}.micro", f"no counts for {exc.args[0]}") from None
        readable = 0.0 if item in unreadable or item in missing else 1.0
        items[item] = values | {READABLE.name: readable}
        details[item] = {"micro": rest} | {
            k: v for k, v in report.items() if k not in _NOT_IN_DETAIL
        }
        nodes = report.get("nodes")
        dominant = dominant_class(nodes) if isinstance(nodes, Mapping) else None
        if dominant is not None:
            attributes[item] = {"class": dominant}
        alignment = report.get("structural_alignment")
        if isinstance(alignment, dict) and isinstance(alignment.get("mode"), str):
            modes.add(alignment["mode"])
    given = {READABLE.name: coverage.readable}
    verbatim = doc.get("verbatim_ratio")
    if verbatim is not None:
        given["verbatim_ratio"] = r.number(verbatim, "verbatim_ratio")
    totals = totals_of(items, counts, rungs, given)
    facts: dict[str, Any] = {
        "nouns": list(DOCUMENT_NOUNS),
        "micro": micro_counts(micro, "micro", r),
    }
    for key in ("verbatim_n", "verbatim_hits"):
        if key in doc:
            facts[key] = doc[key]
    return [
        Result(
            "graph",
            name,
            items,
            totals,
            r.path,
            inputs={k: doc.get(k) for k in ("graph", "truth", "template", "source")},
            options={"structural_align": modes.pop()} if len(modes) == 1 else {},
            details=details,
            attributes=attributes,
            dataset=facts | coverage.facts(),
            counts=counts,
        )
    ]
