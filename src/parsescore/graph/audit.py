"""Template-level evaluation without ground truth (docling-graph's ``templategen/evaluate.py``).

From an exported graph (and its ``provenance.json``) it reports what the converter already
records: graph audit keys translated into rulebook advice, per-class fill rates of the declared
node attributes, and grounding precision (string attributes found verbatim, whitespace-collapsed,
in some provenance chunk). Advisory only; nothing is re-extracted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.core.errors import InputError
from parsescore.core.files import load_json, read_text
from parsescore.core.markdown import inert_markdown
from parsescore.graph.io import read_graph
from parsescore.graph.template import GraphData, load_template

__all__ = [
    "AuditFinding",
    "ClassFillRate",
    "DocumentEvaluation",
    "EvaluationReport",
    "EvaluationSummary",
    "GroundingReport",
    "audit_graph_file",
]

AUDIT_KEY_RULEBOOK: dict[str, str] = {
    "empty_identity_nodes": (
        "field-definitions.md#identity-fields — nodes were exported without any identity "
        "value, so the document never names these instances: make the class a component "
        "(entities-vs-components.md) or rewrite the identity field's LOOK-FOR description."
    ),
    "demoted_nodes": (
        "best-practices.md#graph-assembly-mechanics — the extraction found more instances than "
        "the class's graph_max_instances bound: bound only classes whose docstring documents "
        "a cardinality, at about twice that maximum."
    ),
    "closed_catalog_drops": (
        "relationships.md#closed-catalog-reference-edges-closed_catalogtrue — reference edges "
        "pointed at catalog members that were never anchored where the catalog lives: invented "
        "members of a fixed list."
    ),
    "dropped_relationships": (
        "best-practices.md#deterministic-grounding-readiness — relationships pointed at empty "
        "placeholder nodes and were dropped: the target class's field descriptions "
        "(field-definitions.md LOOK-FOR guidance) find nothing in the document."
    ),
    "alias_reconciliation": (
        "field-definitions.md#identity-fields — one entity came out under several identity "
        "spellings or granularities and needed alias merging: give the identity field verbatim "
        "examples so a single canonical form wins."
    ),
}
"""Graph audit key → the template-writing rule it points at (our wording of the rulebook)."""

UNGROUNDED_SAMPLE_CAP = 10
MIN_GROUNDABLE_CHARS = 2
_NODE_META = frozenset(
    {
        "id",
        "label",
        "type",
        "__class__",
        "__provenance__",
        "merged_aliases",
        "merged_from",
        "__conflicts__",
    }
)


class AuditFinding(BaseModel):
    """One populated graph audit key with its size and the rule it points at."""

    model_config = ConfigDict(extra="forbid")
    key: str
    count: int
    rulebook: str = Field(description="The rulebook clause this audit key points at.")


class ClassFillRate(BaseModel):
    """How full one class's declared node attributes are."""

    model_config = ConfigDict(extra="forbid")
    model: str
    node_count: int
    declared_fields: list[str] = Field(description="Node-attribute fields (entity edges excluded).")
    filled_counts: dict[str, int] = Field(default_factory=dict)
    fill_rate: float = Field(default=0.0, description="Mean filled fraction per node (0 if none).")


class GroundingReport(BaseModel):
    """Share of string attributes found verbatim in the provenance chunks."""

    model_config = ConfigDict(extra="forbid")
    checked: int = 0
    grounded: int = 0
    precision: float | None = None
    root_id_synthetic: bool = False
    ungrounded_samples: list[str] = Field(default_factory=list)


class DocumentEvaluation(BaseModel):
    """Everything read from one document's exported graph."""

    model_config = ConfigDict(extra="forbid")
    source: str
    succeeded: bool
    error: str | None = None
    node_count: int = 0
    edge_count: int = 0
    extracted_models: int = 0
    audit_findings: list[AuditFinding] = Field(default_factory=list)
    fill_rates: list[ClassFillRate] = Field(default_factory=list)
    dense_stats: dict[str, Any] | None = None
    grounding: GroundingReport | None = None


class EvaluationSummary(BaseModel):
    """Totals over every evaluated document."""

    model_config = ConfigDict(extra="forbid")
    documents: int = 0
    failed: int = 0
    total_nodes: int = 0
    total_edges: int = 0
    audit_totals: dict[str, int] = Field(default_factory=dict)
    mean_fill_rate: float | None = None
    grounding_precision: float | None = None
    root_id_synthetic_documents: int = 0


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


