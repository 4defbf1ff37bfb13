"""Run a per-item scoring function over a dataset: serially, on local processes or on Dask.

Every dataset command scores items independently, so one runner serves them all:

- **backends**: serial (``jobs=1``), a local process pool (``jobs=N``; ``0`` = every core) or
  an existing Dask distributed cluster (``dask_scheduler="tcp://host:8786"``; the ``dask``
  extra). Records come back in item order whatever the backend, and a failure raises the error
  of the *first* failing item, as a serial run would, so the output never depends on the
  backend.
- **cache** (``cache_dir``): a record is stored under the sha256 of the kind, the scoring
  options, the package version and the item's input bytes, so a re-run after adding or
  changing a few predictions scores only those. Entries are written atomically and carry the
  package version and a checksum of their record; an entry that cannot be used (truncated,
  edited, not JSON, a directory, another item's) is ignored and rewritten.
- **progress**: a rich bar on stderr, off with ``quiet=True`` or when stderr is not a terminal.

The scoring function must be a pure, picklable callable (a module-level function or a
``functools.partial`` of one) returning a JSON-able ``dict``. Every record is passed through
JSON once, fresh or cached, so the kind rebuilds its result from exactly the same values either
way (tuples become lists; floats round-trip exactly).

>>> run_items(lambda s: {"n": len(s)}, ["ab", "c"], kind="demo", options={}, quiet=True).records
[{'n': 2}, {'n': 1}]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.files import write_text

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from rich.console import Console

__all__ = [
    "DaskUnavailableError",
    "ResultCache",
    "RunResult",
    "RunStats",
    "item_bytes",
    "run_items",
]

Record = dict[str, Any]
ScoreFn = Callable[[Any], Record]

#: Most items sent to a worker at once: large enough to amortise the round trip, small enough
#: to keep every worker busy and the progress bar moving.
MAX_CHUNK = 64

_CACHE_FORMAT = 2


class DaskUnavailableError(InputError, RuntimeError):
    """``--dask-scheduler`` was given but the ``dask`` extra is not installed: bad input (one
    ``error:`` line), and a RuntimeError as it always was."""


@dataclass(frozen=True, slots=True)
class RunStats:
    """What a run did: ``scored`` items were computed, ``reused`` came from the cache.

    ``corrupt`` counts cache entries that could not be read back and were rescored.
    """

    total: int
    scored: int
    reused: int
    corrupt: int = 0


@dataclass(frozen=True)
class RunResult:
    """One JSON-normalised record per item, in item order, and the run's statistics."""

    records: list[Record]
    stats: RunStats


def item_bytes(*parts: str | bytes | None) -> bytes:
    """Unambiguous bytes of an item's inputs for the cache key (``None`` differs from ``""``)."""
    out = bytearray()
    for part in parts:
        if part is None:
            out += b"N"
            continue
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        out += b"S" + str(len(data)).encode() + b":" + data
    return bytes(out)


def _default_item_bytes(item: Any) -> bytes:
    try:
        return json.dumps(item, ensure_ascii=False, sort_keys=True).encode("utf-8")
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"cannot derive a cache key from a {type(item).__name__} item ({exc}); pass item_input="
        ) from None


def _normalise(record: Any) -> Record:
    """The record as the cache stores it (one JSON round trip), so fresh == cached."""
    if not isinstance(record, dict):
        raise TypeError(f"a scoring function must return a dict, got {type(record).__name__}")
    if _orjson_safe(record):
        import orjson

        try:
            fast: Record = orjson.loads(orjson.dumps(record, option=orjson.OPT_SERIALIZE_NUMPY))
            return fast
        except orjson.JSONEncodeError:  # e.g. a lone surrogate, a 65-bit integer, deep nesting
            pass
    normalised: Record = json.loads(json.dumps(record, ensure_ascii=False))
    return normalised


def _orjson_safe(record: dict[str, Any]) -> bool:
    """True when orjson's round trip of ``record`` is ``json``'s (or orjson refuses it): only
    dicts with str keys, lists, tuples, str, int, bool, None and finite floats (numpy's
    float64 among them, which ``json`` writes as a float and orjson with its numpy option),
    each container once. orjson would write NaN and infinities as null and numpy's other
    scalars as numbers where ``json`` fails, so those take ``json``'s path; orjson refuses
    what else it writes differently (lone surrogates, integers beyond 64 bits, depth)."""
    seen: set[int] = set()
    stack: list[Any] = [record]
    while stack:
        value = stack.pop()
        if id(value) in seen:
            return False  # shared or circular: json's path says what it makes of it
        seen.add(id(value))
        if isinstance(value, dict):
            if any(type(key) is not str for key in value):
                return False
            items: Iterable[Any] = value.values()
        elif type(value) is list or type(value) is tuple:
            items = value
        elif isinstance(value, float):  # numpy's float64 (other subclasses: orjson refuses)
            if not math.isfinite(value):
                return False
            continue
        else:
            return False
        for item in items:
            kind = type(item)
            if kind is str or kind is int or kind is bool or item is None:
                continue
            if kind is float:
                if not math.isfinite(item):
                    return False
                continue
            stack.append(item)
    return True


