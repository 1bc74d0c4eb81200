"""Scoring a dataset on a Ray cluster with Ray Data (the optional extra ``ray``: ``pip install -e '.[ray]'`` from the
repository; ``--engine ray``).

Dialogs go through ``map_batches`` to a pool of Ray actors; each actor builds its comparator (and so loads
its embedding model) once, in its constructor, and keeps it for every batch it scores. A batch is scored as
the CLI scores one locally: all its semantic comparisons go to the scorer together, and when that fails the
batch is scored dialog by dialog, so only the dialog that fails gets an error record. Judging is a pure
function of the dialog and the options, so a Ray run gives exactly what a local run gives.

- ``evaluate_dataset(dataset, options)``: a ``ray.data.Dataset`` whose ``dialog`` column holds one dialog per
  row as JSON text (any form ``evaluate_dialogs`` takes) gives a dataset of result rows: the input's other
  columns, plus ``dialog_id``, ``status`` (``pass``, ``fail``, ``inconclusive`` or ``error``) and ``record``
  (the JSON text of the line ``aem-strands score --format jsonl`` writes). ``dialogs_dataset`` builds the input
  with a ``position`` column, ``results_in_order`` reads the records back in that order.
- ``scored_texts_on_ray(paths, options, indent)``: the CLI's path for JSON and JSONL output. A JSONL file is
  read by Ray Data itself (``JsonlLines``: raw lines with their numbers, streamed in blocks), so the driver
  holds only the few records that arrive ahead of their turn; each actor decodes, loads, scores and writes its
  rows' records, and the driver checks dialog ids across the file and writes. Other inputs (a JSON document,
  stdin) are loaded on the driver and go through ``scored_on_ray``.
- ``scored_on_ray(records, options)``: the records are loaded (and bad ones reported) on the driver exactly as
  locally, and the results come back in input order as they are ready (the CLI's other output formats).

Ray is imported only here, and only when used; without it a ``ConfigError`` names the extra to install.
Where Ray runs (``RAY_ADDRESS``, a local instance otherwise) is Ray's own choice when it is initialised;
docs/DISTRIBUTED.md has the cluster recipe.
"""

from __future__ import annotations

import functools
import inspect
import json
import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from aem_strands.align import AlignOptions
from aem_strands.decode import format_of, jsonl_records, split_format
from aem_strands.errors import AemError, ConfigError, InputError, Location
from aem_strands.load import LoadedRecord, loaded_record, loaded_records, read_lines, records_or_error
from aem_strands.options import Engine, EvalOptions
from aem_strands.result import DialogResult, json_text, record_of
from aem_strands.types import JsonValue
from aem_strands.workers import ScoredText, handed_back, score_chunk, written_outcomes

if TYPE_CHECKING:
    import ray.data

    from aem_strands.compare.chain import Comparator

DIALOG_COLUMN = "dialog"
"""The input column: one dialog per row, as JSON text."""
POSITION_COLUMN = "position"
"""The column ``dialogs_dataset`` adds (a row's place in the input) and ``results_in_order`` sorts by."""
RESULT_COLUMNS = ("dialog_id", "status", "record")
"""The columns ``evaluate_dataset`` adds to each row."""
BATCH_SIZE = 64
"""Dialogs per ``map_batches`` batch when ``options.batch_size`` is not set (the CLI's largest local batch)."""
LINE_COLUMNS = ("line", "raw")
"""The columns of ``JsonlLines`` rows: a line's 1-based number in its file and its bytes (without the newline)."""
_READ_SIZE = 1 << 20


def require_ray() -> ModuleType:
    """The ``ray`` module (with Ray Data), or a ``ConfigError`` naming the extra that provides it."""
    try:
        import ray
        import ray.data
    except ImportError as error:
        raise ConfigError(
            "engine 'ray' needs the optional extra ray: pip install -e '.[ray]' from the aem-strands repository "
            f"(import failed: {error})"
        ) from None
    return ray


