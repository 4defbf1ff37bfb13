"""Re-record the golden outputs of OmniDocBench v1.5 on the parity cases (tests/document/README.md).

    python tests/document/record_goldens.py OMNIDOCBENCH_DIR OMNIDOCBENCH_PYTHON

writes the cases (tests/document/document_cases.py) to a temporary folder, runs
tests/document/run_reference.py with OmniDocBench's Python on each, and keeps every JSON file of
its ``result/`` folder in ``tests/document/golden/<case>/`` (``metric_result.json`` is the
``<name>_metric_result.json`` document; the others are its per-sample lists).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from document_cases import CASES, write_cases  # noqa: E402

#: Extra runs: (golden name, case, page filter "key=value").
FILTERED = (("filter_language_english", "perfect", "language=english"),)


def record(reference: Path, python: Path) -> None:
    golden = HERE / "golden"
    with tempfile.TemporaryDirectory() as tmp:
        folders = write_cases(Path(tmp) / "cases")
        runs = [(case, case, "") for case in CASES] + list(FILTERED)
        for name, case, page_filter in runs:
            out = Path(tmp) / "out" / name
            env = {"PATH": "/usr/bin:/bin", "OMNIDOCBENCH_FILTER": page_filter}
            done = subprocess.run(
                [str(python), str(HERE / "run_reference.py"), str(reference),
                 str(Path(tmp) / "cases" / "truth.json"), str(folders[case]), str(out)],
                capture_output=True, text=True, env=env, check=False,
            )  # fmt: skip
            if done.returncode:
                raise SystemExit(f"{name}: OmniDocBench failed:\n{done.stdout}\n{done.stderr}")
            target = golden / name
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            prefix = f"{case}_quick_match_"
            for path in sorted((out / "result").glob("*.json")):
                data = json.loads(path.read_text(encoding="utf-8"))
                short = path.name.removeprefix(prefix)
                (target / short).write_text(
                    json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
                )
            skipped = [ln for ln in done.stdout.splitlines() if "No prediction for" in ln]
            (target / "skipped.json").write_text(json.dumps(skipped, indent=1) + "\n")
            print(name, "ok")


if __name__ == "__main__":
    record(Path(sys.argv[1]).resolve(), Path(sys.argv[2]))
