"""Scoring batches of dialogs in worker processes on one machine (``EvalOptions.workers``).

``workers`` processes score: ``workers - 1`` worker processes and the calling process, which scores a batch
itself whenever the workers have enough in hand (so it never idles waiting for them, and works while they start).
Each builds its comparator and composer once, from the options, and keeps them for every batch it scores (an
embedding model loads once per process). Results come back in input order, so a run gives exactly what one
process gives: judging is a pure function of the dialog and the options. Scorer instances cannot cross a
process boundary, so workers only serve runs set up by options (the CLI, ``iter_evaluate(..., options)``).

Two ways in: ``scored_in_workers`` takes dialogs and gives back results (the API); ``scored_texts`` (the CLI's
JSON and JSONL output) gives the workers raw input lines and takes back the records' JSON text, so besides the
batches it scores itself the calling process only splits the input, checks dialog ids across a file, and writes.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import IO, Any, TypeVar

from aem_strands.compare.chain import Comparator
from aem_strands.compose import Composer
from aem_strands.decode import format_of, jsonl_records, read_records, split_format
from aem_strands.errors import AemError, InputError, Location, printable
from aem_strands.evaluate import evaluate_dialogs
from aem_strands.load import LoadedRecord, checked_ids, loaded_records, read_lines, repeated_id
from aem_strands.options import EvalOptions
from aem_strands.result import DialogResult, json_text, record_of
from aem_strands.types import Dialog, JsonValue

K = TypeVar("K")
T = TypeVar("T")

AHEAD = 6
"""Batches the calling process may score beyond those in the workers' hands before it waits for the oldest: it
keeps working while they start, and memory holds a bounded number of batches however long the input."""


@dataclass(frozen=True)
class _State:
    """What scoring a batch needs in a process: the options and the comparator and composer built from them."""

    options: EvalOptions
    comparator: Comparator
    composer: Composer

    @classmethod
    def of(cls, options: EvalOptions) -> _State:
        from aem_strands.evaluate import make_comparator

        return cls(options, make_comparator(options), options.make_composer())


_state: _State | None = None
"""A worker process's state (set once, by ``_start``)."""


def _start(options: EvalOptions) -> None:
    global _state
    _state = _State.of(options)


def _in_worker(function: Callable[..., T], *arguments: Any) -> T:
    if _state is None:
        raise RuntimeError("a worker task ran before the pool's initializer")
    return function(_state, *arguments)


def _score(state: _State, chunk: list[Dialog | JsonValue]) -> list[DialogResult]:
    from aem_strands.evaluate import evaluate_chunk

    return evaluate_chunk(chunk, state.options, state.comparator, state.composer)


def _context() -> BaseContext:
    """Where workers come from: forked from a fork server where there is one (a clean interpreter that imports the
    scoring stack once, so workers start without importing it each: a second or more of CPU apiece), else
    spawned. Neither forks the calling process, which may hold model or display threads."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # takes effect when this process first starts its fork server
    return context


Call = tuple[Callable[..., T], tuple[Any, ...]]
"""A batch's work: ``function(state, *arguments)``."""


def _here(state: Callable[[], _State], function: Callable[..., T], arguments: tuple[Any, ...]) -> Future[T]:
    done: Future[T] = Future()
    try:
        done.set_result(function(state(), *arguments))
    except Exception as failure:  # the caller gets it from future.result(), as it would a worker's failure
        done.set_exception(failure)
    return done


def _in_order(calls: Iterable[Call[T]], options: EvalOptions) -> Iterator[Future[T]]:
    """Each call's future, in input order, run by ``options.workers - 1`` worker processes (at most two calls each
    in hand) and by this process whenever they have that many (see ``AHEAD``). Futures may be handed out before
    they are done; ``future.result()`` waits."""
    here = functools.cache(lambda: _State.of(options))  # built here only if this process takes a batch
    helpers = options.workers - 1
    context = _context() if helpers else None
    with contextlib.ExitStack() as stack:
        pool = None
        if helpers:
            pool = stack.enter_context(
                ProcessPoolExecutor(helpers, mp_context=context, initializer=_start, initargs=(options,))
            )
        pending: deque[Future[T]] = deque()
        for function, arguments in calls:
            while pending and (pending[0].done() or len(pending) >= 2 * helpers + AHEAD):
                yield pending.popleft()
            if pool is not None and sum(not f.done() for f in pending) < 2 * helpers:
                pending.append(pool.submit(_in_worker, function, *arguments))
            else:
                pending.append(_here(here, function, arguments))
        yield from pending


