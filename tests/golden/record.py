"""Rewrite tests/golden/expected/ from the current code (see cases.py).

``python tests/golden/record.py`` rewrites every case; ``python tests/golden/record.py table
schema`` only the cases whose names begin with one of the words given.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import CASES, COMPARE_CASES, EXPECTED, run_case


def main(prefixes: list[str]) -> None:
    chosen = [
        c for c in (*CASES, *COMPARE_CASES) if not prefixes or c.name.startswith(tuple(prefixes))
    ]
    if not prefixes:
        shutil.rmtree(EXPECTED, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        for case in chosen:
            shutil.rmtree(EXPECTED / case.name, ignore_errors=True)
            found = run_case(case, Path(tmp) / case.name, EXPECTED)
            for name, data in found.items():
                target = EXPECTED / case.name / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            print(f"{case.name}: {', '.join(found)}")


if __name__ == "__main__":
    main(sys.argv[1:])
