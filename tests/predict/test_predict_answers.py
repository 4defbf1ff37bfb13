"""Accepting or refusing a model's answer, and reading images, captions and prompts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from chat_server import write_jpeg, write_png
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.flowchart.load import load_pred_diagrams, validate_pred_diagram_sources
from parsescore.flowchart.predict import FLOWCHART_SCHEMA
from parsescore.predict import AnswerError, accept_answer, default_prompt
from parsescore.predict.inputs import find_images, load_captions, render_prompt
from parsescore.sequence.parser import parse_plantuml
from parsescore.shared.tables.tree import parse_table_tree

NODE = {"node_number": 1, "text": "Screened (n = 10)", "labels": ["Enrolment"], "points_to": []}


def flowchart_answer(**changes: object) -> str:
    return json.dumps({"nodes": [NODE | changes], "additional_texts": []})


def test_an_accepted_flowchart_loads_as_a_prediction_folder(tmp_path: Path) -> None:
    answer = json.dumps(
        {
            "nodes": [
                NODE | {"points_to": [2]},
                {"node_number": 2, "text": "Allocated", "labels": [], "points_to": []},
            ],
            "additional_texts": ["Figure 1"],
        }
    )
    prediction = accept_answer("flowchart", f"```json\n{answer}\n```", stem="fig")
    (tmp_path / "fig.json").write_text(prediction.text)
    diagrams = load_pred_diagrams(validate_pred_diagram_sources(tmp_path))
    assert [n.text for n in diagrams[0].nodes] == ["Screened (n = 10)", "Allocated"]
    assert diagrams[0].nodes[0].points_to == [2]
    assert json.loads(prediction.text) == json.loads(answer)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"nodes": []}', "expected a JSON object with keys"),
        ('{"nodes": [], "additional_texts": []}', "at least one node"),
        (flowchart_answer(text=""), "at least 1 character"),
        (flowchart_answer(points_to=[5]), "points to 5"),
        (flowchart_answer(node_number="1"), "'node_number'"),
        (flowchart_answer(labels="Enrolment"), "'labels'"),
        (json.dumps({"nodes": [{"node_number": 1, "text": "A"}], "additional_texts": []}),
         "expected ['labels', 'node_number', 'points_to', 'text']"),
        (json.dumps({"nodes": [NODE, NODE], "additional_texts": []}), "unique"),
        (json.dumps({"nodes": [NODE], "additional_texts": [3]}), "additional text"),
        ("   ", "empty"),
    ],
)  # fmt: skip
def test_refused_flowchart_answers_say_why(answer: str, message: str) -> None:
    with pytest.raises(AnswerError) as refused:
        accept_answer("flowchart", answer, stem="fig")
    assert message in str(refused.value)


def test_sequence_answers() -> None:
    script = "@startuml\nAlice -> Bob : hi\nfoo bar baz\n@enduml"
    prediction = accept_answer("sequence", f"```puml\n{script}\n```", stem="s")
    assert prediction.text == script + "\n"
    assert any("not a PlantUML sequence-diagram line" in w for w in prediction.warnings)
    assert len(parse_plantuml(prediction.text).arrows) == 1
    for answer, message in [
        ("Alice -> Bob : hi", "no @startuml"),
        ("@startuml\nAlice -> Bob : hi", "no @startuml ... @enduml"),
        ("@startuml\n@enduml", "not a sequence diagram"),
    ]:
        with pytest.raises(AnswerError) as refused:
            accept_answer("sequence", answer, stem="s")
        assert message in str(refused.value)


def test_table_answers_are_written_in_the_form_teds_reads() -> None:
    bare = "<table><tr><td>1</td></tr></table>"
    prediction = accept_answer("table", bare, stem="t")
    assert prediction.text == f"<html><body>{bare}</body></html>\n"
    assert parse_table_tree(prediction.text) is not None
    full = f"<html><body>{bare}</body></html>"
    assert accept_answer("table", full, stem="t").text == full + "\n"
    for answer, message in [
        ("<p>sorry</p>", "no <table> found"),
        ("<table></table>", "no cells"),
        ("\x00", "no <table>"),
    ]:
        with pytest.raises(AnswerError) as refused:
            accept_answer("table", answer, stem="t")
        assert message in str(refused.value)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(["flowchart", "sequence", "table"]), answer=st.text(max_size=300))
def test_any_answer_is_accepted_or_refused_with_an_answer_error(kind: str, answer: str) -> None:
    try:
        prediction = accept_answer(kind, answer, stem="x")
    except AnswerError as exc:
        assert str(exc)
    else:
        assert prediction.text.endswith("\n")


@settings(max_examples=100, deadline=None)
@given(
    nodes=st.lists(
        st.fixed_dictionaries(
            {
                "node_number": st.integers(-5, 2000),
                "text": st.text(max_size=5),
                "labels": st.lists(st.text(max_size=3), max_size=2),
                "points_to": st.lists(st.integers(-5, 10), max_size=2),
            }
        ),
        max_size=4,
    ),
    texts=st.lists(st.text(max_size=4), max_size=2),
)
def test_schema_shaped_answers_are_accepted_exactly_when_the_folder_loader_accepts_them(
    nodes: list[dict], texts: list[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    answer = json.dumps({"nodes": nodes, "additional_texts": texts})
    folder = tmp_path_factory.mktemp("pred")
    (folder / "x.json").write_text(answer)
    try:
        load_pred_diagrams(validate_pred_diagram_sources(folder))
        loads = True
    except (ValueError, TypeError):
        loads = False
    try:
        accept_answer("flowchart", answer, stem="x")
        accepted = True
    except AnswerError:
        accepted = False
    assert accepted == loads


def test_the_flowchart_schema_is_strict_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(FLOWCHART_SCHEMA)
    validator = jsonschema.Draft202012Validator(FLOWCHART_SCHEMA)
    assert validator.is_valid(json.loads(flowchart_answer()))
    assert not validator.is_valid({"nodes": [NODE | {"extra": 1}], "additional_texts": []})
    node = FLOWCHART_SCHEMA["properties"]["nodes"]["items"]
    assert set(node["required"]) == set(node["properties"])  # strict mode: all required


def test_default_prompts() -> None:
    sequence = default_prompt("sequence")
    assert sequence.startswith(
        'Generate puml script for given 3GPP standard call flow diagram of "'
    )
    assert "{caption}" in sequence and "7. Correctly identify color if any." in sequence
    assert "points_to" in default_prompt("flowchart")
    assert "rowspan" in default_prompt("table")
    assert render_prompt('of "{caption}" {stem} {"a": 1}', caption="C", stem="s") == (
        'of "C" s {"a": 1}'
    )


def test_images_are_found_by_suffix_and_typed_by_content(tmp_path: Path) -> None:
    write_png(tmp_path / "b.PNG", seed=1)
    write_jpeg(tmp_path / "a.jpeg", seed=2)
    (tmp_path / "notes.md").write_text("ignored")
    (tmp_path / "sub").mkdir()
    write_png(tmp_path / "sub" / "deep.png")
    images = find_images(tmp_path)
    assert [(i.path.name, i.stem, i.media_type) for i in images] == [
        ("a.jpeg", "a", "image/jpeg"),
        ("b.PNG", "b", "image/png"),
    ]
    assert images[0].sha256 != images[1].sha256


def test_captions_from_json_and_csv(tmp_path: Path) -> None:
    as_json = tmp_path / "c.json"
    as_json.write_text(json.dumps({"a.png": "One", "b": "Two"}))
    assert load_captions(as_json) == {"a.png": "One", "b": "Two"}
    as_csv = tmp_path / "c.csv"
    as_csv.write_text('image,caption\na.png,"One, with comma"\n')
    assert load_captions(as_csv) == {"a.png": "One, with comma"}
    for name, text, message in [
        ("bad.json", "[1]", "expected a JSON object"),
        ("num.json", '{"a": 1}', "expected a string caption"),
        ("head.csv", "name,text\na,b\n", "columns image,caption"),
        ("twice.csv", "image,caption\na,b\na,c\n", "two captions"),
        ("blank.csv", "image,caption\n,b\n", "empty image name"),
    ]:
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(InputError) as refused:
            load_captions(path)
        assert message in str(refused.value) and name in str(refused.value)
