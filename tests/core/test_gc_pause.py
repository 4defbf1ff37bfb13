"""The garbage-collector pause of large parses and evaluations (parsescore.core.files.gc_paused)."""

from __future__ import annotations


def test_gc_pause_puts_its_objects_in_the_oldest_generation_and_leaks_no_cycle() -> None:
    """After a large parse or evaluation, its million objects must not be rescanned by the
    young generations' collections (they go straight to the oldest), yet a cycle made meanwhile
    is still collected."""
    import gc
    import weakref

    from parsescore.core.files import gc_paused

    class Node:
        other: object = None

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        kept = [Node() for _ in range(3)]
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle only the collector can free
        dead = weakref.ref(a)
        del a, b
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(node) in oldest for node in kept)
    assert dead() is not None  # not collected yet: no collection ran on leaving the pause
    gc.collect()
    assert dead() is None


def test_full_collections_paused_keeps_young_collections_and_restores_thresholds() -> None:
    """Inside, no full collection runs but a young one still frees a cycle; afterwards the
    thresholds are the caller's, also when the block raised."""
    import gc
    import weakref

    import pytest

    from parsescore.core.files import full_collections_paused

    class Node:
        other: object = None

    before = gc.get_threshold()
    generations: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        with full_collections_paused():
            assert gc.get_threshold()[:2] == before[:2]
            assert gc.get_threshold()[2] > 10**9
            a, b = Node(), Node()
            a.other, b.other = b, a
            dead = weakref.ref(a)
            del a, b
            kept = []
            for index in range(200_000):  # allocations that survive: many young collections
                kept.append([index])
            assert generations and 2 not in generations
            gc.collect(1)
            assert dead() is None
    finally:
        gc.callbacks.remove(seen)
    assert gc.get_threshold() == before
    with pytest.raises(ValueError), full_collections_paused():
        raise ValueError("stop")
    assert gc.get_threshold() == before


def test_a_document_run_restores_the_collector(tmp_path: object) -> None:
    """The document kind's OmniDocBench run pauses full collections only while it runs."""
    import gc
    from pathlib import Path

    import parsescore

    data = Path(parsescore.__file__).parent / "data" / "document"
    before = gc.get_threshold()
    result = parsescore.evaluate("document", data / "truth.json", data / "model_a", quiet=True)
    assert result.items
    assert gc.get_threshold() == before