class ResultCache:
    """Per-item records on disk, keyed by content hash (``DIR/ab/abcdef….json``).

    The key covers the kind, the scoring options (JSON-able), the package version and the
    item's input bytes: changing any of them misses the cache instead of reusing a stale
    record.
    """

    def __init__(
        self,
        directory: str | Path,
        *,
        kind: str,
        options: Mapping[str, Any],
        version: str = __version__,
    ) -> None:
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise InputError("--cache must be a directory, this is a file", path=self.directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"cannot create the cache directory: {exc.strerror}", path=self.directory
            ) from None
        try:
            header = json.dumps(
                {"kind": kind, "options": dict(options), "version": version},
                sort_keys=True,
                ensure_ascii=False,
            )
        except (TypeError, ValueError) as exc:
            raise TypeError(f"cache options must be JSON-able: {exc}") from None
        self._prefix = hashlib.sha256(header.encode("utf-8")).digest()
        self.kind = kind
        self.version = version
        self.corrupt = 0

    def key(self, data: bytes) -> str:
        """The hex sha256 of this cache's header and an item's input bytes."""
        digest = hashlib.sha256(self._prefix)
        digest.update(data)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Record | None:
        """The stored record, or None when absent or unusable (then counted as corrupt): an
        entry that is not a file, not JSON, of another format, version or item, or whose
        record does not match its checksum."""
        path = self._path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError):  # a directory, unreadable, not text
            self.corrupt += 1
            return None
        try:
            entry = json.loads(text)
        except (ValueError, RecursionError):
            self.corrupt += 1
            return None
        record = entry.get("record") if isinstance(entry, dict) else None
        if (
            not isinstance(entry, dict)
            or entry.get("format") != _CACHE_FORMAT
            or entry.get("key") != key
            or entry.get("version") != self.version
            or not isinstance(record, dict)
            or entry.get("sha256") != _checksum(record)
        ):
            self.corrupt += 1
            return None
        return record

    def put(self, key: str, record: Record) -> None:
        """Store a record atomically (a reader never sees half an entry; two runs writing the
        same entry write the same bytes). Whatever was in the entry's place (a directory, a
        bad file) is replaced; a cache that cannot be written only costs the reuse."""
        path = self._path(key)
        entry = {
            "format": _CACHE_FORMAT,
            "key": key,
            "kind": self.kind,
            "version": self.version,
            "sha256": _checksum(record),
            "record": record,
        }
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        elif path.is_symlink():
            path.unlink(missing_ok=True)
        with contextlib.suppress(InputError):
            write_text(path, json.dumps(entry, ensure_ascii=False) + "\n")


def _checksum(record: Record) -> str:
    """sha256 of a record's canonical JSON: an entry edited by hand no longer matches."""
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _score_chunk(fn: ScoreFn, items: Sequence[Any]) -> list[Record]:
    """Score a chunk in a worker (module level, so it pickles by reference), each record
    normalised there: the JSON round trip runs in parallel, and what travels back is plain
    data without containers shared with the item."""
    try:
        return [_normalise(fn(item)) for item in items]
    except Exception as exc:
        # ``raise ... from None`` hides the context but keeps it; Dask pickles it with the
        # error, and an unpicklable one (an lxml error) would turn ours into a bare Exception.
        if exc.__suppress_context__:
            exc.__context__ = None
        raise


