"""Names a package exports but imports only on first use (PEP 562), so importing the package stays cheap."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(package: str, homes: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package`` that imports ``homes[name]`` and returns its ``name``.

    The value is stored in ``namespace`` (the package's ``globals()``), so later lookups do not come back here.
    """

    def attribute(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    return attribute
