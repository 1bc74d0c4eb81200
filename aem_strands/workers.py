"""Scoring batches of dialogs in worker processes on one machine (``EvalOptions.workers``).

Each worker process builds its comparator and composer once, from the options, and keeps them for every
batch it scores (an embedding model loads once per worker). Batches are handed out as workers free up and
their results come back in input order, so a run gives exactly what one process gives: judging is a pure
function of the dialog and the options. Scorer instances cannot cross a process boundary, so workers
only serve runs set up by options (the CLI, ``iter_evaluate(..., options)``).

Two ways in: ``scored_in_workers`` takes dialogs and gives back results (the API); ``scored_texts`` (the CLI's
JSON and JSONL output) gives the workers raw input lines and takes back the records' JSON text, so the parent
process only splits the input, checks dialog ids across a file, and writes.
"""

from __future__ import annotations

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

_state: tuple[EvalOptions, Comparator, Composer] | None = None
"""This worker's options, comparator and composer (set once, by ``_start``)."""


def _start(options: EvalOptions) -> None:
    from aem_strands.evaluate import make_comparator

    global _state
    _state = (options, make_comparator(options), options.make_composer())


def _worker_state() -> tuple[EvalOptions, Comparator, Composer]:
    if _state is None:
        raise RuntimeError("a worker task ran before the pool's initializer")
    return _state


def _score(chunk: list[Dialog | JsonValue]) -> list[DialogResult]:
    from aem_strands.evaluate import evaluate_chunk

    options, comparator, composer = _worker_state()
    return evaluate_chunk(chunk, options, comparator, composer)


def _context() -> BaseContext:
    """Where workers come from: forked from a fork server where there is one (a clean interpreter that imports the
    scoring stack once, so workers start without importing it each: a second or more of CPU apiece), else
    spawned. Neither forks the calling process, which may hold model or display threads."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # takes effect when this process first starts its fork server
    return context


def _pool(options: EvalOptions) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(options.workers, mp_context=_context(), initializer=_start, initargs=(options,))


def scored_in_workers(
    batches: Iterable[tuple[K, list[Dialog | JsonValue]]], options: EvalOptions
) -> Iterator[tuple[K, Future[list[DialogResult]]]]:
    """Each ``(key, dialogs)`` batch's key and the future of its results, in input order, scored by
    ``options.workers`` processes. The caller takes ``future.result()`` (which raises what scoring raised).

    At most two batches per worker are in flight, so memory holds a few batches however long the input.
    """
    with _pool(options) as pool:
        pending: deque[tuple[K, Future[list[DialogResult]]]] = deque()
        for key, dialogs in batches:
            pending.append((key, pool.submit(_score, dialogs)))
            if len(pending) >= 2 * options.workers:
                key_done, future = pending.popleft()
                future.exception()  # wait for it before handing it out
                yield key_done, future
        while pending:
            yield pending.popleft()


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


def _outcomes(records: list[LoadedRecord], indent: int | None, report_loaded: bool) -> list[_Outcome]:
    options, comparator, _ = _worker_state()
    return written_outcomes(records, options, comparator, indent, report_loaded)


def written_outcomes(
    records: list[LoadedRecord], options: EvalOptions, comparator: Comparator, indent: int | None, report_loaded: bool
) -> list[_Outcome]:
    """Each record scored (one batch) and written as JSON text, or its error, in order; with ``report_loaded`` each
    outcome of a loaded dialog keeps its location, so the process that writes can check ids across a file."""
    out = []
    for record, item in zip(records, score_chunk(records, options, comparator), strict=True):
        loaded = record.where if report_loaded and record.dialog is not None else None
        if isinstance(item, InputError):
            out.append(_Outcome(loaded, None, item))
        else:
            text = json_text(record_of(item), indent)
            out.append(_Outcome(loaded, ScoredText(item.dialog_id, item.status, item.test_pass, text)))
    return out


def _score_lines(file: str, start: int, lines: list[bytes], indent: int | None) -> list[_Outcome]:
    """Decode, load, score and write JSONL ``lines`` of ``file``, the first of them line ``start``."""
    options = _worker_state()[0]
    records = list(loaded_records(jsonl_records(lines, start), file, align=options.align_options()))
    return _outcomes(records, indent, report_loaded=True)


def _score_loaded(records: list[LoadedRecord], indent: int | None) -> list[_Outcome]:
    """Score and write records the parent loaded (a JSON document), their ids checked already."""
    return _outcomes(records, indent, report_loaded=False)


Task = tuple[Callable[..., list[_Outcome]], tuple[Any, ...]]


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
        for record in loaded:
            batch.append(record)
            if sum(r.dialog is not None for r in batch) >= size:
                yield _score_loaded, (batch, indent)
                batch = []
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
    """Every record of ``paths``, in input order, scored by ``options.workers`` processes and written as JSON
    text (``indent`` as in ``json.dumps``), or its input error: what one process gives, record for record.

    ``size`` records go to a worker at a time, at most two batches per worker in flight. An input that cannot
    be read gives its error after the records read before it, as the loader does.
    """
    with _pool(options) as pool:
        for path in paths:
            seen: set[str] = set()
            pending: deque[Future[list[_Outcome]]] = deque()
            tasks = _tasks(path, options, indent, size, stdin)
            failure: InputError | None = None
            while True:
                try:
                    function, arguments = next(tasks)
                except StopIteration:
                    break
                except InputError as error:
                    failure = error
                    break
                pending.append(pool.submit(function, *arguments))
                if len(pending) >= 2 * options.workers:
                    yield from _handed_back(pending.popleft(), seen)
            while pending:
                yield from _handed_back(pending.popleft(), seen)
            if failure is not None:
                yield failure


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