def _chunks(indices: list[int], workers: int) -> list[list[int]]:
    size = max(1, min(MAX_CHUNK, len(indices) // (8 * max(workers, 1))))
    return [indices[i : i + size] for i in range(0, len(indices), size)]


def _ordered_failures(
    done: Iterator[tuple[int, list[Record] | None, BaseException | None]],
    n_chunks: int,
    on_chunk: Callable[[int, list[Record]], None],
) -> None:
    """Consume finished chunks; on failure, wait only for earlier chunks, then raise the first.

    The first failing item of the first failing chunk is the error a serial run raises.
    """
    finished: set[int] = set()
    failures: dict[int, BaseException] = {}
    for index, records, error in done:
        finished.add(index)
        if error is not None:
            failures[index] = error
        elif not failures or index < min(failures):
            assert records is not None
            on_chunk(index, records)
        if failures and all(i in finished for i in range(min(failures))):
            raise failures[min(failures)]
    if len(finished) != n_chunks:  # pragma: no cover - a backend lost a chunk
        raise RuntimeError(f"only {len(finished)} of {n_chunks} chunks came back")


#: Seconds between a worker's checks that its parent still lives.
PARENT_POLL_SECONDS = 0.25


def _parent_death_signal() -> None:
    """Linux: have the kernel send SIGKILL to this process when its parent ends (prctl
    PR_SET_PDEATHSIG), through libc, no dependency. Elsewhere (or failing) nothing: the
    watcher thread of :func:`_watch_parent` is enough."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)


def _watch_parent(expected: int | None) -> None:
    """A pool worker's initializer: end the worker when its parent process ends (a ``kill -9``
    of the command leaves no worker behind, busy or idle).

    Two ways: the kernel's parent-death signal (Linux), and a daemon thread that polls the
    parent's pid every :data:`PARENT_POLL_SECONDS` (a worker whose parent ended is given to
    another process, so its parent pid changes) and ends the worker at once. ``expected`` is
    the parent's pid when known (fork and spawn: the command's process), to catch a parent
    that ended before this ran."""
    import gc
    import signal
    import threading

    # a forked worker holds a copy of the parent's objects (its truth, its modules): frozen,
    # the collector never scans them again (each full collection would walk them all)
    gc.freeze()
    # Ctrl-C reaches every process of the terminal's group: the command stops the workers
    # itself (a worker's own KeyboardInterrupt would only print a traceback)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _parent_death_signal()
    parent = os.getppid()
    if expected is not None and parent != expected:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parsescore-parent-watch", daemon=True).start()


def _run_pool(
    fn: ScoreFn, chunks: list[list[Any]], jobs: int
) -> Iterator[tuple[int, list[Record] | None, BaseException | None]]:
    # imported here: a run in this process (one item, --jobs 1) never needs them
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # a worker's parent is this process (fork and spawn start methods) or the forkserver,
    # which itself ends when this process does
    context = multiprocessing.get_context()
    parent = None if context.get_start_method() == "forkserver" else os.getpid()
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(chunks)),
        mp_context=context,
        initializer=_watch_parent,
        initargs=(parent,),
    )
    try:
        futures: dict[Future[list[Record]], int] = {
            pool.submit(_score_chunk, fn, chunk): index for index, chunk in enumerate(chunks)
        }
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                error = future.exception()
                yield futures[future], None if error else future.result(), error
    except (KeyboardInterrupt, GeneratorExit):
        # Ctrl-C, or the caller stopped reading (an item failed): the running items' records
        # are not wanted, so their workers end now instead of finishing them
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.terminate()


def _dask_client(address: str) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise DaskUnavailableError(
            "--dask-scheduler needs the dask extra: pip install 'parsescore[dask]'"
        ) from None
    from distributed.comm.addressing import parse_address, parse_host_port

    try:  # check first: a Client that fails on a malformed address hangs at exit
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as exc:
        raise InputError(
            f"--dask-scheduler {address!r} is not a scheduler address ({exc}); "
            "expected e.g. tcp://host:8786"
        ) from None
    try:
        return Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise RuntimeError(f"cannot connect to the Dask scheduler at {address}: {exc}") from None


def _dask_threads(client: Any) -> int:
    """Threads across the cluster's workers (waiting a little for a first worker)."""
    threads = sum(client.nthreads().values())
    if not threads:
        try:
            client.wait_for_workers(1, timeout=30)
        except TimeoutError:
            raise RuntimeError("the Dask cluster has no workers (waited 30 s)") from None
        threads = sum(client.nthreads().values())
    return max(1, int(threads))


def _run_dask(
    fn: ScoreFn, chunks: list[list[Any]], client: Any
) -> Iterator[tuple[int, list[Record] | None, BaseException | None]]:
    from distributed import as_completed

    futures = {
        client.submit(_score_chunk, fn, chunk, pure=False): index
        for index, chunk in enumerate(chunks)
    }
    for future in as_completed(list(futures), loop=client.loop):
        index = futures[future]
        if future.status == "error":
            error = future.exception()
            if type(error) is Exception:  # Dask could not send the worker's error back
                error = RuntimeError(f"scoring failed on a Dask worker: {error}")
            yield index, None, error
        else:
            yield index, future.result(), None


