"""A tool's observation as the checks read it: a text result that is one JSON object or array (alone, or as the one
text content block ``[{"type": "text", "text": ...}]``, as MCP tools and Strands return them) is that JSON value,
within the input limits of ``aem_strands.decode``; any other observation stays as written. ``Step`` applies it, so
a trace file, a Strands session and a dialog converted to a trace read a tool's result alike."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aem_strands.decode import find_flaw


def structured(observation: Any) -> Any:
    """The JSON value a tool's text result holds (see the module docstring), else ``observation`` as written."""
    text = observation
    if isinstance(observation, list) and len(observation) == 1 and isinstance(observation[0], Mapping):
        block = observation[0]
        if set(block) <= {"type", "text"} and block.get("type", "text") == "text":
            text = block.get("text")
    if not isinstance(text, str) or text.lstrip()[:1] not in ("{", "["):
        return observation
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or past Python's limits (digits, nesting)
        return observation
    if not isinstance(value, (dict, list)) or find_flaw(value) is not None:
        return observation
    return value