class EvaluationReport(BaseModel):
    """Per-document evaluations and their summary."""

    model_config = ConfigDict(extra="forbid")
    template: str
    per_document: list[DocumentEvaluation] = Field(default_factory=list)
    summary: EvaluationSummary = Field(default_factory=EvaluationSummary)

    @classmethod
    def from_documents(cls, template: str, documents: list[DocumentEvaluation]) -> EvaluationReport:
        """Build the report; the summary pools grounding counts (Σgrounded / Σchecked)."""
        totals: dict[str, int] = {}
        rates: list[float] = []
        checked = grounded = synthetic = 0
        for document in documents:
            for finding in document.audit_findings:
                totals[finding.key] = totals.get(finding.key, 0) + finding.count
            rates.extend(r.fill_rate for r in document.fill_rates if r.node_count > 0)
            if document.grounding is not None:
                checked += document.grounding.checked
                grounded += document.grounding.grounded
                synthetic += int(document.grounding.root_id_synthetic)
        summary = EvaluationSummary(
            documents=len(documents),
            failed=sum(1 for d in documents if not d.succeeded),
            total_nodes=sum(d.node_count for d in documents),
            total_edges=sum(d.edge_count for d in documents),
            audit_totals=totals,
            mean_fill_rate=sum(rates) / len(rates) if rates else None,
            grounding_precision=grounded / checked if checked else None,
            root_id_synthetic_documents=synthetic,
        )
        return cls(template=template, per_document=documents, summary=summary)

    def render_markdown(self) -> str:
        """Timestamp-free Markdown: summary, rulebook table, then one section per document."""
        s = self.summary
        lines = [
            f"# Template evaluation — `{_line(self.template).replace('`', '')}`",
            "",
            "## Summary",
            "",
            "| documents | failed | nodes | edges | mean fill rate | grounding precision |",
            "| --- | --- | --- | --- | --- | --- |",
            f"| {s.documents} | {s.failed} | {s.total_nodes} | {s.total_edges} "
            f"| {_rate(s.mean_fill_rate)} | {_rate(s.grounding_precision)} |",
            "",
        ]
        if s.root_id_synthetic_documents:
            lines += [
                f"- In {s.root_id_synthetic_documents} document(s) the root id is the file-stem "
                "fallback: the template's root identity field finds nothing the document prints.",
                "",
            ]
        if s.audit_totals:
            lines += [
                "### Rulebook violations (graph audit keys)",
                "",
                "| audit key | total | rulebook clause |",
                "| --- | --- | --- |",
            ]
            lines += [
                f"| `{key}` | {s.audit_totals[key]} | {AUDIT_KEY_RULEBOOK.get(key, '')} |"
                for key in sorted(s.audit_totals)
            ]
            lines.append("")
        for document in self.per_document:
            lines += [f"## {_line(document.source)}", ""]
            if not document.succeeded:
                lines += [f"- **Extraction failed:** {_line(document.error)}", ""]
                continue
            lines += [f"- {document.node_count} node(s) / {document.edge_count} edge(s)", ""]
            if document.audit_findings:
                lines += ["| audit key | count | rulebook clause |", "| --- | --- | --- |"]
                lines += [
                    f"| `{f.key}` | {f.count} | {f.rulebook} |" for f in document.audit_findings
                ]
                lines.append("")
            if document.fill_rates:
                lines += ["| class | nodes | fill rate |", "| --- | --- | --- |"]
                lines += [
                    f"| {_line(r.model)} | {r.node_count} | {_rate(r.fill_rate)} |"
                    for r in document.fill_rates
                ]
                lines.append("")
            g = document.grounding
            if g is not None:
                lines.append(
                    f"- Grounding: {g.grounded}/{g.checked} checked values found verbatim in "
                    f"the provenance chunks ({_rate(g.precision)})"
                )
                if g.root_id_synthetic:
                    lines.append(
                        "- The root id equals the source file stem (a synthetic fallback); it "
                        "is left out of grounding and flagged as a template smell."
                    )
                lines += [f"  - ungrounded: {_line(sample)}" for sample in g.ungrounded_samples]
                lines.append("")
            if document.dense_stats:
                lines += ["Dense contract stats:", ""]
                lines += [f"- {k}: {document.dense_stats[k]}" for k in sorted(document.dense_stats)]
                lines.append("")
        return inert_markdown("\n".join(lines).rstrip() + "\n")


def _line(value: object) -> str:
    """Text from a document or a template on one Markdown line, its pipes escaped (the report
    is then made inert: :func:`~parsescore.core.markdown.inert_markdown`)."""
    return " ".join(str(value).splitlines()).replace("|", "\\|")


