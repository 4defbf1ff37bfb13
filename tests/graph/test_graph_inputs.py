"""Bad input gets one clear error naming the file and the problem; generic mode; sources."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import Cli
from parsescore.core.errors import InputError
from parsescore.graph.api import evaluate_files, evaluate_generic_files
from parsescore.graph.evaluate import evaluate_graphs
from parsescore.graph.io import load_source_text, read_graph
from parsescore.graph.options import parse_id_fields
from parsescore.graph.template import GraphData, load_template


def from_data(data: Any, path: str | Path, *, strict: bool = False) -> GraphData:
    """The graph.json reader (:func:`read_graph`) of ``data`` written as JSON."""
    return read_graph(json.dumps(data), path, strict=strict)


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


GOOD_GRAPH = {
    "nodes": [
        {"id": "a", "__class__": "Item", "code": "A"},
        {"id": "b", "__class__": "Item", "code": "B"},
    ],
    "edges": [{"source": "a", "target": "b", "label": "NEXT"}],
    "graph": {"id_fields_map": {"Item": ["code"]}, "template_name": "Item"},
}


def test_graph_without_nodes(tmp_path: Path) -> None:
    path = write(tmp_path / "g.json", {"nodes": [], "edges": []})
    with pytest.raises(InputError, match=r"g\.json: graph has an empty 'nodes' list"):
        read_graph(path.read_text(), path, strict=True)
    graph = read_graph(path.read_text(), path)
    assert graph.nodes == []
    assert graph.warnings == [
        f"{path}: graph has an empty 'nodes' list; scored as a graph without nodes"
    ]
    missing = from_data({"edges": []}, path)
    assert missing.warnings == [
        f"{path}: graph has no 'nodes' key; scored as a graph without nodes"
    ]


def test_edge_to_missing_node(tmp_path: Path) -> None:
    data = {"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "zz", "label": "L"}]}
    with pytest.raises(InputError, match=r"g\.json \(edges\[0\]\): edge target 'zz' is not the id"):
        from_data(data, tmp_path / "g.json", strict=True)
    graph = from_data(data, tmp_path / "g.json")
    assert graph.edges == data["edges"]
    (warning,) = graph.warnings
    assert warning.startswith(
        f"{tmp_path / 'g.json'}: 1 edge end(s) name no node (edges[0] target 'zz')"
    )


def test_warnings_name_a_few_and_count_the_rest(tmp_path: Path) -> None:
    data = {
        "nodes": [{"label": "x"}, {"id": "a"}],
        "edges": [{"source": "a", "target": f"t{i}"} for i in range(5)] + [{"source": "a"}],
    }
    graph = from_data(data, "g.json")
    assert graph.warnings == [
        "g.json: 1 node(s) without 'id' (nodes[0]); scored under the id 'None' as script 16 "
        "reads them",
        "g.json: 6 edge end(s) name no node (edges[0] target 't0', edges[1] target 't1', "
        "edges[2] target 't2' and 3 more); such edges are never matched but count in the "
        "fan-out, as in script 16",
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "expected a JSON object"),
        ({"nodes": None}, "'nodes' must be a list of node objects, got NoneType"),
        ({"nodes": {"a": {}}}, "'nodes' must be a list of node objects, got dict"),
        ({"nodes": [1]}, r"nodes\[0\]\): node is a int"),
        ({"nodes": [{"id": 1}], "edges": {"a": 1}}, "'edges' must be a list"),
        ({"nodes": [{"id": 1}], "edges": ["a"]}, r"edges\[0\]\): edge is a str"),
    ],
)
def test_malformed_graphs(data: Any, message: str, tmp_path: Path) -> None:
    """What script 16 cannot read either is an error, strict or not."""
    for strict in (False, True):
        with pytest.raises(InputError, match=message):
            from_data(data, tmp_path / "g.json", strict=strict)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"nodes": [{"label": "x"}]}, r"nodes\[0\]\): node has no 'id'"),
        ({"nodes": [{"id": 1}], "edges": [{"target": 1}]}, "edge has no 'source'"),
        ({"edges": []}, "graph has no 'nodes' key"),
    ],
)
def test_strict_refuses_what_script_16_scores(data: Any, message: str, tmp_path: Path) -> None:
    with pytest.raises(InputError, match=message):
        from_data(data, tmp_path / "g.json", strict=True)
    assert from_data(data, tmp_path / "g.json").warnings


def test_template_that_does_not_import(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.py", "import not_a_module_anywhere\n")
    with pytest.raises(InputError, match=r"bad\.py: template does not import: ModuleNotFoundError"):
        load_template(f"{bad}:Root")
    with pytest.raises(InputError, match="template module 'no_such_pkg' does not import"):
        load_template("no_such_pkg.Root")
    with pytest.raises(InputError, match=r"must be 'pkg\.module\.Class'"):
        load_template("Root")
    ok = write(tmp_path / "ok.py", "X = 1\n")
    with pytest.raises(InputError, match="'X' is not a pydantic model class"):
        load_template(f"{ok}:X")
    with pytest.raises(InputError, match="no attribute 'Y'"):
        load_template(f"{ok}:Y")


TEMPLATE = """
from pydantic import BaseModel, ConfigDict
class Root(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    year: int | None = None
"""


def test_truth_failing_validation(tmp_path: Path, cli: Cli) -> None:
    template = write(tmp_path / "tpl.py", TEMPLATE)
    truth = write(tmp_path / "truth.json", {"year": "soon"})
    graph = write(
        tmp_path / "graph.json", {"nodes": [{"id": "r", "__class__": "Root", "name": "x"}]}
    )
    with pytest.raises(
        InputError,
        match=r"truth\.json: ground truth does not validate against Root: "
        r"name: Field required; year:",
    ):
        evaluate_files(truth=truth, pred=graph, template=f"{template}:Root")
    result = cli("graph", "--graph", graph, "--truth", truth, "--template", f"{template}:Root")
    assert result.code == 2
    err = " ".join(result.err.split())
    assert err.startswith("error:") and "does not validate" in err and "Traceback" not in err


def test_cli_bad_options(tmp_path: Path, cli: Cli) -> None:
    graph = write(tmp_path / "graph.json", GOOD_GRAPH)
    result = cli("graph", "--graph", graph, "--truth", graph, "--structural-align", "maybe")
    err = " ".join(result.err.split())
    assert result.code == 2
    assert (
        "Invalid value for '--structural-align': 'maybe' is not one of 'auto', 'on', 'off'" in err
    )
    with pytest.raises(InputError, match="option 'structural_align' must be one of auto, on, off"):
        evaluate_files(truth=graph, pred=graph, template="t:T", structural_align="maybe")  # type: ignore[arg-type]
    result = cli("graph", "--graph", graph, "--truth", tmp_path / "none.json")
    err = " ".join(result.err.split())
    assert result.code == 2 and "none.json: file not found" in err
    with pytest.raises(InputError, match="Class=field1,field2"):
        parse_id_fields(["Item"])


def test_generic_mode_uses_id_fields_map_or_option(tmp_path: Path, cli: Cli) -> None:
    truth = write(tmp_path / "truth.json", GOOD_GRAPH)
    got_data = json.loads(json.dumps(GOOD_GRAPH))
    got_data["nodes"][1]["code"] = "b "
    del got_data["graph"]
    got = write(tmp_path / "got.json", got_data)
    report = evaluate_generic_files(truth=truth, pred=got)
    assert report["template"] is None
    assert report["micro"]["nodes"]["strict"]["f1"] == 1.0
    assert report["micro"]["edges"]["strict"]["f1"] == 1.0
    other = evaluate_generic_files(truth=truth, pred=got, id_fields={"Item": ["missing"]})
    assert other["integrity"]["unkeyed_truth_nodes"] == 2
    bare = write(tmp_path / "bare.json", {"nodes": GOOD_GRAPH["nodes"], "edges": []})
    with pytest.raises(InputError, match="pass --id-fields"):
        evaluate_generic_files(truth=bare, pred=bare)
    out = tmp_path / "eval.json"
    result = cli(
        "graph", "--graph", bare, "--truth", bare, "--id-fields", "Item=code", "--out", out
    )
    assert result.code == 0, result.err
    assert json.loads(out.read_text())["nodes"]["Item"]["strict"]["tp"] == 2


def test_markup_sources_are_stripped(tmp_path: Path) -> None:
    assert load_source_text(write(tmp_path / "d.dclg", "<p>Hello <b>you</b></p>")) == "Hello you"
    assert load_source_text(write(tmp_path / "d.txt", "  <doctag>x</doctag>")) == "  x"
    assert load_source_text(write(tmp_path / "d.md", "a <b> c")) == "a <b> c"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["id", "source", "target", "nodes", "edges", "label"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_loader_never_crashes(data: Any) -> None:
    try:
        graph = from_data(data, "fuzz.json")
    except InputError as exc:
        assert str(exc).startswith("fuzz.json")
    else:
        assert graph.nodes or "graph has" in graph.warnings[0]
        ids = {"Item": ["code"], "x": ["id"]}
        report = evaluate_graphs(graph, graph, ids, root_class="x", source_text="source")
        assert report["micro"]["nodes"]["strict"]["fn"] == 0  # a graph always equals itself
