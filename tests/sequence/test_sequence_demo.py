"""The demo: bundled data, hand-counted expectations from the documented edits."""

from __future__ import annotations

import json
from pathlib import Path

from parsescore.sequence import CATEGORIES
from parsescore.sequence.demo import DEMO_DATA, run_demo

# (insertions, deletions, substitutions) per file and category, counted from the edit list
# in parsescore/data/sequence/README.md; categories not listed are all zero.
EXPECTED = {
    "model_a": {
        "spec_101_ProvideListOfDeviceInterfaces.puml": {"direction_type": (0, 0, 1)},
        "spec_106_provideDataOfAllLinks.puml": {"note": (0, 0, 1)},
        "spec_103_ProvideListOfParallelLinks.puml": {"message": (0, 0, 1)},
        "testing_unknownTargetObject.puml": {},
        "spec_500_LiveRessourcePathWithCacheUpdate.puml": {
            "note": (0, 1, 0),
            "direction": (1, 1, 0),
            "message": (1, 1, 0),
            "node": (2, 2, 0),
        },
        "spec_00x_CyclicOperationBasedDeviceListSync.puml": {
            "participant": (0, 0, 1),
            "node": (0, 0, 1),
        },
    },
    "model_b": {
        "spec_101_ProvideListOfDeviceInterfaces.puml": {
            "participant": (0, 1, 0),
            "message": (0, 0, 1),
        },
        "spec_106_provideDataOfAllLinks.puml": {
            "note": (1, 1, 0),
            "direction": (0, 1, 0),
            "message": (0, 1, 0),
            "node": (0, 2, 0),
        },
        "spec_103_ProvideListOfParallelLinks.puml": {
            "note": (0, 2, 0),
            "direction_type": (0, 0, 1),
            "message": (1, 0, 0),
        },
        "testing_unknownTargetObject.puml": {"group": (0, 1, 1)},
        "spec_500_LiveRessourcePathWithCacheUpdate.puml": {
            "box": (1, 0, 0),
            "direction": (1, 0, 0),
            "message": (1, 0, 0),
            "node": (2, 0, 0),
        },
        # No prediction: everything deleted (13 arrows, 9 with text, 8 notes, 7 participants).
        "spec_00x_CyclicOperationBasedDeviceListSync.puml": {
            "node": (0, 26, 0),
            "direction": (0, 13, 0),
            "message": (0, 9, 0),
            "note": (0, 8, 0),
            "participant": (0, 7, 0),
        },
    },
}


def test_demo_data_is_bundled_with_its_licence() -> None:
    assert (DEMO_DATA / "LICENSE-Apache-2.0.txt").is_file()
    assert "Apache" in (DEMO_DATA / "README.md").read_text()
    assert len(list((DEMO_DATA / "truth").glob("*.puml"))) == 6


def test_run_demo_writes_the_report_and_counts_the_documented_edits(tmp_path: Path) -> None:
    out = tmp_path / "sequence"
    demo = run_demo(out)
    section = demo.section
    assert [r.kind for r in demo.results] and all(r.items for r in demo.results)
    assert section.startswith("## Sequence")
    assert "| Ground truth count | 74 | 37 | 37 | 30 | 0 | 4 | 23 | 25 |" in section
    for name in (
        "scores.json",
        "table1.md",
        "table2.csv",
        "differences.md",
        "errors_by_lines.png",
        "errors_by_lines.svg",
    ):
        assert (out / name).is_file(), name
    result = json.loads((out / "scores.json").read_text())
    assert list(result) == ["model_a", "model_b"]
    for model, files in EXPECTED.items():
        found = {f["path"]: f for f in result[model]["files"]}
        assert sorted(found) == sorted(files)
        for path, expected in files.items():
            actual = {
                c: (
                    found[path][c]["insertion"],
                    found[path][c]["deletion"],
                    found[path][c]["substitution"],
                )
                for c in CATEGORIES
            }
            assert {c: v for c, v in actual.items() if v != (0, 0, 0)} == expected, (model, path)