def _audit_count(key: str, value: Any) -> int:
    """Size of one audit payload (its shape varies per key)."""
    if key == "alias_reconciliation" and isinstance(value, Mapping):
        try:
            return int(value.get("merged") or 0) or int(value.get("candidates") or 0)
        except (TypeError, ValueError):  # not counts: count the entries, as for other keys
            return len(value)
    if isinstance(value, Mapping):
        try:
            return int(sum(int(v) for v in value.values()))
        except (TypeError, ValueError):
            return len(value)
    if isinstance(value, list | tuple | set):
        return len(value)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    return 1


def _core_type(annotation: Any) -> Any:
    current = annotation
    for _ in range(16):
        origin = get_origin(current)
        if origin is Annotated:
            current = get_args(current)[0]
        elif origin is Union or (
            origin is not None and getattr(origin, "__name__", "") == "UnionType"
        ):
            args = [a for a in get_args(current) if a is not type(None)]
            if not args:
                return type(None)
            models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
            current = models[0] if models else args[0]
        elif origin in (list, set, frozenset, tuple):
            items = get_args(current)
            if not items:
                return Any
            current = items[0]
        else:
            return current
    return current


def _is_component(model: type[BaseModel]) -> bool:
    return model.model_config.get("is_entity", True) is False


def declared_attribute_fields(
    template: type[BaseModel],
) -> tuple[dict[str, list[str]], str, list[str]]:
    """Per class (breadth-first from the root) the fields that are node attributes.

    A field is an attribute unless its type is an entity model (those are edges); components
    never become nodes. Also returns the root name and its identity fields.
    """
    queue: list[type[BaseModel]] = [template]
    seen: set[int] = {id(template)}
    ordered: list[type[BaseModel]] = []
    while queue:
        model = queue.pop(0)
        ordered.append(model)
        for info in model.model_fields.values():
            core = _core_type(info.annotation)
            if isinstance(core, type) and issubclass(core, BaseModel) and id(core) not in seen:
                seen.add(id(core))
                queue.append(core)
    attributes: dict[str, list[str]] = {}
    for model in ordered:
        if model is not template and _is_component(model):
            continue
        names = []
        for name, info in model.model_fields.items():
            core = _core_type(info.annotation)
            is_model = isinstance(core, type) and issubclass(core, BaseModel)
            if is_model and not _is_component(core):
                continue
            names.append(name)
        attributes.setdefault(model.__name__, names)
    raw_ids = template.model_config.get("graph_id_fields", [])
    identity: list[str] = []
    for name in raw_ids if isinstance(raw_ids, list | tuple) else []:
        if isinstance(name, str) and name in template.model_fields and name not in identity:
            identity.append(name)
    return attributes, template.__name__, identity


def _attribute_fields_from_graph(graph: GraphData) -> tuple[dict[str, list[str]], str, list[str]]:
    """Without a template: a class's attributes are the keys its nodes carry, minus bookkeeping
    keys and keys that are null on every node (entity-valued fields are null in graph.json)."""
    keys: dict[str, dict[str, bool]] = {}
    for node in graph.nodes:
        cls = str(node.get("__class__") or "")
        if not cls:
            continue
        seen = keys.setdefault(cls, {})
        for name, value in node.items():
            if name in _NODE_META:
                continue
            seen[name] = seen.get(name, False) or value is not None
    attributes = {cls: [n for n, used in names.items() if used] for cls, names in keys.items()}
    root = str(graph.graph.get("template_name") or "")
    id_map = graph.graph.get("id_fields_map")
    names = id_map.get(root) if isinstance(id_map, dict) else None
    identity = list(names) if isinstance(names, list) else []
    return attributes, root, [n for n in identity if isinstance(n, str)]


def _is_empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str | list | tuple | set | dict):
        return len(value) == 0
    return False


