"""The persistent cache's own cost: storing and reading back N embedding vectors and N judge scores.

Usage (from the repository root; ``--root`` another checkout to compare, e.g. before issue 21)::

    .venv/bin/python benchmarks/cache_io_benchmark.py [--count 5000] [--root DIR]

Prints, for random 384-dimension float32 vectors and scores in [0, 1]: the time to store all of them in a new
folder, to read them all back in a new ``ModelCache`` (what a warm re-run pays instead of the model), the folder's
size on disk (file bytes and disk blocks), and whether every value came back bit for bit. The faster of two runs
of each step.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def best_of_two(step: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(2):
        start = time.perf_counter()
        result = step()
        times.append(time.perf_counter() - start)
    return min(times), result


def folder_size(folder: Path) -> tuple[int, int]:
    """Bytes in the folder's files, and bytes of disk blocks they take."""
    files = [p.stat() for p in folder.rglob("*") if p.is_file()]
    return sum(s.st_size for s in files), sum(s.st_blocks * 512 for s in files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    import numpy as np

    from aem_strands.cache import ModelCache
    from aem_strands.types import ValueKind

    rng = np.random.default_rng(0)
    texts = [f"string number {i}" for i in range(args.count)]
    vectors = dict(zip(texts, rng.standard_normal((args.count, 384)).astype(np.float32), strict=True))
    pairs = [(t, t + "?") for t in texts]
    scores = dict(zip(pairs, rng.random(args.count).tolist(), strict=True))
    print(f"aem_strands from {Path(sys.modules['aem_strands'].__file__ or '').parent}; {args.count} of each")
    with tempfile.TemporaryDirectory() as scratch:
        folders = iter(Path(scratch) / f"c{i}" for i in range(10))

        def store() -> Path:
            folder = next(folders)
            cache = ModelCache(folder)
            cache.store_vectors("model", vectors)
            cache.store_scores("judge", ValueKind.ARGUMENT, scores)
            cache.close()
            return folder

        stored, folder = best_of_two(store)

        def read() -> tuple[dict[str, Any], dict[tuple[str, str], float]]:
            cache = ModelCache(folder)
            found = cache.vectors("model", texts), cache.scores("judge", ValueKind.ARGUMENT, pairs)
            cache.close()
            return found

        read_time, (found_vectors, found_scores) = best_of_two(read)
        exact = all(np.array_equal(found_vectors[t], vectors[t]) for t in texts) and found_scores == scores
        print(f"store: {stored:.2f} s ({2 * args.count / stored:,.0f} entries/s)")
        print(f"read back: {read_time:.2f} s ({2 * args.count / read_time:,.0f} entries/s)")
        size, blocks = folder_size(folder)
        print(f"on disk: {size / 1e6:.1f} MB in files, {blocks / 1e6:.1f} MB of blocks")
        print(f"every value back bit for bit: {exact}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
