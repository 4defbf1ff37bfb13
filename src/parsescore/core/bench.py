"""A whole benchmark from one config: datasets × systems (of any kinds), scored, compared and
reported into one folder (``parsescore bench CONFIG.toml --out DIR``).

The config is TOML (:data:`EXAMPLE` is a commented one; ``parsescore bench --init`` writes it).
Each ``[[dataset]]`` names its kind, its truth and the kind's options by their declared names
(``parsescore <kind> --help``; docs/kinds.md); each ``[[dataset.system]]`` gives its predictions
(``pred``, as the kind's ``--pred`` takes them) or asks a vision-language model for them
(``predict``: the images and the model, as ``parsescore predict`` takes them), with options of
its own that override the dataset's. Paths are relative to the config file. Everything is checked
before anything runs; an error names the key and its line.

The folder gets, per dataset, each system's result envelope (``<dataset>/<system>.json``), the
comparison of its systems (``<dataset>/comparison.json``); for the whole benchmark the leaderboard
tables (``leaderboard.md``, ``.tex``, ``.csv``: one table per dataset, systems × headline
statistics with intervals) and one HTML report (``report/index.html``). Items are cached in
``cache/``, so a re-run scores only what changed; predictions of ``predict`` systems are kept in
``<dataset>/predictions/<system>/`` and resumed.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.kinds import get_kind, kind_names
from parsescore.core.options import NamedOptions, check_options, declared
from parsescore.core.results import Result

__all__ = ["EXAMPLE", "Bench", "BenchDataset", "BenchSystem", "load_bench", "run_bench"]

EXAMPLE = """\
# parsescore bench: datasets × systems, scored, compared and reported into one folder.
#   parsescore bench bench.toml --out results/
# Paths are relative to this file. Kind options go by their names in `parsescore <kind> --help`
# (with _ for -), e.g. structure_only = true for --structure-only.

[bench]
title = "My benchmark"     # the report's title
seed = 0                   # seed of the bootstrap intervals and the permutation tests
resamples = 10000          # bootstrap resamples
permutations = 10000       # random sign flips of the paired tests (exact when 2^n is fewer)

[[dataset]]
name = "tables"            # the dataset's folder in the output: letters, digits, . _ -
kind = "table"
truth = "truth/tables.json"
options = { structure_only = false }

[[dataset.system]]
name = "model_a"
pred = "runs/model_a/tables.json"

[[dataset.system]]
name = "model_b"
pred = "runs/model_b/tables"
options = { pred_format = "markdown" }   # this system's own options override the dataset's

# A system whose predictions a vision-language model makes first (the predict extra):
# [[dataset.system]]
# name = "local-vlm"
# predict = { images = "images/tables", model = "my-model", base_url = "http://localhost:8000/v1" }

[[dataset]]
name = "sequences"
kind = "sequence"
truth = "truth/sequences"

[[dataset.system]]
name = "model_a"
pred = "runs/model_a/sequences"

[[dataset.system]]
name = "model_b"
pred = "runs/model_b/sequences"
"""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_BENCH_KEYS = {"title": str, "seed": int, "resamples": int, "permutations": int}
_PREDICT_KEYS = {
    "images": str,
    "model": str,
    "base_url": str,
    "api_key_env": str,
    "concurrency": int,
    "prompt": str,
    "timeout": float,
    "max_retries": int,
    "retry_base": float,
    "structured_output": bool,
    "temperature": float,
    "max_tokens": int,
    "format": str,
}


@dataclass(frozen=True)
class BenchSystem:
    """One system of a dataset: its predictions (``pred``) or how to ask for them
    (``predict``: ``images`` and :class:`parsescore.predict.PredictOptions` fields), and its
    options (the dataset's, overridden by its own)."""

    name: str
    pred: Path | None
    predict: Mapping[str, Any] | None
    options: Mapping[str, Any]


@dataclass(frozen=True)
class BenchDataset:
    """One dataset: its kind, its truth and its systems."""

    name: str
    kind: str
    truth: Path
    systems: tuple[BenchSystem, ...]


@dataclass(frozen=True)
class Bench:
    """A benchmark config, checked (:func:`load_bench`)."""

    path: Path
    datasets: tuple[BenchDataset, ...]
    title: str = "parsescore benchmark"
    seed: int = 0
    resamples: int = 10_000
    permutations: int = 10_000
    lines: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)


