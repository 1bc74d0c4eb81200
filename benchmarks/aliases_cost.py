"""What ``aem_strands.compare.aliases.same_entity`` costs: the first call (reads the shipped table) and each call
after, on pairs of entity keys as the reply reader gives them, each pair new and each pair seen before.

Usage (from the repository root)::

    .venv/bin/python benchmarks/aliases_cost.py
"""

from __future__ import annotations

import itertools
import sys
import time

from aem_strands.compare import aliases

PAIRS = [
    ("u.s", "united states"), ("uk", "british"), ("syria", "syrian airlines"), ("niger", "nigeria"),
    ("iaea", "international atomic energy agency"), ("pleasant hill", "pleasant hill, ca"),
    ("grand central station", "union station"),
    ("india's", "india"),
]  # fmt: skip


def main() -> int:
    start = time.perf_counter()
    aliases.same_entity("u.s", "united states")
    first = time.perf_counter() - start
    print(f"first call (reads {aliases.ALIASES_FILE}): {first * 1e3:.1f} ms")

    rounds = 2000
    fresh = [(f"{a} {i}", f"{b} {i}") for i in range(rounds) for a, b in PAIRS]  # never seen: no cache hit
    start = time.perf_counter()
    for a, b in fresh:
        aliases.same_entity(a, b)
    per_new = (time.perf_counter() - start) / len(fresh)
    print(f"new pair: {per_new * 1e6:.1f} µs per call ({len(fresh):,} calls)")

    repeated = list(itertools.islice(itertools.cycle(PAIRS), rounds * len(PAIRS)))
    start = time.perf_counter()
    for a, b in repeated:
        aliases.same_entity(a, b)
    per_seen = (time.perf_counter() - start) / len(repeated)
    print(f"pair seen before: {per_seen * 1e6:.2f} µs per call ({len(repeated):,} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
