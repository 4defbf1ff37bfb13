"""Loading and validating flowchart predictions and ground truth (Flowde's rules).

Everything is checked up front, before any scoring: wrong types raise ``TypeError``, wrong
structure or values raise ``ValueError`` (an :class:`~parsescore.core.errors.InputError`); every
message names the file, the place in it, what is wrong and what was expected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from parsescore.core.errors import InputError
from parsescore.core.files import load_json, read_text
from parsescore.flowchart.edges import EdgeLabels
from parsescore.flowchart.formats import (
    detect_format,
    extensions_text,
    flowchart_format,
    flowde_data,
    format_of,
    read_flowchart,
)
from parsescore.flowchart.kind import KIND
from parsescore.flowchart.models import (
    Diagram,
    DiagramOptions,
    ParsingPart,
    PredDiagramStructure,
)

__all__ = [
    "PredDiagramSources",
    "PredParts",
    "check_pred_document",
    "check_pred_file",
    "check_truth_files",
    "combined_structure",
    "flowchart_files",
    "format_truth_from_texts",
    "format_truth_paths",
    "is_format_truth",
    "join_pred_parts",
    "load_format_truth",
    "load_pred_diagrams",
    "load_true_diagram_options",
    "no_files_message",
    "validate_pred_diagram_sources",
]

TRUTH_PARTS = ("nodes", "labels", "flow", "additional_texts")
PRED_TOP_LEVEL_KEYS = frozenset({"nodes", "additional_texts"})
PRED_NODE_KEYS = frozenset({"node_number", "text", "labels", "points_to"})


class TruthModelError(InputError, RuntimeError):
    """A ground-truth option that the data model refuses (e.g. an empty text).

    Flowde reports these as RuntimeError; ours is also an InputError (a ValueError), so callers
    catching either keep working.
    """


class FlowchartTypeError(InputError, TypeError):
    """A value of the wrong JSON type, naming the file and the place.

    Flowde raises TypeError for these; ours is also an InputError (bad input: one line from the
    CLI), so callers catching either keep working.
    """


def _type_name(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return names.get(type(value), type(value).__name__)


def _is_int(value: object) -> bool:
    # A JSON boolean passes this structural check, as in Flowde; the strict model then refuses it.
    return isinstance(value, int)


def _expect(value: object, kind: type, *, path: Path, where: str, what: str) -> None:
    ok = _is_int(value) if kind is int else isinstance(value, kind)
    if not ok:
        expected = {dict: "an object", list: "a list", str: "a string", int: "an integer"}[kind]
        raise FlowchartTypeError(
            f"{what} should be {expected}, found {_type_name(value)}", path=path, where=where
        )


def _json_files(directory: Path, what: str) -> list[Path]:
    if not directory.exists():
        raise InputError(f"{what} directory does not exist", path=directory)
    if not directory.is_dir():
        raise InputError(f"{what} should be a directory of .json files", path=directory)
    return sorted(directory.glob("*.json"))


def _keys(d: dict[str, Any]) -> str:
    return "{" + ", ".join(repr(k) for k in sorted(d)) + "}"


# ---------------------------------------------------------------------------------------------
# Predictions


@dataclass(frozen=True)
class PredDiagramSource:
    """One validated prediction directory: its files and the parts they contain.

    ``edge_labels`` has, per file, the labels on its edges when its format carries them
    (Mermaid, DOT), else None (Flowde's JSON).
    """

    diagrams_dir: Path
    paths: tuple[Path, ...]
    structure: PredDiagramStructure
    data: tuple[dict[str, Any], ...]
    edge_labels: tuple[EdgeLabels | None, ...] = ()


def flowchart_files(directory: Path, what: str, fmt: str) -> list[Path]:
    """A folder's flowchart files: by extension, or (a format forced) also ``.txt`` files."""
    if fmt != "auto":
        flowchart_format(fmt)
    if not directory.exists():
        raise InputError(f"{what} directory does not exist", path=directory)
    if not directory.is_dir():
        raise InputError(
            f"{what} should be a directory of {extensions_text()} files", path=directory
        )
    suffixes = {ext for entry in KIND.formats for ext in entry.extensions}
    suffixes |= {".txt"} if fmt != "auto" else set()
    paths = sorted(p for p in directory.iterdir() if p.suffix.lower() in suffixes and p.is_file())
    by_stem: dict[str, Path] = {}
    for path in paths:
        if path.stem in by_stem:
            raise InputError(
                f"two files for flowchart {path.stem!r}: {by_stem[path.stem].name} and "
                f"{path.name}; keep one",
                path=directory,
            )
        by_stem[path.stem] = path
    return paths


def no_files_message(what: str) -> str:
    """``no prediction .json files found (nor .mmd, .mermaid, .dot or .gv)``."""
    first, *others = [ext for entry in KIND.formats for ext in entry.extensions]
    nor = ", ".join(others[:-1]) + f" or {others[-1]}" if len(others) > 1 else "".join(others)
    return f"no {what} {first} files found (nor {nor})"


def _read_flowchart_file(path: Path, fmt: str = "auto") -> tuple[Any, EdgeLabels | None]:
    """A file's content as Flowde JSON, and its edge labels (None for JSON files)."""
    return flowde_data(read_flowchart(read_text(path), format_of(path, fmt) or "json", path=path))


@dataclass(frozen=True)
class PredDiagramSources:
    """Validated prediction directories that join into one prediction per flowchart."""

    sources: tuple[PredDiagramSource, ...]
    structure: PredDiagramStructure

    @property
    def node_text_source(self) -> PredDiagramSource:
        return next(s for s in self.sources if s.structure.node_text)


def _check_pred_directory(directory: Path, fmt: str = "auto") -> PredDiagramSource:
    paths = flowchart_files(directory, "prediction", fmt)
    if not paths:
        raise InputError(no_files_message("prediction"), path=directory)
    preds: list[dict[str, Any]] = []
    edge_labels: list[EdgeLabels | None] = []
    for path in paths:
        data, labels = _read_flowchart_file(path, fmt)
        _expect(data, dict, path=path, where="top level", what="a prediction file")
        preds.append(data)
        edge_labels.append(labels)

    first_path, first = paths[0], preds[0]
    _check_top_keys(first, first_path)
    for path, pred in zip(paths, preds, strict=True):
        if set(pred) != set(first):
            raise InputError(
                f"top-level keys {_keys(pred)} differ from {_keys(first)} in {first_path.name}; "
                "all prediction files of a directory must contain the same parts",
                path=path,
            )
    node_keys, structure = _pred_structure(first, first_path)
    for path, pred in zip(paths, preds, strict=True):
        _check_pred_file(path, pred, node_keys, structure)
    return PredDiagramSource(directory, tuple(paths), structure, tuple(preds), tuple(edge_labels))


def _check_top_keys(first: dict[str, Any], first_path: Path) -> None:
    if not first or not set(first) <= PRED_TOP_LEVEL_KEYS:
        raise InputError(
            f"invalid top-level keys {_keys(first)}; expected one or both of "
            "'nodes', 'additional_texts'",
            path=first_path,
        )


def _pred_structure(
    first: dict[str, Any], first_path: Path
) -> tuple[set[str], PredDiagramStructure]:
    """The parts a prediction folder holds, read from its first file (all must agree)."""
    _check_top_keys(first, first_path)
    node_keys: set[str] = set()
    if "nodes" in first:
        nodes = first["nodes"]
        _expect(nodes, list, path=first_path, where="'nodes'", what="'nodes'")
        if not nodes:
            raise InputError("'nodes' should contain at least one node", path=first_path)
        _expect(nodes[0], dict, path=first_path, where="nodes[0]", what="a node")
        node_keys = set(nodes[0])
        if "node_number" not in node_keys or not node_keys <= PRED_NODE_KEYS:
            raise InputError(
                f"invalid node keys {_keys(nodes[0])}; expected 'node_number' and one or more "
                "of 'text', 'labels', 'points_to'",
                path=first_path,
                where="nodes[0]",
            )
        if node_keys == {"node_number"}:
            raise InputError(
                "predicted nodes should contain at least one benchmarkable part: "
                "'text', 'labels' or 'points_to'",
                path=first_path,
                where="nodes[0]",
            )
    structure = PredDiagramStructure(
        node_text="text" in node_keys,
        labels="labels" in node_keys,
        flow="points_to" in node_keys,
        additional_texts="additional_texts" in first,
    )
    return node_keys, structure


def _check_pred_file(
    path: Path, pred: dict[str, Any], node_keys: set[str], structure: PredDiagramStructure
) -> None:
    if structure.has_nodes:
        _check_pred_nodes(path, pred["nodes"], node_keys, structure)
    if structure.additional_texts:
        texts = pred["additional_texts"]
        _expect(texts, list, path=path, where="'additional_texts'", what="'additional_texts'")
        for k, text in enumerate(texts):
            _expect(text, str, path=path, where=f"additional_texts[{k}]", what="an additional text")


@dataclass(frozen=True)
class PredParts:
    """The parts one prediction file holds: its top-level keys, its nodes' keys, and the
    structure they give."""

    top: frozenset[str]
    nodes: frozenset[str]
    structure: PredDiagramStructure

    @property
    def signature(self) -> tuple[frozenset[str], frozenset[str]]:
        """What files of one folder must share: both key sets."""
        return self.top, self.nodes

    def keys(self) -> tuple[str, str]:
        """Both key sets as messages write them (``{'a', 'b'}``)."""
        return _keys(dict.fromkeys(self.top)), _keys(dict.fromkeys(self.nodes))


def check_pred_file(data: object, path: Path) -> PredParts:
    """Check one prediction file as if it were the only one of its folder (Flowde's per-file
    rules); the parts it holds."""
    _expect(data, dict, path=path, where="top level", what="a prediction file")
    assert isinstance(data, dict)
    node_keys, structure = _pred_structure(data, path)
    _check_pred_file(path, data, node_keys, structure)
    return PredParts(frozenset(data), frozenset(node_keys), structure)


def check_pred_document(data: object, *, path: Path) -> Diagram:
    """Check one prediction as if it were the only file of a prediction folder; its Diagram.

    What ``parsescore predict`` uses to accept a model's answer: every rule the folder loader
    applies to a file, then the Diagram model's own (e.g. non-empty node texts).
    """
    parts = check_pred_file(data, path)
    assert isinstance(data, dict)
    source = PredDiagramSource(path.parent, (path,), parts.structure, (data,))
    return load_pred_diagrams(PredDiagramSources((source,), parts.structure))[0]


def _check_pred_nodes(
    path: Path, nodes: object, node_keys: set[str], structure: PredDiagramStructure
) -> None:
    _expect(nodes, list, path=path, where="'nodes'", what="'nodes'")
    assert isinstance(nodes, list)
    if not nodes:
        raise InputError("'nodes' should contain at least one node", path=path)
    for k, node in enumerate(nodes):
        where = f"nodes[{k}]"
        _expect(node, dict, path=path, where=where, what="a node")
        if set(node) != node_keys:
            raise InputError(
                f"node keys {_keys(node)} differ from the expected "
                f"{_keys(dict.fromkeys(node_keys))}; every node of every file in a directory "
                "must have the same keys",
                path=path,
                where=where,
            )
        _expect(node["node_number"], int, path=path, where=where, what="'node_number'")
        if structure.node_text:
            _expect(node["text"], str, path=path, where=where, what="'text'")
        if structure.labels:
            _expect(node["labels"], list, path=path, where=where, what="'labels'")
            for label in node["labels"]:
                _expect(label, str, path=path, where=where, what="each label")
        if structure.flow:
            _expect(node["points_to"], list, path=path, where=where, what="'points_to'")
            for target in node["points_to"]:
                _expect(target, int, path=path, where=where, what="each 'points_to' item")
    numbers = [node["node_number"] for node in nodes]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    if duplicates:
        raise InputError(f"node numbers must be unique; repeated: {duplicates}", path=path)
    if structure.flow:
        known = set(numbers)
        for k, node in enumerate(nodes):
            for target in node["points_to"]:
                if target not in known:
                    raise InputError(
                        f"node {node['node_number']} points to {target}, which is not a node "
                        f"of this prediction (nodes: {sorted(known)})",
                        path=path,
                        where=f"nodes[{k}].points_to",
                    )


def combined_structure(
    parts: Sequence[tuple[str, Iterable[ParsingPart]]],
) -> PredDiagramStructure:
    """The structure of predictions whose parts come from several sources (folders of
    separately parsed parts, named first in each pair): no part from two sources, and node text
    from one of them (labels, flow and additional text cannot match truth nodes on their own)."""
    part_sources: dict[ParsingPart, str] = {}
    for name, found in parts:
        for part in sorted(found):
            if part in part_sources:
                raise InputError(
                    f"predicted part {part!r} is supplied twice: in {part_sources[part]} "
                    f"and in {name}"
                )
            part_sources[part] = name
    structure = PredDiagramStructure(
        node_text="node_text" in part_sources,
        labels="labels" in part_sources,
        flow="flow" in part_sources,
        additional_texts="additional_texts" in part_sources,
    )
    if not structure.node_text:
        raise InputError(
            "predicted node text is required: labels, flow and additional text cannot match "
            "ground-truth nodes on their own (no nodes with 'text' in "
            f"{', '.join(name for name, _ in parts)})"
        )
    return structure


def validate_pred_diagram_sources(
    pred_diagrams_dirs: Path | Sequence[Path], fmt: str = "auto"
) -> PredDiagramSources:
    """Validate one prediction directory, or several holding separately parsed parts.

    ``fmt`` (``auto``: by extension) is the format of every file.
    """
    if isinstance(pred_diagrams_dirs, str | Path):
        directories: tuple[Path, ...] = (Path(pred_diagrams_dirs),)
    else:
        directories = tuple(Path(d) for d in pred_diagrams_dirs)
    if not directories:
        raise InputError("at least one prediction directory must be given")
    if len({d.resolve() for d in directories}) != len(directories):
        raise InputError(
            "each prediction directory may be given only once; found "
            f"{[str(d) for d in directories]}"
        )
    sources = tuple(_check_pred_directory(d, fmt) for d in directories)

    structure = combined_structure(
        [(str(source.diagrams_dir), source.structure.parts) for source in sources]
    )
    text_source = next(s for s in sources if s.structure.node_text)
    stems = [p.stem for p in text_source.paths]
    for source in sources:
        other = [p.stem for p in source.paths]
        if other != stems:
            raise InputError(
                "all prediction directories must hold files for the same flowcharts; "
                f"{source.diagrams_dir} vs {text_source.diagrams_dir}: missing "
                f"{sorted(set(stems) - set(other))}, extra {sorted(set(other) - set(stems))}"
            )
    for k, stem in enumerate(stems):
        expected = {n["node_number"] for n in text_source.data[k]["nodes"]}
        for source in sources:
            if source is text_source or not source.structure.has_nodes:
                continue
            found = {n["node_number"] for n in source.data[k]["nodes"]}
            if found != expected:
                raise InputError(
                    f"node numbers {sorted(found)} differ from {sorted(expected)} in the "
                    f"node-text file {text_source.paths[k]} for flowchart {stem}",
                    path=source.paths[k],
                )
    return PredDiagramSources(sources, structure)


def load_pred_diagrams(sources: PredDiagramSources) -> list[Diagram]:
    """Join the parts of each flowchart (nodes merged by number, sorted) into one Diagram."""
    return [
        join_pred_parts(
            path.stem,
            path,
            [(source.structure, source.data[k]) for source in sources.sources],
        )
        for k, path in enumerate(sources.node_text_source.paths)
    ]


def join_pred_parts(
    stem: str, path: Path | str, parts: Sequence[tuple[PredDiagramStructure, dict[str, Any]]]
) -> Diagram:
    """One flowchart's prediction from its checked part files (one, or one per folder of
    separately parsed parts): nodes merged by number and sorted, validated by the model."""
    nodes_by_number: dict[int, dict[str, Any]] = {}
    additional_texts = None
    for structure, data in parts:
        if structure.has_nodes:
            for node in data["nodes"]:
                nodes_by_number.setdefault(node["node_number"], {}).update(node)
        if structure.additional_texts:
            additional_texts = data["additional_texts"]
    nodes = [
        {**nodes_by_number[n], "parent_img_code": stem, "diagram_type": "pred"}
        for n in sorted(nodes_by_number)
    ]
    payload: dict[str, Any] = {
        "nodes": nodes,
        "parent_img_code": stem,
        "diagram_type": "pred",
        "true_option_idx": None,
    }
    if additional_texts is not None:
        payload["additional_texts"] = additional_texts
    return _validate_diagram(payload, path)


def _validate_diagram(
    payload: dict[str, Any],
    path: Path | str | dict[str, Path],
    option: int | None = None,
    *,
    isolated_nodes: bool = False,
) -> Diagram:
    """Validate with the model; ``path`` may map each ground-truth part to its file.

    ``isolated_nodes``: a ground truth read from Mermaid or DOT may have nodes in no edge.
    """
    try:
        return Diagram.model_validate(payload, context={"isolated_nodes": isolated_nodes})
    except ValidationError as exc:
        first = exc.errors()[0]
        if isinstance(path, dict):
            loc = first["loc"]
            field = loc[2] if len(loc) > 2 and loc[0] == "nodes" else loc[0] if loc else ""
            part = {"labels": "labels", "points_to": "flow", "additional_texts": "additional_texts"}
            path = path[part.get(str(field), "nodes")]
        places = [f"option {option}"] if option is not None else []
        if first["loc"]:
            places.append(".".join(str(x) for x in first["loc"]))
        error = InputError if option is None else TruthModelError
        message = first["msg"].removeprefix("Value error, ")
        raise error(message, path=path, where=", ".join(places) or None) from None


# ---------------------------------------------------------------------------------------------
# Ground truth


@dataclass(frozen=True)
class TruthFiles:
    """The four ground-truth part files of every flowchart, by stem (sorted)."""

    stems: tuple[str, ...]
    paths: dict[str, tuple[Path, ...]]  # part -> paths in stem order
    data: dict[str, tuple[dict[str, Any], ...]]  # part -> parsed JSON in stem order


def check_truth_files(
    *,
    true_nodes_dir: Path,
    true_labels_dir: Path,
    true_flow_dir: Path,
    true_additional_texts_dir: Path,
    pred_stems: Sequence[str],
    expected_num_diagrams: int,
    allow_missing_pred_diagrams: bool,
) -> TruthFiles:
    """Check the ground-truth directories against each other and the predictions."""
    dirs = {
        "nodes": Path(true_nodes_dir),
        "labels": Path(true_labels_dir),
        "flow": Path(true_flow_dir),
        "additional_texts": Path(true_additional_texts_dir),
    }
    paths = {part: tuple(_json_files(d, f"ground-truth {part}")) for part, d in dirs.items()}
    counts = {part: len(p) for part, p in paths.items()}
    if any(n != expected_num_diagrams for n in counts.values()):
        found = ", ".join(f"{part}: {n}" for part, n in counts.items())
        raise InputError(
            f"expected {expected_num_diagrams} flowcharts (expected_num_diagrams) in every "
            f"ground-truth directory, found {found}"
        )
    if not allow_missing_pred_diagrams and len(pred_stems) != expected_num_diagrams:
        raise InputError(
            f"expected {expected_num_diagrams} predicted flowcharts, found {len(pred_stems)} "
            "(pass allow_missing_pred_diagrams=True / --allow-missing to score a subset)"
        )
    stems = tuple(p.stem for p in paths["nodes"])
    for part, part_paths in paths.items():
        other = tuple(p.stem for p in part_paths)
        if other != stems:
            raise InputError(
                f"ground-truth {part} files do not match the nodes files: missing "
                f"{sorted(set(stems) - set(other))}, extra {sorted(set(other) - set(stems))}",
                path=dirs[part],
            )
    _check_pred_stems(stems, pred_stems, allow_missing_pred_diagrams)

    data = {part: tuple(load_json(p) for p in part_paths) for part, part_paths in paths.items()}
    # Flowde compares the parts with each other before it checks each file's types, so a value
    # that breaks both rules is reported as the mismatch; the per-file checks then follow.
    for k in range(len(stems)):
        _check_parts_agree(
            stems[k],
            {part: paths[part][k] for part in TRUTH_PARTS},
            {part: data[part][k] for part in TRUTH_PARTS},
        )
    for part in TRUTH_PARTS:
        for path, content in zip(paths[part], data[part], strict=True):
            _check_truth_options(path, content, part)
    return TruthFiles(stems, paths, data)


def _check_pred_stems(
    stems: Sequence[str], pred_stems: Sequence[str], allow_missing_pred_diagrams: bool
) -> None:
    if allow_missing_pred_diagrams:
        unknown = sorted(set(pred_stems) - set(stems))
        if unknown:
            raise InputError(f"predictions without ground truth: {unknown}")
    elif list(pred_stems) != list(stems):
        raise InputError(
            "prediction stems do not match the ground-truth stems: missing "
            f"{sorted(set(stems) - set(pred_stems))}, extra {sorted(set(pred_stems) - set(stems))}"
        )


def _node_numbers(option: object) -> list[Any] | None:
    """An option's node numbers, or None when its shape is too broken to compare."""
    if not isinstance(option, dict) or not isinstance(option.get("nodes"), list):
        return None
    nodes = option["nodes"]
    if not all(isinstance(n, dict) and "node_number" in n for n in nodes):
        return None
    numbers = [n["node_number"] for n in nodes]
    try:
        return sorted(numbers)
    except TypeError:
        return None


def _check_parts_agree(stem: str, paths: dict[str, Path], contents: dict[str, Any]) -> None:
    """Same number of options in the four parts, same node numbers per option (by equality)."""
    options = {}
    for part, content in contents.items():
        if not isinstance(content, dict) or "options" not in content:
            return  # the per-file checks name this problem
        value = content["options"]
        if not hasattr(value, "__len__"):
            return
        options[part] = value
    counts = {part: len(value) for part, value in options.items()}
    if len(set(counts.values())) != 1:
        found = ", ".join(f"{paths[part]}: {n}" for part, n in counts.items())
        raise InputError(
            f"flowchart {stem}: the four part files must have the same number of options; "
            f"found {found}"
        )
    if not all(isinstance(value, list) for value in options.values()):
        return
    for i in range(counts["nodes"]):
        numbers = {part: _node_numbers(options[part][i]) for part in ("nodes", "labels", "flow")}
        if any(v is None for v in numbers.values()):
            continue
        if not numbers["nodes"] == numbers["labels"] == numbers["flow"]:
            raise InputError(
                f"node numbers differ between parts in option {i}: nodes {numbers['nodes']}, "
                f"labels {numbers['labels']}, flow {numbers['flow']}",
                path=paths["nodes"],
            )


_TRUTH_NODE_KEYS = {"nodes": "text", "labels": "labels", "flow": "points_to"}


def _check_truth_options(path: Path, content: object, part: str) -> None:
    _expect(content, dict, path=path, where="top level", what="a ground-truth file")
    assert isinstance(content, dict)
    if set(content) != {"options"}:
        raise InputError(
            f"top-level keys {_keys(content)}; expected exactly {{'options'}}", path=path
        )
    options = content["options"]
    _expect(options, list, path=path, where="'options'", what="'options'")
    if not options:
        raise InputError("'options' should contain at least one option", path=path)
    for i, option in enumerate(options):
        where = f"option {i}"
        _expect(option, dict, path=path, where=where, what="an option")
        if part == "additional_texts":
            if set(option) != {"additional_texts"}:
                raise InputError(
                    f"keys {_keys(option)}; expected exactly {{'additional_texts'}}",
                    path=path,
                    where=where,
                )
            texts = option["additional_texts"]
            _expect(texts, list, path=path, where=where, what="'additional_texts'")
            for text in texts:
                _expect(text, str, path=path, where=where, what="each additional text")
            continue
        if set(option) != {"nodes"}:
            raise InputError(
                f"keys {_keys(option)}; expected exactly {{'nodes'}}", path=path, where=where
            )
        nodes = option["nodes"]
        _expect(nodes, list, path=path, where=where, what="'nodes'")
        for k, node in enumerate(nodes):
            node_where = f"{where}, nodes[{k}]"
            _expect(node, dict, path=path, where=node_where, what="a node")
            if "node_number" not in node:
                raise InputError("node has no 'node_number'", path=path, where=node_where)
            _expect(node["node_number"], int, path=path, where=node_where, what="'node_number'")
        numbers = [n["node_number"] for n in nodes]
        duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
        if duplicates:
            raise InputError(
                f"node numbers must be unique; repeated: {duplicates}", path=path, where=where
            )
        if not nodes:
            raise InputError("an option needs at least one node", path=path, where=where)
        if set(numbers) != set(range(1, len(numbers) + 1)):
            raise InputError(
                f"ground-truth node numbers must be 1..{len(numbers)}, found {sorted(numbers)}",
                path=path,
                where=where,
            )
        key = _TRUTH_NODE_KEYS[part]
        for node in nodes:
            node_where = f"{where}, node {node['node_number']}"
            if set(node) != {"node_number", key}:
                raise InputError(
                    f"node keys {_keys(node)}; expected exactly {{'node_number', '{key}'}}",
                    path=path,
                    where=node_where,
                )
            value = node[key]
            if part == "nodes":
                _expect(value, str, path=path, where=node_where, what="'text'")
            elif part == "labels":
                _expect(value, list, path=path, where=node_where, what="'labels'")
                for label in value:
                    _expect(label, str, path=path, where=node_where, what="each label")
            else:
                _expect(value, list, path=path, where=node_where, what="'points_to'")
                for target in value:
                    _expect(target, int, path=path, where=node_where, what="each 'points_to' item")
                duplicates = sorted({t for t in value if value.count(t) > 1})
                if duplicates:
                    raise InputError(
                        f"duplicate edges in 'points_to': {duplicates}", path=path, where=node_where
                    )
        if part == "flow":
            in_flow = {n["node_number"] for n in nodes if n["points_to"]}
            in_flow |= {t for n in nodes for t in n["points_to"]}
            outside = sorted(set(numbers) - in_flow)
            if outside:
                raise InputError(
                    f"every node must point to or be pointed to by another node; not in the "
                    f"flow: {outside}",
                    path=path,
                    where=where,
                )
            unknown = sorted(in_flow - set(numbers))
            if unknown:
                raise InputError(
                    f"'points_to' refers to nodes that do not exist: {unknown}",
                    path=path,
                    where=where,
                )


def load_true_diagram_options(
    truth: TruthFiles, stems: Sequence[str] | None = None
) -> list[DiagramOptions]:
    """Combine the four part files of each flowchart into its options (nodes sorted)."""
    wanted = set(truth.stems if stems is None else stems)
    result = []
    for k, stem in enumerate(truth.stems):
        if stem not in wanted:
            continue
        options = []
        parts = {part: truth.data[part][k]["options"] for part in TRUTH_PARTS}
        for i in range(len(parts["nodes"])):
            by_part = {
                part: sorted(parts[part][i]["nodes"], key=lambda n: n["node_number"])
                for part in ("nodes", "labels", "flow")
            }
            nodes = [
                {
                    "node_number": t["node_number"],
                    "text": t["text"],
                    "labels": lab["labels"],
                    "points_to": flo["points_to"],
                    "parent_img_code": stem,
                    "diagram_type": "true",
                    "true_option_idx": i,
                }
                for t, lab, flo in zip(
                    by_part["nodes"], by_part["labels"], by_part["flow"], strict=True
                )
            ]
            payload = {
                "nodes": nodes,
                "additional_texts": parts["additional_texts"][i]["additional_texts"],
                "parent_img_code": stem,
                "diagram_type": "true",
                "true_option_idx": i,
            }
            files = {part: truth.paths[part][k] for part in TRUTH_PARTS}
            options.append(_validate_diagram(payload, files, option=i))
        result.append(DiagramOptions(options=options, parent_img_code=stem))
    return result


# ---------------------------------------------------------------------------------------------
# Ground truth as Mermaid or DOT files (one option each)


@dataclass(frozen=True)
class FormatTruth:
    """A ground-truth folder of Mermaid/DOT files (or their texts): one option per flowchart,
    with edge labels; ``formats`` says which format each was read in."""

    stems: tuple[str, ...]
    options: tuple[DiagramOptions, ...]
    edge_labels: dict[str, EdgeLabels]
    paths: tuple[Path, ...]
    formats: tuple[str, ...] = ()


def is_format_truth(directory: Path, fmt: str = "auto") -> bool:
    """Whether ``directory`` is a folder of Mermaid/DOT truth files (not the four-part layout)."""
    directory = Path(directory)
    if fmt == "json" or not directory.is_dir():
        return False
    if all((directory / part).is_dir() for part in TRUTH_PARTS):
        return False
    return bool(format_truth_paths(directory, fmt))


def format_truth_paths(directory: Path, fmt: str = "auto") -> list[Path]:
    """The Mermaid/DOT files of a ground-truth folder (every format but Flowde's JSON, whose
    truth is four folders of parts), sorted by stem."""
    paths = [
        p
        for p in flowchart_files(Path(directory), "ground-truth", fmt)
        if format_of(p, fmt) not in (None, "json")
    ]
    return sorted(paths, key=lambda p: p.stem)


def load_format_truth(
    directory: Path,
    fmt: str = "auto",
    *,
    expected_num_diagrams: int,
    pred_stems: Sequence[str],
    allow_missing_pred_diagrams: bool,
) -> FormatTruth:
    """Read and check a folder of single-option ``.mmd``/``.mermaid``/``.dot``/``.gv`` truths."""
    directory = Path(directory)
    paths = format_truth_paths(directory, fmt)
    if not paths:
        raise InputError(
            "no ground-truth .mmd, .mermaid, .dot or .gv files, nor nodes/ labels/ flow/ "
            "additional_texts/ folders",
            path=directory,
        )
    stems = tuple(p.stem for p in paths)
    if len(stems) != expected_num_diagrams:
        raise InputError(
            f"expected {expected_num_diagrams} flowcharts (expected_num_diagrams) in the "
            f"ground truth, found {len(stems)}",
            path=directory,
        )
    if not allow_missing_pred_diagrams and len(pred_stems) != expected_num_diagrams:
        raise InputError(
            f"expected {expected_num_diagrams} predicted flowcharts, found {len(pred_stems)} "
            "(pass allow_missing_pred_diagrams=True / --allow-missing to score a subset)"
        )
    _check_pred_stems(stems, sorted(pred_stems), allow_missing_pred_diagrams)
    options = []
    edge_labels: dict[str, EdgeLabels] = {}
    formats = []
    for stem, path in zip(stems, paths, strict=True):
        found = format_of(path, fmt)
        assert found is not None  # format_truth_paths kept Mermaid and DOT files only
        option, labels = _format_truth_option(stem, read_text(path), found, path)
        options.append(option)
        edge_labels[stem] = labels
        formats.append(found)
    return FormatTruth(stems, tuple(options), edge_labels, tuple(paths), tuple(formats))


def format_truth_from_texts(
    texts: Mapping[str, str], fmt: str = "auto", *, expected_num_diagrams: int | None = None
) -> FormatTruth:
    """Single-option truths given as ``{id: Mermaid or DOT text}`` (``auto``: the format by
    content); errors name the id as ``truth item 'id'``."""
    if fmt == "json":
        raise InputError(f"a ground truth given as text is Mermaid or DOT, not {fmt!r}")
    if not texts:
        raise InputError("no ground-truth flowchart given")
    if expected_num_diagrams is not None and len(texts) != expected_num_diagrams:
        raise InputError(
            f"expected {expected_num_diagrams} flowcharts (expected_num_diagrams) in the "
            f"ground truth, found {len(texts)}"
        )
    stems = tuple(sorted(texts))
    options = []
    edge_labels: dict[str, EdgeLabels] = {}
    formats = []
    for stem in stems:
        where = f"truth item {stem!r}"
        text = texts[stem]
        if not isinstance(text, str):
            raise InputError(f"a truth text should be a string, found {type(text).__name__}")
        found = detect_format(text) if fmt == "auto" else flowchart_format(fmt).name
        if found is None or found == "json":
            raise InputError(
                "not a Mermaid or DOT flowchart (a ground truth given as text is one of them)",
                path=where,
                where="line 1, column 1",
            )
        option, labels = _format_truth_option(stem, text, found, where)
        options.append(option)
        edge_labels[stem] = labels
        formats.append(found)
    return FormatTruth(
        stems, tuple(options), edge_labels, tuple(Path(s) for s in stems), tuple(formats)
    )


def _format_truth_option(
    stem: str, text: str, fmt: str, path: Path | str
) -> tuple[DiagramOptions, EdgeLabels]:
    """One Mermaid/DOT truth as a single-option flowchart, and its edge labels."""
    data, labels = flowde_data(read_flowchart(text, fmt, path=path))
    payload = {
        "nodes": [
            {**node, "parent_img_code": stem, "diagram_type": "true", "true_option_idx": 0}
            for node in data["nodes"]
        ],
        "additional_texts": data["additional_texts"],
        "parent_img_code": stem,
        "diagram_type": "true",
        "true_option_idx": 0,
    }
    if not payload["nodes"]:
        raise InputError("the flowchart has no nodes", path=path)
    diagram = _validate_diagram(payload, path, option=0, isolated_nodes=True)
    return DiagramOptions(options=[diagram], parent_img_code=stem), labels or {}