# -- reading ------------------------------------------------------------------------------------


def _key_lines(text: str) -> dict[str, int]:
    """The line of every key and table of a TOML text, by its path (``dataset[1].system[0].pred``),
    for error messages (tomllib keeps no positions)."""
    lines: dict[str, int] = {}
    counts: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.fullmatch(r"\[\[\s*([\w.-]+)\s*\]\](?:\s*#.*)?", stripped)
        if header:
            name = header[1]
            parent = ".".join(name.split(".")[:-1])
            prefix = _indexed(table, parent) if parent else ""
            key = f"{prefix}.{name.split('.')[-1]}" if prefix else name
            counts[key] = counts.get(key, -1) + 1
            table = f"{key}[{counts[key]}]"
            lines[table] = number
            continue
        header = re.fullmatch(r"\[\s*([\w.-]+)\s*\](?:\s*#.*)?", stripped)
        if header:
            table = header[1]
            lines[table] = number
            continue
        key = re.match(r"([\w-]+)\s*=", stripped)
        if key:
            lines[f"{table}.{key[1]}" if table else key[1]] = number
    return lines


def _indexed(table: str, parent: str) -> str:
    """The indexed path of ``parent`` (``dataset``) within the current table path
    (``dataset[1].system[0]`` → ``dataset[1]``)."""
    parts = table.split(".")
    wanted = parent.split(".")
    out = []
    for part, name in zip(parts, wanted, strict=False):
        if part.split("[")[0] != name:
            break
        out.append(part)
    return ".".join(out) if len(out) == len(wanted) else parent