def scored_in_workers(
    batches: Iterable[tuple[K, list[Dialog | JsonValue]]], options: EvalOptions
) -> Iterator[tuple[K, Future[list[DialogResult]]]]:
    """Each ``(key, dialogs)`` batch's key and the future of its results, in input order, scored by
    ``options.workers`` processes (this one among them). The caller takes ``future.result()`` (which raises what
    scoring raised)."""
    keys: deque[K] = deque()

    def calls() -> Iterator[Call[list[DialogResult]]]:
        for key, dialogs in batches:
            keys.append(key)
            yield _score, (dialogs,)

    for future in _in_order(calls(), options):
        yield keys.popleft(), future


def isolated(failure: BaseException) -> bool:
    """Whether an exception belongs to one dialog (its error record) rather than to the whole run."""
    return isinstance(failure, InputError) or not isinstance(failure, AemError)


def score_chunk(
    chunk: list[LoadedRecord], options: EvalOptions, comparator: Comparator
) -> Iterator[DialogResult | InputError]:
    """Each loaded record's result, or its error, in order: the chunk's dialogs are scored as one batch, and when
    that fails one by one, so that only the dialog that fails gets the error ("could not be scored")."""
    dialogs = [r.dialog for r in chunk if r.dialog is not None]
    try:
        results: list[DialogResult | InputError] = (
            [*evaluate_dialogs(dialogs, options, comparator=comparator)] if dialogs else []
        )
    except Exception as failure:
        if not isolated(failure):
            raise
        results = []
        for record in chunk:  # score one by one: the dialog that fails gets the error, the others their result
            if record.dialog is None:
                continue
            try:
                results.extend(evaluate_dialogs([record.dialog], options, comparator=comparator))
            except Exception as single:
                if not isolated(single):
                    raise
                detail = printable(f"{type(single).__name__}: {single}")
                where = replace(record.where, dialog_id=record.dialog.dialog_id)
                results.append(InputError(f"could not be scored: {detail}", where))
    scored = iter(results)
    for record in chunk:
        if record.error is not None:
            yield record.error
        elif record.dialog is not None:
            yield next(scored)


@dataclass(frozen=True)
class ScoredText:
    """A dialog scored and written out in a worker: its record's JSON text and what the exit code reads."""

    dialog_id: str
    status: str
    test_pass: bool
    text: str


@dataclass(frozen=True)
class _Outcome:
    """One input record as a worker hands it back: where its dialog loaded (``None``: it did not, or its id was
    checked already), and its scored text or its error."""

    loaded: Location | None
    scored: ScoredText | None
    error: InputError | None = None


def _outcomes(state: _State, records: list[LoadedRecord], indent: int | None, report_loaded: bool) -> list[_Outcome]:
    return written_outcomes(records, state.options, state.comparator, indent, report_loaded)


def written_outcomes(
    records: list[LoadedRecord], options: EvalOptions, comparator: Comparator, indent: int | None, report_loaded: bool
) -> list[_Outcome]:
    """Each record scored (one batch) and written as JSON text, or its error, in order; with ``report_loaded`` each
    outcome of a loaded dialog keeps its location, so the process that writes can check ids across a file (also
    the Ray actors' step, ``aem_strands.distributed``)."""
    out = []
    for record, item in zip(records, score_chunk(records, options, comparator), strict=True):
        loaded = record.where if report_loaded and record.dialog is not None else None
        if isinstance(item, InputError):
            out.append(_Outcome(loaded, None, item))
        else:
            text = json_text(record_of(item), indent)
            out.append(_Outcome(loaded, ScoredText(item.dialog_id, item.status, item.test_pass, text)))
    return out