def _connect(ray: ModuleType) -> None:
    """Join the cluster Ray finds (``RAY_ADDRESS``, else a new local instance) unless already joined, with Ray's
    own logging at errors only and Ray Data's progress output off (stderr is the command's)."""
    import logging

    if not ray.is_initialized():
        ray.init(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    for name in ("ray", "ray.data"):  # Ray Data sets its own level
        logging.getLogger(name).setLevel(logging.ERROR)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    context.enable_auto_log_stats = False


def _pool(ray: ModuleType, workers: int) -> Any:
    """``workers`` actors when more than one is asked for; else from one up to the cluster's CPUs."""
    if workers > 1:
        return ray.data.ActorPoolStrategy(size=workers)
    return ray.data.ActorPoolStrategy(min_size=1, max_size=max(1, int(ray.cluster_resources().get("CPU", 1))))


class _Scorer:
    """State of one Ray actor: the options and the comparator, built once (an embedding model loads once)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        from aem_strands.evaluate import make_comparator

        # Inside an actor the run is one local process; the pool is the parallelism.
        self._options = replace(EvalOptions.from_dict(options), workers=1, engine=Engine.LOCAL)
        self._comparator: Comparator = make_comparator(self._options)

    def _score(self, records: list[LoadedRecord]) -> list[DialogResult | InputError]:
        # The CLI's batch step, so a dialog that cannot be scored gets the same error record as locally.
        return list(score_chunk(records, self._options, self._comparator))


class _ScoreRows(_Scorer):
    """``map_batches`` over rows holding dialogs as JSON text (``evaluate_dataset``)."""

    def __init__(self, options: Mapping[str, Any], column: str) -> None:
        super().__init__(options)
        self._column = column

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        if self._column not in batch:
            raise ConfigError(f"the dataset has no column {self._column!r} (columns: {', '.join(batch)})")
        texts = list(batch[self._column])
        positions = list(batch[POSITION_COLUMN]) if POSITION_COLUMN in batch else [None] * len(texts)
        align = self._options.align_options()
        items = iter(self._score([_loaded_row(t, p, align) for t, p in zip(texts, positions, strict=True)]))
        records = [record_of(next(items)) for _ in texts]
        out = {name: values for name, values in batch.items() if name != self._column}
        out["dialog_id"] = [r["dialog_id"] for r in records]
        out["status"] = [_status(r) for r in records]
        out["record"] = [json_text(r) for r in records]
        return out


class _ScoreLoaded(_Scorer):
    """``map_batches`` over records the driver loaded, pickled (``scored_on_ray``)."""

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        records = [pickle.loads(payload) for payload in batch["payload"]]
        return {POSITION_COLUMN: batch[POSITION_COLUMN], "item": [pickle.dumps(i) for i in self._score(records)]}


class _ScoreLines(_Scorer):
    """``map_batches`` over ``JsonlLines`` rows of one file (``scored_texts_on_ray``): each line's records
    decoded, loaded, scored (the batch as one) and written, handed back pickled, one row per line."""

    def __init__(self, options: Mapping[str, Any], file: str, indent: int | None) -> None:
        super().__init__(options)
        self._file, self._indent = file, indent

    def __call__(self, batch: Any) -> Any:  # pyarrow tables (pyarrow ships no type information)
        import pyarrow  # type: ignore[import-untyped]

        align = self._options.align_options()
        lines = zip(batch.column("line").to_pylist(), batch.column("raw").to_pylist(), strict=True)
        per_line = [list(loaded_records(jsonl_records([raw], at), self._file, align=align)) for at, raw in lines]
        records = [record for loaded in per_line for record in loaded]
        outcomes = iter(written_outcomes(records, self._options, self._comparator, self._indent, report_loaded=True))
        handed = [pickle.dumps([next(outcomes) for _ in loaded]) for loaded in per_line]
        return pyarrow.table({"line": batch.column("line"), "outcomes": pyarrow.array(handed, pyarrow.binary())})


def numbered_lines(read: Callable[[int], bytes], rows: int) -> Iterator[tuple[list[int], list[bytes]]]:
    """The non-blank lines of a binary stream (``read(n)`` gives up to ``n`` bytes, ``b""`` at its end) and their
    1-based numbers, ``rows`` lines at a time: split on ``\n`` only, without it, a UTF-8 byte-order mark dropped
    (as the local loader reads a JSONL file)."""
    numbers: list[int] = []
    lines: list[bytes] = []
    head: list[bytes] = []  # the start of a line that has not ended yet
    number = 0

    def take(raw: bytes) -> bool:
        nonlocal number
        number += 1
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if raw.strip():
            numbers.append(number)
            lines.append(raw)
        return len(lines) >= rows

    while chunk := read(_READ_SIZE):
        parts = chunk.split(b"\n")
        if len(parts) == 1:
            head.append(chunk)
            continue
        parts[0] = b"".join([*head, parts[0]])
        head = [parts.pop()]
        for raw in parts:
            if take(raw):
                yield numbers, lines
                numbers, lines = [], []
    if any(head):
        take(b"".join(head))
    if lines:
        yield numbers, lines


@functools.lru_cache(maxsize=1)
def _jsonl_lines() -> type:
    """``JsonlLines``, a Ray Data source (defined on first use: Ray is imported only when used)."""
    import pyarrow
    from ray.data.datasource import FileBasedDatasource

    class JsonlLines(FileBasedDatasource):
        """JSONL files as rows of ``LINE_COLUMNS``, read as they stream, ``rows`` lines to a block."""

        def __init__(self, paths: str | list[str], *, rows: int = BATCH_SIZE, **kwargs: Any) -> None:
            super().__init__(paths, **kwargs)
            self._rows = rows

        def _read_stream(self, f: Any, path: str) -> Iterator[Any]:  # a pyarrow stream in, pyarrow tables out
            for numbers, lines in numbered_lines(f.read, self._rows):
                yield pyarrow.table(
                    {"line": pyarrow.array(numbers, pyarrow.int64()), "raw": pyarrow.array(lines, pyarrow.binary())}
                )

    return JsonlLines


def _loaded_row(text: object, position: int | None, align: AlignOptions) -> LoadedRecord:
    """One row's dialog, or the error that keeps it from loading (as ``aem_strands.load`` reports a record)."""
    from aem_strands.decode import read_records

    where = Location(index=None if position is None else int(position))
    if not isinstance(text, str) or not text.strip():
        got = "empty text" if isinstance(text, str) else type(text).__name__
        return LoadedRecord(where, error=InputError(f"a row must hold one dialog as JSON text, got {got}", where))
    # Outside strings a newline in JSON is only whitespace, so the text reads as one JSONL line.
    line = text.replace("\n", " ").encode("utf-8", "surrogatepass")
    record = next(read_records([line], "dataset", "jsonl"))
    if record.error is not None:
        return LoadedRecord(where, error=InputError(record.error, where))
    return loaded_record(record.value, where, default_id="dialog", align=align)


def _status(record: Mapping[str, Any]) -> str:
    return "error" if "error" in record else str(record["status"])


def _batch_size(options: EvalOptions) -> int:
    return options.batch_size or BATCH_SIZE


def evaluate_dataset(
    dataset: ray.data.Dataset, options: EvalOptions | None = None, *, column: str = DIALOG_COLUMN
) -> ray.data.Dataset:
    """Score every dialog of ``dataset`` on Ray actors; a lazy dataset of one result row per input row.

    ``column`` holds one dialog per row as JSON text (any form ``evaluate_dialogs`` takes; a dialog without
    an id is ``dialog``, as there). The result rows keep the input's other columns and add ``dialog_id``,
    ``status`` and ``record`` (the JSON text of the line ``aem-strands score --format jsonl`` writes: the
    result's ``to_dict()``, or ``{"dialog_id", "error"}`` for a row that could not be loaded or scored, its
    location's ``index`` being the row's ``position`` when there is one). Rows come in no set order: keep a
    ``position`` column (``dialogs_dataset`` adds one) and read them with ``results_in_order``.

    ``options.batch_size`` is the rows per batch (default ``BATCH_SIZE``); ``options.workers`` > 1 fixes the
    number of actors, else the pool grows from one to the cluster's CPUs. Each actor takes one CPU.
    """
    module = require_ray()
    options = options or EvalOptions()
    known = dataset.columns(fetch_if_missing=False)  # a lazy dataset's columns may only be known by running it
    if known is not None and column not in known:
        raise ConfigError(f"the dataset has no column {column!r} (columns: {', '.join(known)})")
    if not module.is_initialized():
        _connect(module)
    result: ray.data.Dataset = dataset.map_batches(
        _ScoreRows,
        fn_constructor_args=(options.to_dict(), column),
        batch_size=_batch_size(options),
        batch_format="numpy",
        compute=_pool(module, options.workers),
        num_cpus=1,
    )
    return result


def dialogs_dataset(dialogs: Iterable[JsonValue | str]) -> ray.data.Dataset:
    """A dataset for ``evaluate_dataset``: one row per dialog (its JSON form, or JSON text), with ``position``
    (0, 1, ...) beside ``dialog``. The dialogs are held by the driver until Ray stores them."""
    module = require_ray()
    rows = [
        {POSITION_COLUMN: i, DIALOG_COLUMN: d if isinstance(d, str) else json.dumps(d)} for i, d in enumerate(dialogs)
    ]
    dataset: ray.data.Dataset = module.data.from_items(rows)
    return dataset


def results_in_order(results: ray.data.Dataset) -> Iterator[dict[str, Any]]:
    """The records of ``evaluate_dataset`` rows (decoded JSON), in the order of their ``position`` column.

    Positions are distinct whole numbers >= 0. A record is handed out as soon as every position before it has
    been, so with the positions of ``dialogs_dataset`` (0, 1, ...) only the rows that arrive early are held;
    rows after a gap in the positions wait until the end.
    """
    early: dict[int, str] = {}
    expected = 0
    row: dict[str, Any]
    for row in results.iter_rows():
        if POSITION_COLUMN not in row or "record" not in row:
            raise ConfigError(
                f"results_in_order reads rows of evaluate_dataset with a {POSITION_COLUMN!r} column, got columns "
                f"{', '.join(row)}; build the input with dialogs_dataset"
            )
        position = row[POSITION_COLUMN]
        if isinstance(position, (bool, np.bool_)) or not isinstance(position, (int, np.integer)) or position < 0:
            raise ConfigError(f"{POSITION_COLUMN} must be a whole number >= 0, got {position!r}")
        early[int(position)] = row["record"]
        while expected in early:
            yield json.loads(early.pop(expected))
            expected += 1
    for position in sorted(early):
        yield json.loads(early[position])


def scored_on_ray(records: Iterable[LoadedRecord], options: EvalOptions) -> Iterator[DialogResult | InputError]:
    """Each record's result or error, in input order, scored on Ray actors (the CLI's ``--engine ray``).

    Records that did not load are reported here, in their place, as locally; the loaded ones are pickled
    into Ray's object store (the driver keeps only their place) and each result is handed out as soon as
    every record before it has been.
    """
    ray = require_ray()
    _connect(ray)
    places: list[InputError | None] = []
    rows = []
    for record in records:
        places.append(record.error)
        if record.error is None and record.dialog is not None:
            rows.append({POSITION_COLUMN: len(places) - 1, "payload": pickle.dumps(record)})
    done: dict[int, bytes] = {}
    arriving: Iterator[dict[str, Any]] = iter(())
    if rows:
        dataset = ray.data.from_items(rows)  # eager: the rows are in the object store now
        rows.clear()
        # Results in input order, so only the few that finish early wait here.
        dataset.context.execution_options.preserve_order = True
        scored = dataset.map_batches(
            _ScoreLoaded,
            fn_constructor_args=(options.to_dict(),),
            batch_size=_batch_size(options),
            batch_format="numpy",
            compute=_pool(ray, options.workers),
            num_cpus=1,
        )
        arriving = _rows(scored)
    for position, error in enumerate(places):
        if error is not None:
            yield error
            continue
        while position not in done:
            row = next(arriving)
            done[int(row[POSITION_COLUMN])] = row["item"]
        yield pickle.loads(done.pop(position))


def scored_texts_on_ray(
    paths: Sequence[Path], options: EvalOptions, indent: int | None, stdin: IO[Any] | None = None
) -> Iterator[ScoredText | InputError]:
    """Every record of ``paths``, in input order, scored on Ray actors and written as JSON text (``indent`` as in
    ``json.dumps``), or its input error: what ``aem_strands.workers.scored_texts`` and one local process give,
    record for record (the CLI's ``--engine ray`` with JSON or JSONL output).

    A JSONL file (by its name) streams: Ray Data reads its lines (``JsonlLines``; on a cluster the path must be
    readable where the read runs: a shared file system, or a single machine), the actors decode, load, score and
    write them, and the driver checks dialog ids across the file. Any other input is loaded here and scored
    through ``scored_on_ray``.
    """
    ray = require_ray()
    _connect(ray)
    for path in paths:
        if str(path) != "-" and format_of(path) == "jsonl":
            yield from _jsonl_on_ray(ray, path, options, indent)
            continue
        for item in scored_on_ray(records_or_error(path, align=options.align_options(), stdin=stdin), options):
            if isinstance(item, InputError):
                yield item
            else:
                yield ScoredText(item.dialog_id, item.status, item.test_pass, json_text(record_of(item), indent))


def _jsonl_on_ray(
    ray: ModuleType, path: Path, options: EvalOptions, indent: int | None
) -> Iterator[ScoredText | InputError]:
    file = str(path)
    try:  # what spoils the whole file (cannot be read, empty) is told as locally, before Ray reads it
        split_format(read_lines(path), file, "jsonl")
    except InputError as error:
        yield error
        return
    size = _batch_size(options)
    source = _jsonl_lines()([str(Path(path).resolve())], rows=size)
    # The read asks for no CPU of its own: with one actor per CPU (``--workers`` = the cluster's CPUs) a read
    # that waits for a free CPU would wait for ever; it only splits lines, the actors do the work.
    read = ray.data.read_datasource
    if "num_cpus" in inspect.signature(read).parameters:  # newer Ray names it; older Ray takes remote args
        dataset = read(source, num_cpus=0)
    else:
        dataset = read(source, ray_remote_args={"num_cpus": 0})
    dataset.context.execution_options.preserve_order = True  # one file, one read: rows stay in line order
    scored = dataset.map_batches(
        _ScoreLines,
        fn_constructor_args=(options.to_dict(), file, indent),
        batch_size=size,
        batch_format="pyarrow",
        compute=_pool(ray, options.workers),
        num_cpus=1,
    )
    seen: set[str] = set()
    for row in _rows(scored):
        yield from handed_back(pickle.loads(row["outcomes"]), seen)


def _rows(dataset: ray.data.Dataset) -> Iterator[dict[str, Any]]:
    """``dataset``'s rows; a failure inside an actor that is one of ours is raised as itself."""
    try:
        yield from dataset.iter_rows()
    except Exception as failure:
        ours = _aem_cause(failure)
        if ours is None:
            raise
        raise ours from None


def _aem_cause(failure: BaseException) -> AemError | None:
    """The ``AemError`` behind ``failure``: Ray hands an actor's exception back wrapped, the original as ``cause``
    (the wrapper may also subclass the original's class, with Ray's traceback as its text)."""
    seen: set[int] = set()
    current: BaseException | None = failure
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        cause = getattr(current, "cause", None)
        if isinstance(cause, BaseException):
            current = cause
            continue
        if isinstance(current, AemError):
            return current
        current = current.__cause__
    return None
