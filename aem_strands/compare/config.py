"""Thresholds stored in a JSON file, as written by ``aem-strands calibrate --write-config``.

Format: ``{"thresholds": {"argument": 0.8, "response": 0.75, "argument_floor": 0.6,
"response_floor": null}}``; every key is optional (missing keys keep their defaults).
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import Any

from aem_strands.compare.chain import Thresholds
from aem_strands.decode import json_document
from aem_strands.errors import ConfigError, InputError
from aem_strands.output import write_atomically

_KEYS = tuple(f.name for f in fields(Thresholds))


def thresholds_from_dict(data: Any, base: Thresholds | None = None) -> Thresholds:
    """``base`` (defaults otherwise) updated with the ``thresholds`` object of ``data``."""
    section = data.get("thresholds") if isinstance(data, dict) else None
    if not isinstance(section, dict):
        raise ConfigError('a thresholds config must be an object with a "thresholds" object')
    unknown = sorted(set(section) - set(_KEYS))
    if unknown:
        raise ConfigError(f"unknown threshold keys {unknown}; expected some of {list(_KEYS)}")
    return replace(base or Thresholds(), **section)


def load_thresholds(path: Path) -> Thresholds:
    """Read a thresholds config file (see the module docstring)."""
    try:
        data = json_document(path.read_text(encoding="utf-8"), str(path))  # within the input limits
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None
    except InputError as error:
        raise ConfigError(f"thresholds {error}") from None
    try:
        return thresholds_from_dict(data)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None


def save_thresholds(path: Path, thresholds: Thresholds) -> None:
    """Write ``thresholds`` as a config file."""
    write_atomically(path, json.dumps({"thresholds": asdict(thresholds)}, indent=2) + "\n", "--write-config")
