"""The one exception family of the package.

Every error names what was wrong and where: the file, the dialog id, the turn number and the field,
as far as they are known at the point of failure.
"""

from __future__ import annotations

from dataclasses import dataclass


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on or cannot show escaped (``\\r``, ``\\x1b``, ``\\u202e``,
    a lone surrogate), so a value read from input can neither rewrite a line nor break an encoder."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


class AemError(Exception):
    """Base class of every error raised on purpose by ``aem_strands``."""


@dataclass(frozen=True)
class Location:
    """Where in the input a problem was found; unknown parts stay ``None``."""

    file: str | None = None
    dialog_id: str | None = None
    turn_no: int | None = None
    field: str | None = None
    line: int | None = None
    index: int | None = None
    trace_id: str | None = None
    step_id: str | None = None
    """A trace and its step (trajectory evaluation, ``aem_strands.trace``), in place of a dialog and turn."""

    def describe(self) -> str:
        parts = []
        if self.file is not None:
            parts.append(f"file {self.file}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.index is not None:
            parts.append(f"element [{self.index}]")
        if self.dialog_id is not None:
            parts.append(f"dialog {self.dialog_id!r}")
        if self.turn_no is not None:
            parts.append(f"turn {self.turn_no}")
        if self.trace_id is not None:
            parts.append(f"trace {self.trace_id!r}")
        if self.step_id is not None:
            parts.append(f"step {self.step_id!r}")
        if self.field is not None:
            parts.append(f"field {self.field!r}")
        return printable(", ".join(parts)) if parts else "input"


class InputError(AemError):
    """Input that does not follow the dialog format (malformed JSON, wrong types, missing fields...)."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        self.message = message
        self.location = location or Location()
        super().__init__(f"{self.location.describe()}: {message}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, Location]]:
        # Pickled by message and location (worker processes and Ray actors hand errors back), not by its text.
        return type(self), (self.message, self.location)

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.location.file,
            "line": self.location.line,
            "index": self.location.index,
            "dialog_id": self.location.dialog_id,
            "turn_no": self.location.turn_no,
            "field": self.location.field,
            **({"trace_id": self.location.trace_id} if self.location.trace_id is not None else {}),
            **({"step_id": self.location.step_id} if self.location.step_id is not None else {}),
            "message": self.message,
        }


class ConfigError(AemError, ValueError):
    """An invalid parameter given to a scorer, composer, evaluator or command.

    Also a ``ValueError``, so hosts that map ``ValueError`` to "bad input" (the ``strands-evals`` CLI: exit 2)
    report a bad option as such.
    """
