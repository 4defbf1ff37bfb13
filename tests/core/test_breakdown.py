"""Breakdowns (``--by FIELD``, ``by=``): totals per value of an item attribute — the kind's own
or a user's CSV — computed with each metric's declared aggregation, in the envelope, the
summary and ``compare``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from parsescore_textkind import KIND as TEXT

import parsescore
from parsescore.core.breakdown import read_attributes
from parsescore.core.compare import compare_by, compare_results
from parsescore.core.errors import InputError
from parsescore.core.kinds import Kind, registered
from parsescore.core.results import load_result

#: stem: (truth, system a, system b)
SAMPLES = {
    "a": ("hello world", "hello world", "hallo wrld"),
    "b": ("abc", "abd", "xyz"),
    "c": ("parsescore rocks", "parsescore rock", "parse"),
    "d": ("tiny", "tiny", "tiny"),
    "e": ("one two three", "one two tree", "one two three"),
}


@pytest.fixture
def text_kind() -> Iterator[Kind]:
    with registered(TEXT) as kind:
        yield kind


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    found = {name: tmp_path / name for name in ("truth", "a", "b")}
    for folder in found.values():
        folder.mkdir()
    for stem, texts in SAMPLES.items():
        for folder, text in zip(found.values(), texts, strict=True):
            (folder / f"{stem}.txt").write_text(text, encoding="utf-8")
    return found


def _pooled(stems: list[str], system: int) -> float:
    from rapidfuzz.distance import Levenshtein

    edits = sum(Levenshtein.distance(SAMPLES[s][0], SAMPLES[s][system]) for s in stems)
    return edits / sum(len(SAMPLES[s][0]) for s in stems)


def test_a_breakdown_aggregates_each_value_as_the_metric_declares(text_kind, folders) -> None:
    result = parsescore.evaluate("text", folders["truth"], folders["a"], by=("length",))
    found = result.dataset["breakdown"]["length"]
    short = [s for s, texts in SAMPLES.items() if len(texts[0]) < 10]
    long = [s for s in SAMPLES if s not in short]
    assert list(found) == ["short", "long"]  # the kind's declared order
    assert found["short"]["items"] == len(short) and found["long"]["items"] == len(long)
    # the pooled CER breaks down as a pooled CER (Σedits / Σchars), not as a mean
    assert found["short"]["cer"] == _pooled(short, 1)
    assert found["long"]["cer"] == _pooled(long, 1)
    assert found["long"]["cer_mean"] == sum(result.items[s]["cer"] for s in long) / len(long)
    # and it travels in the envelope, attributes and all
    path = folders["truth"].parent / "a.env.json"
    result.write(path)
    loaded = load_result(path)
    assert loaded.attributes == result.attributes and loaded.dataset == result.dataset


def test_a_users_attribute_file_works_for_any_kind(text_kind, folders, tmp_path: Path) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "id,topic\na,greeting\nb,letters\nc,greeting\nd,\nzz,unknown\n", encoding="utf-8"
    )
    result = parsescore.evaluate(
        "text", folders["truth"], folders["a"], attributes=labels, by=("topic",)
    )
    found = result.dataset["breakdown"]["topic"]
    assert list(found) == ["greeting", "letters", "(none)"]
    assert found["greeting"]["cer"] == _pooled(["a", "c"], 1)
    assert found["(none)"]["items"] == 2  # d (empty cell) and e (not in the file)
    assert any("1 ids of" in w and "zz" in w for w in result.warnings)
    with pytest.raises(InputError, match=r"no text item has the attribute 'topics'; .*topic"):
        parsescore.evaluate(
            "text", folders["truth"], folders["a"], attributes=labels, by=("topics",)
        )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,topic\na,x\n", r"line 1\): expected a CSV whose first column is 'id'"),
        ("id,topic,topic\na,x,y\n", r"line 1\): attribute names must be distinct"),
        ("id,topic\na,x,y\n", r"line 2\): expected 2 cells \(id, topic\), found 3"),
        ("id,topic\na,x\na,y\n", r"line 3\): item 'a' appears twice"),
    ],
)
def test_an_attribute_file_that_is_wrong_says_where(tmp_path: Path, text: str, message) -> None:
    path = tmp_path / "labels.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_attributes(path)


def test_the_command_prints_each_value(text_kind, folders, cli) -> None:
    run = cli("text", "--truth", folders["truth"], "--pred", folders["a"], "--by", "length")
    assert run.code == 0, run.err
    assert "by length" in run.out and "short" in run.out and "long" in run.out


def test_compare_by_compares_within_each_value(text_kind, folders, tmp_path: Path, cli) -> None:
    a = parsescore.evaluate("text", folders["truth"], folders["a"], name="a")
    b = parsescore.evaluate("text", folders["truth"], folders["b"], name="b")
    settings = {"n_resamples": 200, "n_permutations": 200, "seed": 3}
    per_value = compare_by([a, b], "length", **settings)
    assert list(per_value) == ["short", "long"]
    long = per_value["long"]
    assert long.common_items == ("a", "c", "e")
    subset = ("a", "c", "e")
    alone = compare_results(
        [replace(r, items={i: r.items[i] for i in subset}) for r in (a, b)], **settings
    )
    assert long.to_json() == alone.to_json()
    for result, name in ((a, "a"), (b, "b")):
        result.write(tmp_path / f"{name}.json")
    out = tmp_path / "by.json"
    run = cli(
        "compare", tmp_path / "a.json", tmp_path / "b.json", "--by", "length",
        "--resamples", "200", "--permutations", "200", "--seed", "3", "--out", out,
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "length = short" in run.out and "length = long" in run.out
    doc = json.loads(out.read_text())
    assert doc["by"] == "length" and list(doc["groups"]) == ["short", "long"]
    assert doc["groups"]["long"] == long.to_json()


def test_the_report_compares_within_each_value(text_kind, folders, tmp_path: Path, cli) -> None:
    labels = tmp_path / "labels.csv"
    labels.write_text("id,topic\na,greeting\nc,greeting\nb,letters\n", encoding="utf-8")
    for name in ("a", "b"):
        parsescore.evaluate("text", folders["truth"], folders[name], name=name).write(
            tmp_path / f"{name}.json"
        )
    common = ("--resamples", "200", "--permutations", "200")
    run = cli("report", tmp_path / "a.json", tmp_path / "b.json", "--out", tmp_path / "r",
              "--by", "length", *common)  # fmt: skip
    assert run.code == 0, run.err
    page = (tmp_path / "r" / "index.html").read_text()
    assert '<h4 class="by">By length</h4>' in page
    assert "length = short" in page and "length = long" in page
    run = cli("report", tmp_path / "a.json", tmp_path / "b.json", "--out", tmp_path / "r2",
              "--by", "topic", "--attributes", labels, *common)  # fmt: skip
    assert run.code == 0, run.err
    page = (tmp_path / "r2" / "index.html").read_text()
    assert "topic = greeting" in page and "topic = letters" in page and "topic = (none)" in page
