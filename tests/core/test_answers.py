"""The chat-answer rule every reader applies (parsescore.shared.answers; formats.md, "Chat
answers")."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.shared.answers import Answer, unwrap_answer


@pytest.mark.parametrize(
    ("answer", "formats", "text", "fence"),
    [
        ("plain", (), "plain", None),
        ("```\nx\n```", (), "x\n", ""),
        ("```json\n{}\n```", ("json",), "{}\n", "json"),
        ("Sure! Here it is:\n\n```plantuml\n@startuml\nA -> B\n@enduml\n```\nHope it helps.",
         ("plantuml",), "@startuml\nA -> B\n@enduml", "plantuml"),
        ("```html\n<table></table>\n```\n```\nsecond\n```", (), "<table></table>\n", "html"),
        ("<think>\nIt has ```two``` rows.\n</think>\n```html\n<table/>\n```", (), "<table/>\n",
         "html"),
        ("<think>Plain JSON follows.</think>{}", (), "{}", None),
        ("```puml\n@startuml\nA -> B\n@enduml```", (), "@startuml\nA -> B\n@enduml", "puml"),
        # the first block naming the expected format wins over an earlier other block
        ("Setup:\n```bash\npip install x\n```\nDiagram:\n```mermaid\nflowchart LR\nA-->B\n```",
         ("mermaid",), "flowchart LR\nA-->B\n", "mermaid"),
        ("```python\nprint()\n```\n```\nflowchart LR\n```", ("mermaid",), "print()\n", "python"),
        # aliases, tildes, longer fences, indentation, pandoc's {.lang}
        ("~~~graphviz\ndigraph { a -> b }\n~~~", ("dot",), "digraph { a -> b }\n", "graphviz"),
        ("````md\n| a |\n|---|\n```\n````", ("markdown",), "| a |\n|---|\n```\n", "md"),
        ("  ```tex\n  \\begin{tabular}{l}\n  a\\\\\n  \\end{tabular}\n  ```", ("latex",),
         "\\begin{tabular}{l}\na\\\\\n\\end{tabular}\n", "tex"),
        ("```{.csv}\na,b\n```", ("csv",), "a,b\n", "{.csv}"),
        # an unclosed backtick block runs to the end (an answer cut at its token limit)
        ("Here:\n```mermaid\nflowchart TD\nA-->B\n", ("mermaid",), "flowchart TD\nA-->B\n",
         "mermaid"),
        # a line opening with Mermaid's invisible link is not a fence unless closed
        ("flowchart LR\nA\n~~~ B\nC-->D", ("mermaid",), "flowchart LR\nA\n~~~ B\nC-->D", None),
        # thinking: unclosed (all of it), or its opening tag stripped by the server
        ("<think>never ends", (), "", None),
        ("I should draw it.</think>\n\nflowchart LR\nA-->B", ("mermaid",),
         "flowchart LR\nA-->B", None),
        # PlantUML without fences: from @startuml to @enduml, prose and a second diagram dropped
        ("Here you go:\n@startuml\nA -> B\n@enduml\nAnd another:\n@startuml\nC -> D\n@enduml",
         ("plantuml", "mermaid"), "@startuml\nA -> B\n@enduml", None),
        ("@startuml\nA -> B\n", ("plantuml",), "@startuml\nA -> B\n", None),
        ("sequenceDiagram\nA->>B: hi", ("plantuml", "mermaid"), "sequenceDiagram\nA->>B: hi",
         None),
    ],
)  # fmt: skip
def test_the_content_of_an_answer(
    answer: str, formats: tuple[str, ...], text: str, fence: str | None
) -> None:
    got = unwrap_answer(answer, formats)
    assert (got.text, got.fence) == (text, fence)
    assert got.fenced is (fence is not None)


def test_where_the_content_starts_in_the_answer() -> None:
    answer = "<think>\nhmm\n</think>\nSure:\n\n```mermaid\nflowchart LR\nA-->\n```\n"
    got = unwrap_answer(answer, ("mermaid",))
    assert got.line == 7 and got.thinking
    assert answer.splitlines()[got.line - 1] == "flowchart LR"
    error = got.relocate(InputError("unexpected end", where="line 2, column 4"), "a.mmd")
    expected = "a.mmd (line 8, column 4, in the fenced block from line 7): unexpected end"
    assert str(error) == expected
    plain = unwrap_answer("flowchart LR\nA-->", ("mermaid",))
    same = InputError("unexpected end", path="a.mmd", where="line 2, column 4")
    assert str(plain.relocate(same)) == str(same)


_PLAIN = st.text(st.characters(blacklist_characters="`~<@"), max_size=200)


@given(_PLAIN)
def test_an_answer_without_markers_is_read_as_it_is(text: str) -> None:
    assert unwrap_answer(text, ("mermaid", "plantuml", "json")) == Answer(text)


#: A line of prose or content: no fence character, no line break, and no think-block marker
#: (a ``</think>`` anywhere ends a reasoning block, which the rule drops with all before it).
_LINE = st.text(
    st.characters(blacklist_characters="`~\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
).filter(lambda line: "think>" not in line.lower())


@settings(max_examples=200)
@given(
    prose=st.lists(_LINE, max_size=3),
    content=st.lists(_LINE, max_size=6),
    after=st.lists(_LINE, max_size=3),
    fence=st.sampled_from(["```", "~~~", "````"]),
    info=st.sampled_from(["", "mermaid", "json", "md"]),
)
def test_a_fenced_block_gives_exactly_its_content(
    prose: list[str], content: list[str], after: list[str], fence: str, info: str
) -> None:
    body = "".join(line + "\n" for line in content)
    answer = "".join(p + "\n" for p in prose) + f"{fence}{info}\n{body}{fence}\n" + "\n".join(after)
    got = unwrap_answer(answer, ("json",))
    assert got.text == body and got.fence == info
    assert got.line == len(prose) + 2


@pytest.mark.parametrize(
    "answer",
    [
        "<think>" * 200_000,
        "</think>" * 200_000,
        "```\n" * 100_000,
        "~~~ a\n" * 100_000,
        "x```\n" * 100_000,
        "@startuml\n" * 100_000,
    ],
)
def test_hostile_answers_take_linear_time(answer: str) -> None:
    started = time.process_time()
    unwrap_answer(answer, ("plantuml", "mermaid"))
    assert time.process_time() - started < 5  # quadratic would take minutes