def run_items(
    fn: ScoreFn,
    items: Sequence[Any],
    *,
    kind: str,
    options: Mapping[str, Any],
    item_input: Callable[[Any], bytes] | None = None,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache_dir: str | Path | None = None,
    quiet: bool = False,
    description: str | None = None,
    console: Console | None = None,
    advance: Callable[[int], None] | None = None,
) -> RunResult:
    """Score every item with ``fn`` and return the records in item order.

    Args:
        fn: pure, picklable ``item -> dict`` (JSON-able).
        items: the items (picklable; sent to workers in chunks).
        kind, options: what the items are scored as, for the cache key (``options`` JSON-able;
            put every option that changes a record in it, and nothing that does not, such as
            ``jobs``).
        item_input: an item's input bytes for the cache key (default: its JSON).
        jobs: local worker processes (1 = in this process, 0 = every core).
        dask_scheduler: address of a running Dask scheduler; overrides ``jobs``.
        cache_dir: directory of the content-hash cache (created if needed).
        quiet: no progress bar and no cache summary.
        description: the progress bar's label (default: ``kind``).
        console: where the bar and the cache summary go (default: stderr).
        advance: also called with the number of items finished, for a caller's own bar.
    """
    if jobs < 0:
        raise InputError(f"--jobs must be 0 (every core) or more, got {jobs}")
    if jobs == 0:
        jobs = os.cpu_count() or 1
    client = _dask_client(dask_scheduler) if dask_scheduler else None
    try:
        return _run(
            fn,
            items,
            kind=kind,
            options=options,
            item_input=item_input or _default_item_bytes,
            jobs=jobs,
            client=client,
            cache=None if cache_dir is None else ResultCache(cache_dir, kind=kind, options=options),
            quiet=quiet,
            description=description or kind,
            console=console,
            advance=advance,
        )
    finally:
        if client is not None:
            client.close()


@contextlib.contextmanager
def _progress(
    console: Console | None, description: str, total: int, completed: int
) -> Iterator[Callable[[int], None]]:
    """The advance of a rich bar on ``console`` (shown when it is a terminal); with no console
    (quiet) nothing of rich is imported, so a quiet first call does not pay for it."""
    if console is None:
        yield lambda done: None
        return
    from rich.markup import escape
    from rich.progress import Progress

    with Progress(console=console, transient=True, disable=not console.is_terminal) as bar:
        # the label names the answers' folder: its ``[red]`` is text, not a style
        task = bar.add_task(escape(description), total=total, completed=completed)
        yield lambda done: bar.advance(task, done)


def _run(
    fn: ScoreFn,
    items: Sequence[Any],
    *,
    kind: str,
    options: Mapping[str, Any],
    item_input: Callable[[Any], bytes],
    jobs: int,
    client: Any,
    cache: ResultCache | None,
    quiet: bool,
    description: str,
    console: Console | None,
    advance: Callable[[int], None] | None,
) -> RunResult:
    records: list[Record | None] = [None] * len(items)
    keys: list[str] = []
    todo: list[int] = []
    if cache is not None:
        keys = [cache.key(item_input(item)) for item in items]
        for index, key in enumerate(keys):
            record = cache.get(key)
            if record is None:
                todo.append(index)
            else:
                records[index] = record
    else:
        todo = list(range(len(items)))
    reused = len(items) - len(todo)
    if advance and reused:
        advance(reused)

    if not quiet and console is None:
        from rich.console import Console

        console = Console(stderr=True, emoji=False)  # item ids print as written
    with _progress(None if quiet else console, description, len(items), reused) as step:

        def finish(indices: Sequence[int], chunk_records: Sequence[Record]) -> None:
            for index, record in zip(indices, chunk_records, strict=True):
                records[index] = record
                if cache is not None:
                    cache.put(keys[index], record)
            step(len(indices))
            if advance:
                advance(len(indices))

        workers = 1 if client is None or not todo else _dask_threads(client)
        if client is None and (jobs == 1 or len(todo) <= 1):
            for index in todo:
                finish([index], [_normalise(fn(items[index]))])
        elif todo:
            index_chunks = _chunks(todo, jobs if client is None else workers)
            chunks = [[items[i] for i in chunk] for chunk in index_chunks]
            done = _run_pool(fn, chunks, jobs) if client is None else _run_dask(fn, chunks, client)
            try:
                _ordered_failures(
                    done,
                    len(chunks),
                    lambda index, recs: finish(index_chunks[index], recs),
                )
            finally:
                if hasattr(done, "close"):
                    done.close()

    stats = RunStats(len(items), len(todo), reused, cache.corrupt if cache else 0)
    if cache is not None and console is not None and not quiet:
        note = f", {stats.corrupt} unreadable entries rewritten" if stats.corrupt else ""
        console.print(
            f"cache: {stats.reused} of {stats.total} {kind} items reused, "
            f"{stats.scored} scored{note}",
            highlight=False,
        )
    assert all(record is not None for record in records)
    return RunResult(records, stats)  # type: ignore[arg-type]
