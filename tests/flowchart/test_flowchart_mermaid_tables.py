"""The saved Mermaid parser (``mermaid_lalr.bin``, loaded in a millisecond by a fresh process)
is the one the grammar builds: it was saved from this grammar, these options and the locked
lark, and it reads every Mermaid file of the corpora as the freshly built parser does, errors
included."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from lark import Lark

from parsescore.core.errors import InputError
from parsescore.flowchart import formats
from parsescore.flowchart.formats import read_mermaid

DATA = Path(__file__).resolve().parent / "data"
FILES = sorted(
    path
    for folder in ("mermaid_corpus", "mermaid_answers", "mermaid_answer")
    if (DATA / folder).is_dir()
    for path in (DATA / folder).rglob("*")
    if path.is_file() and path.name != "SOURCES"
)


def test_the_saved_parser_is_current() -> None:
    """After editing mermaid.lark or moving lark: run write_mermaid_tables (its docstring)."""
    saved = resources.files("parsescore.flowchart") / formats._MERMAID_TABLES
    with saved.open("rb") as f:
        key = f.readline().rstrip(b"\n")
    assert key == formats._mermaid_tables_key(formats._mermaid_grammar())


def test_the_parser_in_use_is_the_saved_one(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[Lark] = []
    load = Lark.load

    def counted(f: object) -> Lark:
        loaded.append(load(f))  # type: ignore[arg-type]
        return loaded[-1]

    monkeypatch.setattr(Lark, "load", counted)
    formats._mermaid_parser.cache_clear()
    try:
        parser = formats._mermaid_parser()
    finally:
        formats._mermaid_parser.cache_clear()
    assert loaded == [parser]
    assert parser.options.parser == "lalr" and parser.options.lexer == "contextual"


def _read(text: str) -> object:
    try:
        return read_mermaid(text)
    except InputError as exc:
        return ("error", str(exc))


def test_saved_and_built_parsers_read_every_file_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(FILES) > 100
    texts = [path.read_text("utf-8", errors="replace") for path in FILES]
    texts += ["flowchart TD\n  A[Start] --> B{", "graph LR\nA-->", "flowchart TD\n  A --x B"]
    formats._mermaid_parser.cache_clear()
    saved = [_read(text) for text in texts]
    built = Lark(formats._mermaid_grammar(), **formats._MERMAID_OPTIONS)
    monkeypatch.setattr(formats, "_mermaid_parser", lambda: built)
    assert [_read(text) for text in texts] == saved
    assert any(isinstance(result, tuple) for result in saved)  # errors compared too


def test_a_stale_saved_parser_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another grammar or lark version: the parser is built from the grammar instead."""
    loads: list[object] = []
    monkeypatch.setattr(formats, "_mermaid_tables_key", lambda grammar: b"another grammar")
    monkeypatch.setattr(Lark, "load", classmethod(lambda cls, f: loads.append(f)))
    formats._mermaid_parser.cache_clear()
    try:
        parser = formats._mermaid_parser()
        assert isinstance(parser, Lark) and loads == []
        assert _read("flowchart TD\n  A[Start] --> B[End]") == read_mermaid(
            "flowchart TD\n  A[Start] --> B[End]"
        )
    finally:
        formats._mermaid_parser.cache_clear()