class _Reader:
    """Checks the parsed config, naming the key path and its line in every error."""

    def __init__(self, path: Path, lines: Mapping[str, int]) -> None:
        self.path = path
        self.lines = lines

    def fail(self, where: str, message: str) -> InputError:
        line = self.lines.get(where)
        while line is None and "." in where:  # a key inside an inline table: its table's line
            where_parent = where.rsplit(".", 1)[0]
            line = self.lines.get(where_parent)
            if line is not None:
                break
            where = where_parent
        at = f"line {line}, {where}" if line is not None else where
        return InputError(message, path=self.path, where=at)

    def table(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table, found {type(value).__name__}")
        return value

    def keys(self, value: Mapping[str, Any], where: str, allowed: Sequence[str]) -> None:
        for key in value:
            if key not in allowed:
                raise self.fail(
                    f"{where}.{key}" if where else key,
                    f"unknown key {key!r}; expected {', '.join(allowed)}",
                )

    def typed(self, value: Any, kind: type, where: str) -> Any:
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok, value = True, float(value)
        if not ok:
            raise self.fail(where, f"expected {kind.__name__}, found {value!r}")
        return value

    def name(self, value: Any, where: str) -> str:
        text = self.typed(value, str, where)
        if not _NAME.fullmatch(text):
            raise self.fail(
                where,
                f"{text!r} is not a folder-safe name (letters, digits, . _ -, first a "
                "letter or digit)",
            )
        return str(text)

    def existing(self, value: Any, where: str) -> Path:
        text = self.typed(value, str, where)
        path: Path = (self.path.parent / text).resolve()
        if not path.exists():
            raise self.fail(where, f"{text} does not exist (looked for {path})")
        return path


def load_bench(path: str | Path) -> Bench:
    """Read and check a benchmark config: every key known, every path present, every kind
    registered, every option one its kind declares with a value it takes."""
    from parsescore.core.files import read_text

    path = Path(path)
    text = read_text(path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", path=path) from None
    r = _Reader(path, _key_lines(text))
    r.keys(doc, "", ("bench", "dataset"))
    settings = dict(r.table(doc.get("bench", {}), "bench"))
    r.keys(settings, "bench", tuple(_BENCH_KEYS))
    for key, kind in _BENCH_KEYS.items():
        if key in settings:
            settings[key] = r.typed(settings[key], kind, f"bench.{key}")
            if kind is int and settings[key] < (0 if key == "seed" else 1):
                raise r.fail(f"bench.{key}", f"must be {'0' if key == 'seed' else '1'} or more")
    raw = doc.get("dataset")
    if not isinstance(raw, list) or not raw:
        raise r.fail("dataset", "a config needs at least one [[dataset]] table")
    datasets = []
    for d, entry in enumerate(raw):
        datasets.append(_dataset(r, r.table(entry, f"dataset[{d}]"), f"dataset[{d}]"))
    names = [dataset.name for dataset in datasets]
    for d, name in enumerate(names):
        if names.index(name) != d:
            raise r.fail(f"dataset[{d}].name", f"dataset {name!r} appears twice")
    return Bench(path, tuple(datasets), lines=r.lines, **settings)


def _dataset(r: _Reader, entry: Mapping[str, Any], where: str) -> BenchDataset:
    r.keys(entry, where, ("name", "kind", "truth", "options", "system"))
    for key in ("name", "kind", "truth", "system"):
        if key not in entry:
            raise r.fail(where, f"missing key {key!r}")
    name = r.name(entry["name"], f"{where}.name")
    kind = r.typed(entry["kind"], str, f"{where}.kind")
    if kind not in kind_names():
        raise r.fail(
            f"{where}.kind", f"unknown kind {kind!r}; expected one of {', '.join(kind_names())}"
        )
    truth = r.existing(entry["truth"], f"{where}.truth")
    options = dict(r.table(entry.get("options", {}), f"{where}.options"))
    systems_raw = entry["system"]
    if not isinstance(systems_raw, list) or not systems_raw:
        raise r.fail(f"{where}.system", "a dataset needs at least one [[dataset.system]] table")
    systems = []
    for s, raw in enumerate(systems_raw):
        at = f"{where}.system[{s}]"
        system = r.table(raw, at)
        r.keys(system, at, ("name", "pred", "predict", "options"))
        if "name" not in system:
            raise r.fail(at, "missing key 'name'")
        if ("pred" in system) == ("predict" in system):
            raise r.fail(at, "give exactly one of pred (a prediction path) or predict (a model)")
        own = dict(r.table(system.get("options", {}), f"{at}.options"))
        merged = {**options, **own}
        _check_kind_options(r, kind, merged, f"{at}.options" if own else f"{where}.options")
        predict = None
        pred = None
        if "predict" in system:
            predict = _predict(r, kind, r.table(system["predict"], f"{at}.predict"), at)
        else:
            pred = r.existing(system["pred"], f"{at}.pred")
        systems.append(BenchSystem(r.name(system["name"], f"{at}.name"), pred, predict, merged))
    seen = [system.name for system in systems]
    for s, system_name in enumerate(seen):
        if seen.index(system_name) != s:
            raise r.fail(f"{where}.system[{s}].name", f"system {system_name!r} appears twice")
    return BenchDataset(name, kind, truth, tuple(systems))


#: Options a benchmark sets itself (one cache, one name per system, one progress setting).
_SET_BY_BENCH = ("name", "cache", "jobs", "dask_scheduler", "quiet")


def _check_kind_options(r: _Reader, kind: str, options: Mapping[str, Any], where: str) -> None:
    model = get_kind(kind).options
    if model is None:
        return
    for key in options:
        if key in _SET_BY_BENCH:
            raise r.fail(f"{where}.{key}", f"{key!r} is set by parsescore bench, not per dataset")
    try:
        check_options(kind, declared(model), options)
    except InputError as exc:
        raise r.fail(where, str(exc)) from None


def _predict(r: _Reader, kind: str, table: Mapping[str, Any], at: str) -> dict[str, Any]:
    if get_kind(kind).predict is None:
        raise r.fail(f"{at}.predict", f"{kind} answers are not predicted from images")
    r.keys(table, f"{at}.predict", tuple(_PREDICT_KEYS))
    for key in ("images", "model"):
        if key not in table:
            raise r.fail(f"{at}.predict", f"missing key {key!r}")
    out = {k: r.typed(v, _PREDICT_KEYS[k], f"{at}.predict.{k}") for k, v in table.items()}
    out["images"] = r.existing(out["images"], f"{at}.predict.images")
    if "prompt" in out:
        from parsescore.core.files import read_text

        out["prompt"] = read_text(r.existing(out["prompt"], f"{at}.predict.prompt"))
    return out


# -- running ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchOutput:
    """What a run wrote: every result, by dataset, and the files."""

    results: Mapping[str, tuple[Result, ...]]
    files: tuple[Path, ...]


def run_bench(
    bench: Bench,
    out: Path,
    *,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    quiet: bool = False,
    announce: Callable[[str], None] | None = None,
) -> BenchOutput:
    """Score every system of every dataset into ``out`` (see the module docstring)."""
    from parsescore.core.api import evaluate
    from parsescore.core.compare import compare_results
    from parsescore.core.files import csv_rows, csv_text, write_json, write_text
    from parsescore.core.leaderboard import to_csv, to_latex, to_markdown
    from parsescore.core.markdown import inert_markdown

    say = announce or (lambda _: None)
    by_dataset: dict[str, tuple[Result, ...]] = {}
    files: list[Path] = []
    boards: dict[str, list[str]] = {"md": [], "tex": [], "csv": []}
    for dataset in bench.datasets:
        folder = out / dataset.name
        results = []
        for system in dataset.systems:
            say(f"{dataset.name}: {system.name}")
            pred = system.pred
            run_options: Mapping[str, Any] = {}
            if pred is None:
                predictions = folder / "predictions" / system.name
                pred, run_options = _predicted(dataset, system, predictions)
            options = (
                dict(run_options)
                | dict(system.options)
                | {
                    "name": system.name,
                    "cache": out / "cache",
                    "jobs": jobs,
                    "dask_scheduler": dask_scheduler,
                    "quiet": quiet,
                }
            )
            known = {o.name for o in declared(get_kind(dataset.kind).options or NamedOptions)}
            result = evaluate(
                dataset.kind,
                dataset.truth,
                pred,
                **{k: v for k, v in options.items() if k in known},
            )
            path = folder / f"{system.name}.json"
            result.write(path)
            files.append(path)
            results.append(result)
        by_dataset[dataset.name] = tuple(results)
        if len(results) < 2:
            continue
        comparison = compare_results(
            results,
            seed=bench.seed,
            n_resamples=bench.resamples,
            n_permutations=bench.permutations,
        )
        path = folder / "comparison.json"
        write_json(path, comparison.to_json())
        files.append(path)
        title = f"{dataset.name} ({get_kind(dataset.kind).title.lower()})"
        heading = inert_markdown(f"## {title}")  # the table is inert already
        boards["md"].append(f"{heading}\n\n{to_markdown(comparison)}")
        boards["tex"].append(f"% {title}\n{to_latex(comparison)}")
        first, *rows = _csv_table(to_csv(comparison))
        if not boards["csv"]:
            boards["csv"].append(csv_rows([["dataset", *first]]).removesuffix("\n"))
        named = [[csv_text(dataset.name), *row] for row in rows]
        if named:
            boards["csv"].append(csv_rows(named).removesuffix("\n"))
    if boards["md"]:
        header = f"# {bench.title}\n\n"
        for suffix, parts in boards.items():
            path = out / f"leaderboard.{suffix}"
            joiner = "\n" if suffix == "csv" else "\n\n"
            write_text(
                path,
                (header if suffix == "md" else "")
                + joiner.join(parts)
                + ("\n" if suffix == "csv" else ""),
            )
            files.append(path)
    return BenchOutput(by_dataset, tuple(files))


def _predicted(
    dataset: BenchDataset, system: BenchSystem, folder: Path
) -> tuple[Path, Mapping[str, Any]]:
    """Ask the system's model for a prediction of every image (resuming what an earlier run
    finished); what the kind then scores and the options it scores them with, as ``run``."""
    from parsescore.predict.engine import PredictOptions, predict_images, prediction_to_score

    assert system.predict is not None
    settings = dict(system.predict)
    images = settings.pop("images")
    options = PredictOptions(**settings, on_existing="resume")
    summary = predict_images(dataset.kind, images, folder, options)
    target = folder.parent / f"{system.name}.predictions.json"
    try:
        return prediction_to_score(dataset.truth, summary, options.format, target)
    except InputError as error:
        raise InputError(f"{dataset.name}/{system.name}: {error}") from None


def _csv_table(text: str) -> list[list[str]]:
    """The rows of CSV text (a quoted cell may hold a line break)."""
    import csv
    import io

    return list(csv.reader(io.StringIO(text, newline="")))
