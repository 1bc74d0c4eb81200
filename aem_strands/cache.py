"""A persistent, content-addressed cache of model work, opt-in (``EvalOptions.cache_dir``, ``--cache-dir``,
``AEM_CACHE_DIR`` read by the CLI only).

Two stores in one folder, as immutable pack files (``packs/<time>-<random>.pack``, one per batch stored), so
``--workers`` and Ray actors share it without a lock, each seeing the packs the others finished:

- embeddings: the vector of a string, keyed by the SHA-256 of the model's identity and the text, so re-scoring a
  dataset after a small change embeds only the strings that are new (``EmbeddingScorer(cache=...)``). The
  embedding scorer's identity is a digest of the model folder's files (``model_fingerprint``), not its path, so
  another model at the same path never reads these vectors. Each model also gets a record of its vector
  dimension; a vector of another dimension is not returned.
- judge verdicts: a scorer's score for one pair, keyed by the scorer's identity (for the LLM judge: its
  prompt version, system prompt and model id), the value kind and the pair (``CachedScorer``). A pair the
  scorer could not score is not stored: it is asked again next time.

Everything is plain numbers, never a pickle. A pack is a format tag, a ``uint32`` count, a table of (32-byte key,
``uint32`` record length) rows, then the records; a record is the SHA-256 of its key and payload, then the payload
(little-endian: a ``uint32`` dimension and ``float32`` values; one ``float64`` score). A record that is missing,
cut off, of another size, whose checksum or dimension does not match, or that holds a non-finite number (a
score: outside [0, 1]) is a miss, and so is every record of a pack that is not a regular file or whose head is
not well formed; the value is computed and written again. A pack is written to a temporary file in the same
folder, then ``os.replace``-d into place, so a reader sees a whole pack or none.

The checksum binds an entry to its key: a vector copied from another string or model, or edited in place, is a
miss. It is not a signature: whoever may write the folder and knows this format can forge an entry, so share a
cache folder only with people you would let edit your results.

A cached value is the one the model gave, so results are identical with and without the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import stat
import struct
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from aem_strands.errors import AemError, ConfigError, printable
from aem_strands.types import Method, ValueKind

_TAG = b"aem-cache-pack-1\n"
_COUNT = struct.Struct("<I")
_KEY = 32  # a key is a SHA-256 digest
_LENGTH = struct.Struct("<I")
_ROW = _KEY + _LENGTH.size
_CHECK = 32  # bytes of the SHA-256 checksum that opens each record
_MAX_RECORD = _CHECK + 4 + 4 * 65536  # a vector of up to 65,536 dimensions; anything larger is not ours
_DIMENSION = struct.Struct("<I")
_SCORE = struct.Struct("<d")
# Model files the torch backend of sentence-transformers never reads (other frameworks' weights, exports).
_UNREAD_SUFFIXES = (".h5", ".msgpack", ".ot", ".onnx", ".md")
_UNREAD_FOLDERS = frozenset({"onnx", "openvino"})


class CacheError(AemError):
    """The cache folder could not be written (full disk, lost permission, a folder where an entry goes)."""


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _key(*parts: str) -> bytes:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).digest()


def _checksum(key: bytes, payload: bytes) -> bytes:
    return hashlib.sha256(key + payload).digest()


_fingerprints: dict[tuple[str, tuple[tuple[str, int, int], ...]], str] = {}
_fingerprints_lock = threading.Lock()


def _model_files(folder: Path) -> list[tuple[str, Path]]:
    """The files of a model folder that can change what it computes, by relative path, sorted."""
    found = []
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts) or relative.parts[0] in _UNREAD_FOLDERS:
            continue
        if path.suffix.lower() in _UNREAD_SUFFIXES or not path.is_file():
            continue
        found.append((relative.as_posix(), path))
    return sorted(found)


def model_fingerprint(folder: str | Path) -> str:
    """The SHA-256 over a model folder's files (relative path and bytes of each; dot files, README files and
    other frameworks' weights left out), remembered per process by each file's path, size and modification time,
    so a run hashes the packaged model (~90 MB, ~0.1 s) once."""
    root = Path(folder).resolve()
    files = _model_files(root)
    stats = []
    for name, path in files:
        info = path.stat()
        stats.append((name, info.st_size, info.st_mtime_ns))
    memo_key = (str(root), tuple(stats))
    with _fingerprints_lock:
        known = _fingerprints.get(memo_key)
    if known is not None:
        return known
    total = hashlib.sha256()
    for name, path in files:
        content = hashlib.sha256()
        with path.open("rb") as handle:  # hashlib.file_digest is Python 3.11+
            for block in iter(lambda: handle.read(1 << 20), b""):
                content.update(block)
        total.update(f"{name}\x00{content.hexdigest()}\x00".encode("utf-8", "surrogatepass"))
    fingerprint = total.hexdigest()
    with _fingerprints_lock:
        _fingerprints[memo_key] = fingerprint
    return fingerprint


class ModelCache:
    """The on-disk store in ``directory`` (created when missing); see the module docstring for the format."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ConfigError(f"cache folder {self._where()} cannot be created: {error.strerror or error}") from None
        if not self.directory.is_dir():
            raise ConfigError(f"cache folder {self._where()} is not a folder")
        self._packs = self.directory / "packs"
        # key -> where its records lie (pack file name, offset, length), newest last: a damaged one falls back
        self._index: dict[bytes, list[tuple[str, int, int]]] = {}
        self._seen: set[str] = set()
        self._dimensions: dict[str, int | None] = {}
        self._lock = threading.Lock()

    def _where(self) -> str:
        return printable(str(self.directory))

    def _refresh(self) -> None:
        """Index the packs written since the last look (by any process); a pack that is not well formed adds
        nothing."""
        try:
            names = sorted(n for n in os.listdir(self._packs) if n.endswith(".pack") and n not in self._seen)
        except OSError:
            return
        for name in names:
            self._seen.add(name)
            with _opened(self._packs / name) as (handle, size):
                if handle is not None:
                    for key, place in _pack_index(handle, size, name).items():
                        self._index.setdefault(key, []).append(place)

    def _read(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        """The checked payloads of ``keys`` found (a record that fails its checksum is left out: a miss)."""
        with self._lock:
            self._refresh()
            pending = {key: list(self._index[key]) for key in keys if key in self._index}
        found: dict[bytes, bytes] = {}
        while pending:  # the newest record of each key first; the one before it where that fails
            by_pack: dict[str, list[tuple[bytes, int, int]]] = {}
            for key, places in pending.items():
                name, offset, length = places.pop()
                by_pack.setdefault(name, []).append((key, offset, length))
            for name, records in by_pack.items():
                found.update(_records(self._packs / name, records))
            pending = {key: places for key, places in pending.items() if key not in found and places}
        return found

    def _write(self, records: Mapping[bytes, bytes]) -> None:
        """One new pack holding ``records`` (key -> payload): written to a temporary file, then renamed."""
        if not records:
            return
        table, body = [_COUNT.pack(len(records))], []
        for key, payload in records.items():
            table.append(key + _LENGTH.pack(_CHECK + len(payload)))
            body.append(_checksum(key, payload) + payload)
        temporary = None
        try:
            self._packs.mkdir(exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".part-", dir=self._packs)
            with os.fdopen(handle, "wb") as stream:
                stream.write(b"".join([_TAG, *table, *body]))
            name = f"{time.time_ns():020d}-{uuid.uuid4().hex}.pack"  # by name is oldest first
            os.replace(temporary, self._packs / name)
        except OSError as error:
            if temporary is not None:
                with contextlib.suppress(OSError):  # the failure being reported matters more
                    os.unlink(temporary)
            raise CacheError(f"cache folder {self._where()} cannot be written: {error.strerror or error}") from None

    def _dimension(self, model_id: str) -> int | None:
        with self._lock:
            if self._dimensions.get(model_id) is not None:
                return self._dimensions[model_id]
        key = _key("model", model_id)
        payload = self._read([key]).get(key)
        dimension = _DIMENSION.unpack(payload)[0] if payload is not None and len(payload) == 4 else None
        with self._lock:
            self._dimensions[model_id] = dimension
        return dimension

    def vectors(self, model_id: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The stored vectors among ``texts`` for ``model_id`` (each checked; see the module docstring)."""
        dimension = self._dimension(model_id)
        if dimension is None:  # no vector of this model was stored, or its record is damaged
            return {}
        keys = {_key(model_id, text): text for text in texts}
        found = {}
        for key, payload in self._read(list(keys)).items():
            vector = _vector(payload, dimension)
            if vector is not None:
                found[keys[key]] = vector
        return found

    def store_vectors(self, model_id: str, vectors: Mapping[str, np.ndarray]) -> None:
        """Store ``vectors`` (one dimension for all of them and for every earlier vector of ``model_id``)."""
        arrays = {text: np.ascontiguousarray(vector, dtype="<f4") for text, vector in vectors.items()}
        if not arrays:
            return
        dimensions = {a.size for a in arrays.values()}
        if len(dimensions) != 1 or any(a.ndim != 1 for a in arrays.values()):
            raise ValueError(f"store_vectors: vectors of model {model_id!r} must be 1-D of one size")
        (dimension,) = dimensions
        if self._dimension(model_id) != dimension:  # first vectors of this model, or a damaged record rewritten
            self._write({_key("model", model_id): _DIMENSION.pack(dimension)})
            with self._lock:
                self._dimensions[model_id] = dimension
        self._write({_key(model_id, t): _DIMENSION.pack(dimension) + a.tobytes() for t, a in arrays.items()})

    def scores(self, scorer_id: str, kind: ValueKind, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], float]:
        """The stored scores among ``pairs`` (each checked, and in [0, 1])."""
        keys = {_key(scorer_id, kind.value, *pair): pair for pair in pairs}
        found = {}
        for key, payload in self._read(list(keys)).items():
            if len(payload) == _SCORE.size:
                score = _SCORE.unpack(payload)[0]
                if 0.0 <= score <= 1.0:  # false for NaN too
                    found[keys[key]] = score
        return found

    def store_scores(self, scorer_id: str, kind: ValueKind, scores: Mapping[tuple[str, str], float]) -> None:
        self._write({_key(scorer_id, kind.value, *pair): _SCORE.pack(float(score)) for pair, score in scores.items()})

    def close(self) -> None:
        """Nothing stays open between calls; kept for callers of the earlier store."""


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[tuple[int | None, int]]:
    """A read handle on ``path`` and its size, or ``(None, 0)`` when it is missing or not a regular file (opened
    without following a link or waiting on a FIFO)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags)
    except OSError:
        yield None, 0
        return
    try:
        info = os.fstat(handle)
        yield (handle, info.st_size) if stat.S_ISREG(info.st_mode) else (None, 0)
    finally:
        os.close(handle)


def _records(path: Path, records: list[tuple[bytes, int, int]]) -> dict[bytes, bytes]:
    """The payloads of the records of one pack (key, offset, length) whose checksum holds."""
    found = {}
    with _opened(path) as (handle, size):
        if handle is None:
            return {}
        for key, offset, length in records:
            try:
                record = os.pread(handle, length, offset) if offset + length <= size else b""
            except OSError:
                continue
            payload = record[_CHECK:]
            if len(record) == length and record[:_CHECK] == _checksum(key, payload):
                found[key] = payload
    return found


def _pack_index(handle: int, size: int, name: str) -> dict[bytes, tuple[str, int, int]]:
    """Where each record of a pack lies; ``{}`` for a pack whose head is not well formed."""
    try:
        head = os.pread(handle, len(_TAG) + _COUNT.size, 0)
        if len(head) != len(_TAG) + _COUNT.size or not head.startswith(_TAG):
            return {}
        (count,) = _COUNT.unpack_from(head, len(_TAG))
        offset = len(head) + count * _ROW
        if offset > size:
            return {}
        table = os.pread(handle, count * _ROW, len(head))
    except OSError:
        return {}
    places = {}
    for row in range(count):
        key = table[row * _ROW : row * _ROW + _KEY]
        (length,) = _LENGTH.unpack_from(table, row * _ROW + _KEY)
        if length > _MAX_RECORD or offset + length > size:
            break  # a cut or damaged pack: the records before this one stand
        places[key] = (name, offset, length)
        offset += length
    return places


def _vector(payload: bytes, dimension: int) -> np.ndarray | None:
    if len(payload) != 4 + 4 * dimension or _DIMENSION.unpack_from(payload)[0] != dimension:
        return None
    vector = np.frombuffer(payload, dtype="<f4", offset=4).astype(np.float32)
    return vector if bool(np.isfinite(vector).all()) else None


def scorer_identity(scorer: Any) -> str:
    """What makes a scorer's verdicts reusable: its name and, when it offers one, its ``provenance()`` (the
    judge's prompt version and model id) and system prompt."""
    parts: dict[str, Any] = {"name": scorer.name}
    provenance = getattr(scorer, "provenance", None)
    if callable(provenance):
        parts["provenance"] = provenance()
    prompt = getattr(scorer, "system_prompt", None)
    if isinstance(prompt, str):
        parts["system_prompt"] = _digest(prompt)
    return json.dumps(parts, sort_keys=True, default=str)


class CachedScorer:
    """A scorer whose scores are looked up in a ``ModelCache`` first; only the pairs not found reach it.

    Everything else (``failure_reason``, ``describe``, ...) is the wrapped scorer's.
    """

    def __init__(self, scorer: Any, cache: ModelCache) -> None:
        self.scorer = scorer
        self.cache = cache
        self._identity = scorer_identity(scorer)

    @property
    def name(self) -> str:
        return str(self.scorer.name)

    @property
    def method(self) -> Method:
        method: Method = self.scorer.method
        return method

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        known: dict[tuple[str, str], float | None] = dict(self.cache.scores(self._identity, kind, pairs))
        asked = list(dict.fromkeys(p for p in pairs if p not in known))
        if asked:
            answered = dict(zip(asked, self.scorer.similarities(asked, kind), strict=True))
            finite = {p: s for p, s in answered.items() if s is not None and math.isfinite(s)}
            self.cache.store_scores(self._identity, kind, finite)
            known.update(answered)
        return [known[p] for p in pairs]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.scorer, name)
