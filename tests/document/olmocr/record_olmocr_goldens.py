"""Record olmOCR-bench's verdicts on every case of ``olmocr_cases.py`` as goldens.

    python tests/document/olmocr/record_olmocr_goldens.py MIRROR_GIT_DIR REFERENCE_PYTHON

``MIRROR_GIT_DIR`` is a git repository of allenai/olmocr holding commit f7cfe4c2 (e.g. the
``fetch`` mirror); the harness's files are extracted from it into a temporary folder (with an
empty ``olmocr/__init__.py``, so that importing the bench does not import the pipeline).
``REFERENCE_PYTHON`` is the venv's Python described in README.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMMIT = "f7cfe4c22098b154c76b6ec950d1c0a464eecf8d"
FILES = ["olmocr/repeatdetect.py", "olmocr/bench/__init__.py", "olmocr/bench/benchmark.py",
         "olmocr/bench/tests.py", "olmocr/bench/table_parsing.py", "olmocr/bench/utils.py",
         "olmocr/bench/katex/__init__.py",
         "olmocr/bench/katex/render.py", "olmocr/bench/katex/katex.min.js",
         "olmocr/bench/katex/katex.min.css", "olmocr/bench/katex/auto-render.min.js"]  # fmt: skip


def extract(mirror: str, target: Path) -> None:
    for name in FILES:
        data = subprocess.run(["git", "-C", mirror, "show", f"{COMMIT}:{name}"], check=True,
                              capture_output=True).stdout  # fmt: skip
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (target / "olmocr" / "__init__.py").write_text("")


def main(argv: list[str]) -> None:
    mirror, python, *only = argv
    sys.path.insert(0, str(HERE))
    from olmocr_cases import write_cases

    golden = HERE / "golden"
    golden.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src"
        extract(mirror, source)
        # fuzzysearch breaks ties between equally good overlapping matches by set order, which
        # follows Python's per-process hash seed: its candidates before merging are recorded
        # too (deterministic), and its answers under seed 0
        units = subprocess.run([python, str(HERE / "record_olmocr_units.py"), str(source)],
                               capture_output=True, text=True, check=True,
                               env={**os.environ, "HOME": tmp, "PYTHONHASHSEED": "0"})  # fmt: skip
        (golden / "units.json").write_text(units.stdout, encoding="utf-8")
        cases = Path(tmp) / "cases"
        pairs = write_cases(cases)
        env = {**os.environ, "HOME": tmp, "PYTHONHASHSEED": "0"}
        for case, candidate in pairs:
            if only and case not in only:
                continue
            done = subprocess.run(
                [python, str(HERE / "run_olmocr_reference.py"), str(source), str(cases / case),
                 candidate], capture_output=True, text=True, env=env, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                raise SystemExit(f"{case}/{candidate}: the reference failed:\n{done.stderr}")
            (golden / f"{case}__{candidate}.json").write_text(done.stdout, encoding="utf-8")
            print(f"{case}/{candidate}")


if __name__ == "__main__":
    main(sys.argv[1:])
