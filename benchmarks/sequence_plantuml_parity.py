"""Parity of the sequence parser with a real PlantUML (run by hand; needs PlantUML installed).

For every script it checks, with ``plantuml -syntax``:

1. the script compiles and PlantUML's participant count equals ours (declared participants
   plus those that arrows and notes create);
2. our canonical rendering of the script (every metric element in canonical one-line form)
   also compiles, and gives the same participant count.

    .venv/bin/python benchmarks/sequence_plantuml_parity.py [FILES...]

Without arguments it uses the 30 real mwdi diagrams of the tests.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from parsescore.sequence import parse_plantuml
from parsescore.sequence.model import Arrow, Note, ParsedDiagram, Participant
from parsescore.sequence.syntax import find_plantuml

DATA = Path(__file__).resolve().parent.parent / "tests" / "sequence" / "data" / "mwdi"


def our_participants(diagram: ParsedDiagram) -> set[str]:
    names: set[str] = set()
    for element in diagram.elements:
        if isinstance(element, Participant):
            names.add(element.code)
        elif isinstance(element, Arrow):
            names.update(end.name for end in (element.source, element.target) if end.is_node)
        elif isinstance(element, Note):
            names.update(element.participants)
    return names


def plantuml_participants(command: list[str], text: str) -> int | None:
    import subprocess

    result = subprocess.run(
        [*command, "-syntax"], input=text.encode(), capture_output=True, check=False
    )
    out = result.stdout.decode("utf-8", "replace")
    match = re.search(r"\((\d+) participants?\)", out)
    return int(match.group(1)) if match and not out.startswith("ERROR") else None


def main() -> int:
    command = find_plantuml()
    if command is None:
        print("no PlantUML found (PLANTUML_JAR or a plantuml command): nothing to compare")
        return 1
    files = [Path(p) for p in sys.argv[1:]] or sorted(DATA.glob("*.puml"))
    agree = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        diagram = parse_plantuml(text)
        ours = len(our_participants(diagram))
        theirs = plantuml_participants(command, text)
        canonical = "@startuml\n" + "\n".join(diagram.canonical_lines) + "\n@enduml\n"
        theirs_canonical = plantuml_participants(command, canonical)
        ok = theirs == ours == theirs_canonical
        agree += ok
        print(
            f"{'ok  ' if ok else 'DIFF'} {path.name}: ours {ours}, PlantUML {theirs}, "
            f"PlantUML on our canonical form {theirs_canonical}"
        )
    print(f"{agree}/{len(files)} scripts agree")
    return 0 if agree == len(files) else 1


if __name__ == "__main__":
    raise SystemExit(main())