def _fill_rates(graph: GraphData, attributes: dict[str, list[str]]) -> list[ClassFillRate]:
    nodes_by_class: dict[str, list[dict[str, Any]]] = {name: [] for name in attributes}
    for node in graph.nodes:
        cls = str(node.get("__class__") or "")
        if cls in nodes_by_class:
            nodes_by_class[cls].append(node)
    rates = []
    for model, fields in attributes.items():
        nodes = nodes_by_class[model]
        filled_counts = dict.fromkeys(fields, 0)
        fractions = []
        for node in nodes:
            filled = 0
            for name in fields:
                if not _is_empty(node.get(name)):
                    filled_counts[name] += 1
                    filled += 1
            if fields:
                fractions.append(filled / len(fields))
        rates.append(
            ClassFillRate(
                model=model,
                node_count=len(nodes),
                declared_fields=fields,
                filled_counts=filled_counts,
                fill_rate=sum(fractions) / len(fractions) if fractions else 0.0,
            )
        )
    return rates


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _grounding(
    graph: GraphData,
    attributes: dict[str, list[str]],
    root: str,
    root_identity: list[str],
    chunk_texts: list[str],
    source_stem: str | None,
) -> GroundingReport | None:
    corpus = [t for t in (_collapse(text) for text in chunk_texts) if t]
    if not corpus:
        return None
    report = GroundingReport()
    for node in graph.nodes:
        cls = str(node.get("__class__") or "")
        fields = attributes.get(cls)
        if fields is None:
            continue
        for name in fields:
            value = node.get(name)
            if not isinstance(value, str):
                continue
            collapsed = _collapse(value)
            if len(collapsed) < MIN_GROUNDABLE_CHARS:
                continue
            if cls == root and name in root_identity and value == source_stem:
                report.root_id_synthetic = True
                continue
            report.checked += 1
            if any(collapsed in text for text in corpus):
                report.grounded += 1
            elif len(report.ungrounded_samples) < UNGROUNDED_SAMPLE_CAP:
                report.ungrounded_samples.append(f"{cls}.{name}={collapsed[:80]!r}")
    report.precision = report.grounded / report.checked if report.checked else None
    return report


def _audit_findings(meta: dict[str, Any]) -> list[AuditFinding]:
    findings = []
    for key, rule in AUDIT_KEY_RULEBOOK.items():
        value = meta.get(key)
        if value:
            findings.append(AuditFinding(key=key, count=_audit_count(key, value), rulebook=rule))
    return findings


def audit_graph(
    graph: GraphData,
    *,
    source: str,
    chunk_texts: list[str] | None = None,
    template: type[BaseModel] | None = None,
    source_stem: str | None = None,
) -> DocumentEvaluation:
    """Evaluate one exported graph: audit findings, fill rates and grounding."""
    if template is not None:
        attributes, root, identity = declared_attribute_fields(template)
    else:
        attributes, root, identity = _attribute_fields_from_graph(graph)
    return DocumentEvaluation(
        source=source,
        succeeded=True,
        node_count=len({str(n.get("id")) for n in graph.nodes}),
        edge_count=len({(str(e.get("source")), str(e.get("target"))) for e in graph.edges}),
        audit_findings=_audit_findings(graph.graph),
        fill_rates=_fill_rates(graph, attributes),
        grounding=_grounding(graph, attributes, root, identity, chunk_texts or [], source_stem),
    )


def _load_chunks(path: Path) -> tuple[list[str], str | None]:
    data = load_json(path)
    if not isinstance(data, dict):
        raise InputError("expected a provenance ledger object with 'chunks'", path=path)
    chunks = data.get("chunks", {})
    if not isinstance(chunks, dict):
        raise InputError("'chunks' must be an object {chunk id: {text}}", path=path)
    texts = []
    for chunk_id, record in chunks.items():
        if not isinstance(record, dict):
            raise InputError("chunk is not an object", path=path, where=f"chunks.{chunk_id}")
        texts.append(str(record.get("text", "") or ""))
    document = data.get("document")
    source = document.get("source") if isinstance(document, dict) else None
    return texts, str(source) if source else None


def load_source_map(path: str | Path) -> dict[Path, str]:
    """Graph path → source document path, from JSON (``{graph: document}``) or CSV (two
    columns, ``graph,source``, an optional header row naming them).

    Graph paths are relative to the map file's folder (or absolute); documents are kept as
    written, since the audit reports them as given (as the reference reports its document list).
    """
    path = Path(path)
    pairs: list[tuple[str, Any, str]] = []
    if path.suffix.lower() == ".csv":
        import csv

        rows = list(csv.reader(read_text(path).splitlines()))
        if rows and [c.strip().lower() for c in rows[0]] == ["graph", "source"]:
            rows = rows[1:]
        for number, row in enumerate(rows, start=1):
            if not row:
                continue
            if len(row) != 2:
                raise InputError(
                    f"expected 2 columns (graph,source), got {len(row)}",
                    path=path,
                    where=f"row {number}",
                )
            pairs.append((f"row {number}", row[0].strip(), row[1].strip()))
    else:
        data = load_json(path)
        if not isinstance(data, dict):
            raise InputError(
                "expected a JSON object {graph path: source document path} (or a .csv file)",
                path=path,
            )
        pairs = [(f"key {key!r}", key, value) for key, value in data.items()]
    mapping: dict[Path, str] = {}
    for where, graph, document in pairs:
        if not isinstance(document, str) or not document or not graph:
            raise InputError(
                "expected a graph path and a non-empty source document path", path=path, where=where
            )
        mapping[(path.parent / graph).resolve()] = document
    return mapping