def _score_lines(state: _State, file: str, start: int, lines: list[bytes], indent: int | None) -> list[_Outcome]:
    """Decode, load, score and write JSONL ``lines`` of ``file``, the first of them line ``start``."""
    records = list(loaded_records(jsonl_records(lines, start), file, align=state.options.align_options()))
    return _outcomes(state, records, indent, report_loaded=True)


def _score_loaded(state: _State, records: list[LoadedRecord], indent: int | None) -> list[_Outcome]:
    """Score and write records the parent loaded (a JSON document), their ids checked already."""
    return _outcomes(state, records, indent, report_loaded=False)


Task = Call[list[_Outcome]]


def _tasks(path: Path, options: EvalOptions, indent: int | None, size: int, stdin: IO[Any] | None) -> Iterator[Task]:
    """The work for one input: runs of JSONL lines holding ``size`` records, or for a JSON document, its records
    loaded here, ``size`` dialogs at a time. Raises ``InputError`` when the file cannot be read."""
    file = str(path)
    fmt, lines = split_format(read_lines(path, stdin), file, format_of(path))
    if fmt == "json":
        loaded = checked_ids(
            loaded_records(read_records(lines, file, "json"), file, align=options.align_options()), file
        )
        batch: list[LoadedRecord] = []
        dialogs = 0
        for record in loaded:
            batch.append(record)
            dialogs += record.dialog is not None
            if dialogs >= size:
                yield _score_loaded, (batch, indent)
                batch, dialogs = [], 0
        if batch:
            yield _score_loaded, (batch, indent)
        return
    start, chunk, count = 1, [], 0
    for number, raw in enumerate(lines, start=1):
        chunk.append(raw)
        count += bool(raw.strip())
        if count >= size:
            yield _score_lines, (file, start, chunk, indent)
            start, chunk, count = number + 1, [], 0
    if chunk:
        yield _score_lines, (file, start, chunk, indent)


def scored_texts(
    paths: Sequence[Path], options: EvalOptions, indent: int | None, size: int, stdin: IO[Any] | None = None
) -> Iterator[ScoredText | InputError]:
    """Every record of ``paths``, in input order, scored by ``options.workers`` processes (this one among them) and
    written as JSON text (``indent`` as in ``json.dumps``), or its input error: what one process gives, record for
    record.

    ``size`` records make a batch; at most two batches per worker process are in its hands. An input that cannot
    be read gives its error after the records read before it, as the loader does.
    """
    # Per batch, in order: the ids seen so far in its file; an unreadable file's error in its place.
    order: deque[set[str] | InputError] = deque()

    def calls() -> Iterator[Task]:
        for path in paths:
            seen: set[str] = set()
            tasks = _tasks(path, options, indent, size, stdin)
            while True:
                try:
                    task = next(tasks)
                except StopIteration:
                    break
                except InputError as error:
                    order.append(error)
                    break
                order.append(seen)
                yield task

    for future in _in_order(calls(), options):
        mark = order.popleft()
        while isinstance(mark, InputError):  # a file that could not be read, before this batch's file
            yield mark
            mark = order.popleft()
        yield from _handed_back(future, mark)
    yield from (mark for mark in order if isinstance(mark, InputError))  # only errors are left


def _handed_back(future: Future[list[_Outcome]], seen: set[str]) -> Iterator[ScoredText | InputError]:
    return handed_back(future.result(), seen)


def handed_back(outcomes: Iterable[_Outcome], seen: set[str]) -> Iterator[ScoredText | InputError]:
    """Scored outcomes' records in order; a dialog whose id an earlier one of the file has (``seen``, updated here)
    becomes that error."""
    for outcome in outcomes:
        if outcome.loaded is not None:
            repeated = repeated_id(outcome.loaded, seen)
            if repeated is not None:
                yield repeated
                continue
        item = outcome.scored or outcome.error
        if item is None:  # never built so; a record must not vanish without a word
            raise AemError(f"a worker handed back neither a result nor an error for {outcome.loaded}")
        yield item
