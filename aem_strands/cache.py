"""A persistent, content-addressed cache of model work, opt-in (``EvalOptions.cache_dir``, ``--cache-dir``,
``AEM_CACHE_DIR`` read by the CLI only).

Two stores in one folder, one small file per entry (``embeddings/ab/<sha256>``, ``scores/ab/<sha256>``), so
``--workers`` and Ray actors share it without a lock:

- embeddings: the vector of a string, keyed by the SHA-256 of the model's identity and the text, so re-scoring a
  dataset after a small change embeds only the strings that are new (``EmbeddingScorer(cache=...)``). The
  embedding scorer's identity is a digest of the model folder's files (``model_fingerprint``), not its path, so
  another model at the same path never reads these vectors. Each model also gets a record of its vector
  dimension (``models/<sha256>``); a vector of another dimension is not returned.
- judge verdicts: a scorer's score for one pair, keyed by the scorer's identity (for the LLM judge: its
  prompt version, system prompt and model id), the value kind and the pair (``CachedScorer``). A pair the
  scorer could not score is not stored: it is asked again next time.

An entry is plain numbers, never a pickle: a format tag, the SHA-256 of the entry's key and payload, then the
payload (little-endian: a ``uint32`` dimension and ``float32`` values; one ``float64`` score). An entry that is
missing, truncated, of another size, not a regular file, whose checksum or dimension does not match, or that
holds a non-finite number is a miss, and the value is computed and written again. Writes go to a temporary file
in the same folder, then ``os.replace``, so a reader sees a whole entry or none.

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
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from aem_strands.errors import AemError, ConfigError, printable
from aem_strands.types import Method, ValueKind

_TAG = b"aem-cache-1\n"
_CHECK = 32  # bytes of the SHA-256 checksum after the tag
_HEAD = len(_TAG) + _CHECK
_MAX_ENTRY = _HEAD + 4 + 4 * 65536  # a vector of up to 65,536 dimensions; anything larger is not ours
_DIMENSION = struct.Struct("<I")
_SCORE = struct.Struct("<d")
# Model files the torch backend of sentence-transformers never reads (other frameworks' weights, exports).
_UNREAD_SUFFIXES = (".h5", ".msgpack", ".ot", ".onnx", ".md")
_UNREAD_FOLDERS = frozenset({"onnx", "openvino"})


class CacheError(AemError):
    """The cache folder could not be written (full disk, lost permission, a folder where an entry goes)."""


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _checksum(key: str, payload: bytes) -> bytes:
    return hashlib.sha256(key.encode("ascii") + payload).digest()


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
        self._dimensions: dict[str, int | None] = {}
        self._folders: set[Path] = set()
        self._lock = threading.Lock()

    def _where(self) -> str:
        return printable(str(self.directory))

    def _path(self, store: str, key: str) -> Path:
        return self.directory / store / key[:2] / key[2:]

    def _read(self, store: str, key: str) -> bytes | None:
        """The checked payload of an entry, or ``None`` for a miss of any kind."""
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # no FIFO can stall us
        try:
            handle = os.open(self._path(store, key), flags)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                return None
            with os.fdopen(handle, "rb", closefd=False) as stream:
                data = stream.read(_MAX_ENTRY + 1)
        except OSError:
            return None
        finally:
            os.close(handle)
        if len(data) > _MAX_ENTRY or not data.startswith(_TAG):
            return None
        payload = data[_HEAD:]
        return payload if data[len(_TAG) : _HEAD] == _checksum(key, payload) else None

    def _write(self, store: str, key: str, payload: bytes) -> None:
        path = self._path(store, key)
        temporary = None
        try:
            if path.parent not in self._folders:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._folders.add(path.parent)
            handle, temporary = tempfile.mkstemp(prefix=".part-", dir=path.parent)
            with os.fdopen(handle, "wb") as stream:
                stream.write(_TAG + _checksum(key, payload) + payload)
            os.replace(temporary, path)
        except OSError as error:
            if temporary is not None:
                with contextlib.suppress(OSError):  # the failure being reported matters more
                    os.unlink(temporary)
            raise CacheError(
                f"cache folder {self._where()}: entry {store}/{key[:2]}/{key[2:]} cannot be written: "
                f"{error.strerror or error}"
            ) from None

    def _dimension(self, model_id: str) -> int | None:
        with self._lock:
            if model_id in self._dimensions:
                return self._dimensions[model_id]
        payload = self._read("models", _digest("model", model_id))
        dimension = _DIMENSION.unpack(payload)[0] if payload is not None and len(payload) == 4 else None
        with self._lock:
            self._dimensions[model_id] = dimension
        return dimension

    def vectors(self, model_id: str, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The stored vectors among ``texts`` for ``model_id`` (each checked; see the module docstring)."""
        dimension = self._dimension(model_id)
        if dimension is None:  # no vector of this model was stored, or its record is damaged
            return {}
        found = {}
        for text in texts:
            vector = _vector(self._read("embeddings", _digest(model_id, text)), dimension)
            if vector is not None:
                found[text] = vector
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
            self._write("models", _digest("model", model_id), _DIMENSION.pack(dimension))
            with self._lock:
                self._dimensions[model_id] = dimension
        for text, array in arrays.items():
            self._write("embeddings", _digest(model_id, text), _DIMENSION.pack(dimension) + array.tobytes())

    def scores(self, scorer_id: str, kind: ValueKind, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], float]:
        """The stored scores among ``pairs`` (each checked, and in [0, 1])."""
        found = {}
        for pair in pairs:
            payload = self._read("scores", _digest(scorer_id, kind.value, *pair))
            if payload is not None and len(payload) == _SCORE.size:
                score = _SCORE.unpack(payload)[0]
                if 0.0 <= score <= 1.0:  # false for NaN too
                    found[pair] = score
        return found

    def store_scores(self, scorer_id: str, kind: ValueKind, scores: Mapping[tuple[str, str], float]) -> None:
        for pair, score in scores.items():
            self._write("scores", _digest(scorer_id, kind.value, *pair), _SCORE.pack(float(score)))

    def close(self) -> None:
        """Nothing stays open between calls; kept for callers of the earlier store."""


def _vector(payload: bytes | None, dimension: int) -> np.ndarray | None:
    if payload is None or len(payload) != 4 + 4 * dimension or _DIMENSION.unpack_from(payload)[0] != dimension:
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