def audit_graph_file(
    graph: str | Path | list[str | Path],
    *,
    provenance: str | Path | None = None,
    template: str | None = None,
    source: str | Sequence[str] | None = None,
    source_map: str | Path | None = None,
) -> EvaluationReport:
    """Evaluate one or more graph.json files (each with the provenance.json beside it).

    Each graph's source document (reported as ``source``; its stem flags a synthetic root id)
    is, in order of precedence: its entry in ``source_map`` (a file, see
    :func:`load_source_map`), ``source`` (one path for every graph, or one per graph), the
    provenance ledger's ``document.source``, else the graph's own path.
    """
    graphs = [Path(g) for g in (graph if isinstance(graph, list) else [graph])]
    if provenance is not None and len(graphs) != 1:
        raise InputError("--provenance applies to a single --graph")
    given = [source] if isinstance(source, str) else list(source or [])
    if len(given) not in (0, 1, len(graphs)):
        raise InputError(
            f"give one --source for every graph or one per --graph ({len(graphs)}), "
            f"got {len(given)}"
        )
    if source_map is not None and given:
        raise InputError("use either --source or --source-map")
    mapping = load_source_map(source_map) if source_map is not None else None
    model = load_template(template) if template is not None else None
    documents = []
    template_name = template
    for index, path in enumerate(graphs):
        data = read_graph(read_text(path), path, strict=True)  # as docling-graph's own loader
        ledger = Path(provenance) if provenance is not None else path.parent / "provenance.json"
        texts: list[str] = []
        ledger_source = None
        if provenance is not None or ledger.is_file():
            texts, ledger_source = _load_chunks(ledger)
        doc_source = given[index if len(given) > 1 else 0] if given else ledger_source
        if mapping is not None:
            doc_source = mapping.get(path.resolve())
            if doc_source is None:
                raise InputError(f"graph {str(path)!r} has no entry", path=source_map)
        documents.append(
            audit_graph(
                data,
                source=doc_source or str(path),
                chunk_texts=texts,
                template=model,
                source_stem=Path(doc_source).stem if doc_source else None,
            )
        )
        if template_name is None:
            template_name = str(data.graph.get("template_name") or "(no template)")
    return EvaluationReport.from_documents(template_name or "(no template)", documents)


def print_audit_summary(report: EvaluationReport, console: Console | None = None) -> None:
    """Summary, fill rates and audit findings as rich tables."""
    from parsescore.cli.common import console as command_console

    console = console or command_console()
    s = report.summary
    table = Table(title=f"Template evaluation — {escape(report.template)}", title_justify="left")
    for column in ("documents", "nodes", "edges", "mean fill rate", "grounding precision"):
        table.add_column(column, justify="right")
    table.add_row(
        str(s.documents),
        str(s.total_nodes),
        str(s.total_edges),
        _rate(s.mean_fill_rate),
        _rate(s.grounding_precision),
    )
    console.print(table)
    for document in report.per_document:
        rates = Table(title=f"Fill rates — {escape(str(document.source))}", title_justify="left")
        for column in ("class", "nodes", "fill rate"):
            rates.add_column(column)
        for r in document.fill_rates:
            rates.add_row(escape(r.model), str(r.node_count), _rate(r.fill_rate))
        console.print(rates)
        if document.grounding is not None:
            g = document.grounding
            console.print(
                f"Grounding: {g.grounded}/{g.checked} ({_rate(g.precision)})", highlight=False
            )
            for sample in g.ungrounded_samples:
                console.print(f"  ungrounded: {escape(str(sample))}", highlight=False)
    if s.audit_totals:
        findings = Table(title="Rulebook violations (graph audit keys)", title_justify="left")
        for column in ("audit key", "total", "rulebook clause"):
            findings.add_column(column)
        for key in sorted(s.audit_totals):
            findings.add_row(key, str(s.audit_totals[key]), AUDIT_KEY_RULEBOOK.get(key, ""))
        console.print(findings)
