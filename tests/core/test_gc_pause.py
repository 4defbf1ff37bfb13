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
