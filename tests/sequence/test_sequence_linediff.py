"""Myers line diff: a valid edit script whose length is the exhaustive-search minimum."""

from __future__ import annotations

import random
import subprocess
from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.shared.linediff import edit_distance, myers_diff


def brute_force_lcs(a: list[str], b: list[str]) -> int:
    """Longest common subsequence by trying every subsequence of ``a`` (tiny inputs only)."""

    def is_subsequence(candidate: tuple[str, ...], of: list[str]) -> bool:
        it = iter(of)
        return all(any(x == y for y in it) for x in candidate)

    for size in range(len(a), -1, -1):
        for picked in combinations(a, size):
            if is_subsequence(picked, b):
                return size
    return 0


def check_script(a: list[str], b: list[str]) -> int:
    ops = myers_diff(a, b)
    assert [op.a_index for op in ops if op.tag != "insert"] == list(range(len(a)))
    assert [op.b_index for op in ops if op.tag != "delete"] == list(range(len(b)))
    for op in ops:
        if op.tag == "equal":
            assert a[op.a_index] == b[op.b_index]
        if op.tag == "delete":
            assert op.b_index is None
        if op.tag == "insert":
            assert op.a_index is None
    return sum(op.tag != "equal" for op in ops)


lines = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=8)


@settings(max_examples=300, deadline=None)
@given(lines, lines)
def test_minimal_against_exhaustive_search(a: list[str], b: list[str]) -> None:
    edits = check_script(a, b)
    assert edits == len(a) + len(b) - 2 * brute_force_lcs(a, b)


def test_known_scripts() -> None:
    ops = myers_diff(["a", "b", "c"], ["a", "c", "d"])
    assert [(op.tag, op.a_index, op.b_index) for op in ops] == [
        ("equal", 0, 0),
        ("delete", 1, None),
        ("equal", 2, 1),
        ("insert", None, 2),
    ]
    assert edit_distance([], []) == 0
    assert edit_distance(["x"], []) == 1
    assert edit_distance([], ["x", "y"]) == 2
    # Nothing in common: delete all, insert all.
    assert edit_distance(["a", "b"], ["c", "d", "e"]) == 5


def test_classic_myers_example() -> None:
    # The example of Myers (1986): ABCABBA -> CBABAC has D = 5.
    assert check_script(list("ABCABBA"), list("CBABAC")) == 5


def test_larger_inputs_stay_minimal() -> None:
    a = [str(i % 7) for i in range(300)]
    b = [str((i * 3) % 7) for i in range(280)]
    edits = check_script(a, b)
    # Dynamic-programming LCS (independent of the diff code) for the minimum.
    table = [0] * (len(b) + 1)
    for x in a:
        previous = 0
        for j, y in enumerate(b):
            current = table[j + 1]
            table[j + 1] = previous + 1 if x == y else max(table[j + 1], table[j])
            previous = current
    assert edits == len(a) + len(b) - 2 * table[-1]


def git_minimal_changes(tmp_path: Path, a: list[str], b: list[str]) -> int:
    """Added + deleted line count of ``git diff --no-index --minimal`` (git's minimal diff)."""
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(line + "\n" for line in a))
    new.write_text("".join(line + "\n" for line in b))
    result = subprocess.run(
        ["git", "diff", "--no-index", "--minimal", "--numstat", str(old), str(new)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    if not result.stdout.strip():
        return 0
    added, deleted, _ = result.stdout.split("\t", 2)
    return int(added) + int(deleted)


def test_same_size_as_git_minimal_diff(tmp_path: Path) -> None:
    rng = random.Random(7)
    for _ in range(25):
        a = [rng.choice("abcdefg") for _ in range(rng.randint(0, 40))]
        b = list(a)
        for _ in range(rng.randint(0, 10)):
            op = rng.random()
            if op < 0.4 and b:
                del b[rng.randrange(len(b))]
            elif op < 0.8:
                b.insert(rng.randint(0, len(b)), rng.choice("abcdefgh"))
            elif b:
                b[rng.randrange(len(b))] = rng.choice("xyz")
        assert check_script(a, b) == git_minimal_changes(tmp_path, a, b), (a, b)
