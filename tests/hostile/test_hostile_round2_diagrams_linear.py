"""Every flowchart and sequence reader is linear (or near it) in its input (issue 30, item 1).

Each case grows a hostile shape of input ×2, ×4 and ×8 and measures the reader's CPU time in
this process (``time.process_time``: what other processes on a loaded machine do is not
counted; see ``cpu_growth``). A linear reader takes about 8 times as long on the ×8 input;
a quadratic one 64 times. The test allows 3 times linear (24), and 12 for ×4.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial

import pytest

from cpu_growth import growth
from parsescore.core.errors import InputError
from parsescore.flowchart.formats import read_dot, read_mermaid
from parsescore.sequence.mermaid import parse_mermaid
from parsescore.sequence.parser import parse_plantuml
from parsescore.shared.distance import normalise_text

#: How many times slower than linear a reader may be at ×8 (quadratic would be 8).
SLACK = 3.0


def _read(read: Callable[[str], object], text: str) -> None:
    # a refused input is a result too; only other exceptions fail the test
    with contextlib.suppress(InputError):
        read(text)


def _read_include_chain(text: str) -> object:
    """``text`` is a number n: a script including n files, each including the next once."""
    n = int(text)
    files = {f"f{k}.iuml": f"!include_once f{k + 1}.iuml\nA -> B : {k}\n" for k in range(n)}
    files[f"f{n}.iuml"] = "A -> B : end\n"
    root = "@startuml\n" + "".join(f"!include f{k}.iuml\n" for k in range(n)) + "@enduml\n"
    return parse_plantuml(root, path="x.puml", includes=files)


# (name, reader, input of size n, base n)
CASES: list[tuple[str, Callable[[str], object], Callable[[int], str], int]] = [
    # Mermaid flowcharts
    ("mermaid fence and spaces", read_mermaid, lambda n: "```mermaid\n" + " " * n, 100_000),
    (
        "mermaid fenced chart then spaces",
        read_mermaid,
        lambda n: "```mermaid\nflowchart TD\n  A --> B\n" + " " * n + "```\n",
        40_000,
    ),
    (
        "mermaid markdown label",
        read_mermaid,
        lambda n: 'flowchart TD\n  A["`' + "-_a" * n + '`"]\n',
        4_000,
    ),
    (
        "mermaid markdown stars",
        read_mermaid,
        lambda n: 'flowchart TD\n  A["`' + "*a" * n + '`"]\n',
        4_000,
    ),
    (
        "mermaid link then blank lines",
        read_mermaid,
        lambda n: "flowchart TD\n  A -->" + " \n" * n + "B\n",
        5_000,
    ),
    ("mermaid many links", read_mermaid, lambda n: "flowchart TD\n" + "  A --> B\n" * n, 500),
    (
        "mermaid subgraph head in pieces",
        read_mermaid,
        lambda n: "flowchart TD\n  subgraph " + '"a" b ' * n + "\n  A\n  end\n",
        500,
    ),
    # DOT (pydot reads about a name a millisecond: small sizes)
    ("dot one node repeated", read_dot, lambda n: "digraph { a -> " + "a " * n + "}", 100),
    (
        "dot chain of labelled edges",
        read_dot,
        lambda n: (
            "digraph {" + "".join(f'n{k} -> n{k + 1} [label="x y"]; ' for k in range(n)) + "}"
        ),
        50,
    ),
    # text normalisation (Flowde JSON texts)
    ("normalised newlines", normalise_text, lambda n: "a" + "\n" * n + "b", 40_000),
    ("normalised spaces", normalise_text, lambda n: "a" + " \t" * n + "b", 40_000),
    ("normalised equals", normalise_text, lambda n: " =" * n, 20_000),
    # PlantUML
    (
        "plantuml participant of spaces",
        parse_plantuml,
        lambda n: '@startuml\nparticipant "' + " " * n + '"\n@enduml\n',
        100_000,
    ),
    (
        "plantuml box of spaces",
        parse_plantuml,
        lambda n: '@startuml\nbox "' + " " * n + '"\nend box\n@enduml\n',
        100_000,
    ),
    (
        "plantuml continued lines",
        parse_plantuml,
        lambda n: "@startuml\n" + ("A -> B : a\\\n" * 500 + "x\n") * n + "@enduml\n",
        4,
    ),
    (
        "plantuml assignment of spaces",
        parse_plantuml,
        lambda n: "@startuml\n!$a = x" + " " * n + "y\nA -> B : $a\n@enduml\n",
        100_000,
    ),
    (
        "plantuml many arrows",
        parse_plantuml,
        lambda n: "@startuml\n" + "A -> B : hi\n" * n + "@enduml\n",
        500,
    ),
    ("plantuml include chain", _read_include_chain, str, 40),
    # Mermaid sequenceDiagram
    (
        "mermaid sequence directives",
        parse_mermaid,
        lambda n: "sequenceDiagram\n" + "%%{" * n,
        50_000,
    ),
    (
        "mermaid sequence name of spaces",
        parse_mermaid,
        lambda n: "sequenceDiagram\nparticipant A" + " " * n + "B\n",
        1_000,
    ),
    (
        "mermaid sequence messages",
        parse_mermaid,
        lambda n: "sequenceDiagram\n" + "A->>B: hi\n" * n,
        300,
    ),
]


@pytest.mark.parametrize(("name", "read", "make", "base"), CASES, ids=[c[0] for c in CASES])
def test_reader_time_grows_linearly(
    name: str, read: Callable[[str], object], make: Callable[[int], str], base: int
) -> None:
    _read(read, make(base))  # warm up: imports, compiled patterns, parser tables
    small = partial(_read, read, make(base))
    for factor in (4, 8):
        ratio = growth(small, partial(_read, read, make(base * factor)), factor * SLACK)
        print(name, f"x{factor}: {ratio:.1f} times x1")
        assert ratio <= factor * SLACK, (factor, ratio)
