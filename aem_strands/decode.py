"""Reading JSON and JSONL input safely: one record at a time, with its line, within documented limits.

Limits (a breach is an ``InputError`` for the one record that holds it, never a crash of the run):

- nesting: at most ``MAX_DEPTH`` (100) levels of arrays and objects in a record;
- numbers: a literal of at most ``MAX_NUMBER_CHARS`` (100) characters. Integers are kept exact (Python ``int``);
  a literal with a fraction or exponent must fit a float *exactly as written*: one that is a whole number
  (``1234567890123456789.0``) is read as that integer, any other with more digits than a float keeps
  (``0.12345678901234567891``), or beyond its range, is rejected, since comparing it would compare a rounded
  number; ``NaN`` and ``Infinity`` (which JSON does not allow) are rejected;
- strings and object keys: at most ``MAX_STRING_CHARS`` (1,000,000) characters of valid Unicode (a lone
  surrogate such as ``"\\ud800"`` is not).

Format: ``.jsonl`` and ``.ndjson`` (any case) are JSONL, ``.json`` is JSON; anything else (stdin, ``.txt``) is
chosen by content: JSONL when the first non-blank line is a complete JSON value by itself, else JSON. JSONL is
split on ``\\n`` only, so U+2028, U+2029 and U+0085 inside strings stay inside their record. A JSON document that
is an array is read element by element, so a broken element is reported with its line and the others are kept.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from aem_strands.errors import InputError, Location, printable

MAX_DEPTH = 100
MAX_NUMBER_CHARS = 100
MAX_STRING_CHARS = 1_000_000

Format = Literal["json", "jsonl"]
JSONL_SUFFIXES = (".jsonl", ".ndjson")

_SURROGATE = re.compile("[\ud800-\udfff]")
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
TOO_DEEP = f"nesting deeper than {MAX_DEPTH} levels (the limit)"
_TOO_DEEP = TOO_DEEP


class BadValue:
    """A part of a record beyond the limits (a number literal; in YAML also nesting, an alias cycle or an alias
    expansion), kept where it stands so the record's check (``find_flaw``) can name its field with ``why``."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


_BadNumber = BadValue  # its former name


def long_literal(literal: str) -> str | None:
    """Why a number literal is too long to read (``None``: it is not)."""
    if len(literal) > MAX_NUMBER_CHARS:
        return f"number literal of {len(literal):,} characters (the limit is {MAX_NUMBER_CHARS})"
    return None


def _int(literal: str) -> int | BadValue:
    too_long = long_literal(literal)
    return BadValue(too_long) if too_long else int(literal)


_EXACT_DIGITS = 15
"""A literal of at most this many characters and no exponent (so at most 15 digits, in a float's normal range) is
its float's shortest form: no exact check needed."""


def float_literal(literal: str) -> float | int | BadValue:
    """A decimal literal with a fraction or exponent (``-1.5e3``) read within the limits of the module docstring:
    the float it is exactly, the integer it is when whole, else a ``BadValue`` saying why not."""
    too_long = long_literal(literal)
    if too_long:
        return BadValue(too_long)
    value = float(literal)
    if math.isinf(value):
        return BadValue(f"number {literal} is out of range")
    if len(literal) <= _EXACT_DIGITS and "e" not in literal and "E" not in literal:
        return value
    written = Decimal(literal)
    if Decimal(repr(value)) == written:
        return value
    if written == written.to_integral_value():
        return int(written)  # "1234567890123456789.0": the float would round it
    return BadValue(
        f"number {literal} has more digits than a float keeps (it would be compared as {value!r}); "
        "write it as a string to compare it digit for digit"
    )


_DECODER = json.JSONDecoder(parse_int=_int, parse_float=float_literal)


@dataclass(frozen=True)
class Flaw:
    """Why a decoded value breaks a limit, and the path of the offending part (``turns[0].gold_turn.args.x``)."""

    path: str
    message: str


def _string_flaw(text: str) -> str | None:
    if len(text) > MAX_STRING_CHARS:
        return f"string of {len(text):,} characters (the limit is {MAX_STRING_CHARS:,})"
    found = _SURROGATE.search(text)
    if found:
        return f"lone surrogate {printable(found.group())} at character {found.start()} is not valid Unicode"
    return None


def _within_limits(value: object, depth: int = 0) -> bool:
    """Whether ``value`` certainly breaks no limit (the fast path of ``find_flaw``); ``False`` means "look closer":
    a flaw, or a part of a type other than the plain JSON ones (the walk then decides)."""
    if type(value) is dict:
        if depth >= MAX_DEPTH:
            return False
        for key, child in value.items():
            if type(key) is not str or not plain_text(key) or not _plain_leaf(child, depth + 1):
                return False
        return True
    if type(value) is list:
        if depth >= MAX_DEPTH:
            return False
        return all(_plain_leaf(child, depth + 1) for child in value)
    return _plain_leaf(value, depth)


def _plain_leaf(value: object, depth: int) -> bool:
    # Strings, the most common part, are checked here without a further call.
    if type(value) is str:
        return len(value) <= MAX_STRING_CHARS and (value.isascii() or _SURROGATE.search(value) is None)
    if type(value) is dict or type(value) is list:
        return _within_limits(value, depth)
    if type(value) is float:
        return math.isfinite(value)
    return type(value) is int or type(value) is bool or value is None


def plain_json(value: object, depth: int = 0) -> bool:
    """Whether ``value``, standing ``depth`` levels deep in a record, certainly breaks no limit (``False``: it may;
    ``find_flaw`` on the record decides). For callers that have already checked the rest of a record's shape."""
    return _within_limits(value, depth)


def plain_text(text: str) -> bool:
    """Whether a string (a value or an object key) is within the string limits."""
    return len(text) <= MAX_STRING_CHARS and (text.isascii() or _SURROGATE.search(text) is None)


def find_flaw(value: object) -> Flaw | None:
    """The first part of ``value`` (in document order) that breaks a limit, or ``None``."""
    return None if _within_limits(value) else flaw_in(value)


def flaw_in(value: object) -> Flaw | None:
    """``find_flaw`` by a walk over every part of ``value`` (the slow path, which names the part)."""
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        problem: str | None = None
        if isinstance(item, str):
            problem = _string_flaw(item)
        elif isinstance(item, BadValue):
            problem = item.why
        elif isinstance(item, float) and not math.isfinite(item):
            problem = "NaN or infinite number is not allowed"
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                problem = _TOO_DEEP
            elif isinstance(item, dict):
                children = []
                for key, child in item.items():
                    name = f"{path}.{printable(str(key))}" if path else printable(str(key))
                    key_problem = _string_flaw(key) if isinstance(key, str) else None
                    if key_problem:
                        return Flaw(name, f"object key: {key_problem}")
                    children.append((child, name, depth + 1))
                stack.extend(reversed(children))
            else:
                stack.extend(reversed([(child, f"{path}[{i}]", depth + 1) for i, child in enumerate(item)]))
        if problem:
            return Flaw(path, problem)
    return None


@dataclass(frozen=True)
class Record:
    """One top-level value of an input: a JSONL line, an element of a top-level JSON array, or the whole document.

    ``error`` says why it could not be decoded (then ``value`` is ``None``); ``line`` is where it starts (1-based).
    """

    kind: Literal["line", "element", "document"]
    line: int
    index: int | None = None
    value: Any = None
    error: str | None = None


def require_utf8(path: Path, flag: str) -> None:
    """Raise an ``InputError`` naming the file, line and ``flag`` when ``path`` is not UTF-8 text (a binary file).

    A file that cannot be opened passes: its reader names it and says why.
    """
    number = 0
    try:
        with path.open("rb") as handle:
            for line in handle:
                number += 1
                line.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{flag}: not UTF-8 text: is this a binary file?", Location(str(path), line=number)) from None
    except OSError:
        return


def format_of(path: str | Path) -> Format | None:
    """The format a file name says (``None``: choose by content)."""
    suffix = Path(path).suffix.lower()
    return "jsonl" if suffix in JSONL_SUFFIXES else "json" if suffix == ".json" else None


_REST_LOST = "; the rest of the file could not be read"


def _syntax(error: json.JSONDecodeError) -> str:
    """The message of a syntax error; its line goes in the ``Location``."""
    joint = " " if error.msg.endswith(" at") else " at "
    return f"malformed JSON: {error.msg}{joint}column {error.colno}"


def _decode_line(text: str) -> tuple[Any, str | None]:
    try:
        return _DECODER.decode(text), None
    except json.JSONDecodeError as error:
        return None, _syntax(error)
    except RecursionError:
        return None, _TOO_DEEP
    except ValueError as error:  # a conversion the number hooks let through
        return None, f"malformed JSON: {error}"


def _is_complete(first: bytes) -> bool:
    try:
        text = first.decode("utf-8").strip(" \t\r\n")
    except UnicodeDecodeError:
        return False
    return _decode_line(text)[1] is None


def split_format(lines: Iterable[bytes], file: str, fmt: Format | None = None) -> tuple[Format, Iterator[bytes]]:
    """The format of an input given as binary lines (``fmt``, else chosen by its first non-blank line) and all its
    lines, a UTF-8 byte-order mark dropped. Raises ``InputError`` when the input is empty."""
    source = iter(lines)
    head: list[bytes] = []
    for raw in source:
        if not head:
            raw = raw.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
        head.append(raw)
        if raw.strip():
            break
    else:
        raise InputError("the file is empty", Location(file))
    return fmt or ("jsonl" if _is_complete(head[-1]) else "json"), itertools.chain(head, source)


def read_records(lines: Iterable[bytes], file: str, fmt: Format | None = None) -> Iterator[Record]:
    """The records of an input given as binary lines (each ending with ``\\n``, but maybe the last).

    Raises ``InputError`` for problems that spoil the whole input: empty, not UTF-8 (JSON), or a JSON
    document that is malformed before its first array element.
    """
    chosen, source = split_format(lines, file, fmt)
    if chosen == "jsonl":
        yield from jsonl_records(source)
        return
    data = b"".join(source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(
            f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}): is this a binary file?",
            Location(file, line=line),
        ) from None
    yield from _json(text, file)


def jsonl_records(lines: Iterable[bytes], start: int = 1) -> Iterator[Record]:
    """The records of JSONL lines, the first of which is line ``start`` of its file (blank lines are skipped)."""
    for number, raw in enumerate(lines, start=start):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield Record(
                "line", number, error=f"not UTF-8 text (byte 0x{raw[error.start]:02x} at column {error.start + 1})"
            )
            continue
        value, problem = _decode_line(text.strip(" \t\r\n"))
        yield Record("line", number, value=value, error=problem)


def _value_end(text: str, start: int) -> int | None:
    """Where the array or object starting at ``start`` ends, by bracket counting (strings skipped)."""
    depth = 0
    for token in _TOKEN.finditer(text, start):
        mark = token.group()
        if mark[0] == '"':
            continue
        depth += 1 if mark in "[{" else -1
        if depth == 0:
            return token.end()
    return None


def _json(text: str, file: str) -> Iterator[Record]:
    position = _WHITESPACE.match(text, 0).end()  # type: ignore[union-attr]  # the pattern matches the empty string
    counted, line = 0, 1

    def line_at(offset: int) -> int:
        nonlocal counted, line
        line += text.count("\n", counted, offset)
        counted = offset
        return line

    def skip(offset: int) -> int:
        return _WHITESPACE.match(text, offset).end()  # type: ignore[union-attr]  # matches the empty string

    if text[position] != "[":
        try:
            value, end = _DECODER.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise InputError(_syntax(error), Location(file, line=error.lineno)) from None
        except RecursionError:
            raise InputError(_TOO_DEEP, Location(file, line=line_at(position))) from None
        end = skip(end)
        if end < len(text):
            extra = json.JSONDecodeError("Extra data", text, end)
            hint = " (one dialog per line is JSONL: name the file .jsonl or .ndjson)"
            raise InputError(_syntax(extra) + (hint if text[end] in "{[" else ""), Location(file, line=extra.lineno))
        yield Record("document", line_at(position), value=value)
        return
    position, index = skip(position + 1), 0
    if text.startswith("]", position):
        return
    while True:
        start_line = line_at(position)
        try:
            value, end = _DECODER.raw_decode(text, position)
        except json.JSONDecodeError as error:
            yield Record("element", error.lineno, index, error=_syntax(error) + _REST_LOST)
            return
        except RecursionError:
            found = _value_end(text, position)
            yield Record("element", start_line, index, error=_TOO_DEEP)
            if found is None:
                return
            end = found
        else:
            yield Record("element", start_line, index, value=value)
        position = skip(end)
        if text.startswith(",", position):
            position, index = skip(position + 1), index + 1
            continue
        if text.startswith("]", position) and skip(position + 1) == len(text):
            return
        expected = "Extra data" if text.startswith("]", position) else "Expecting ',' delimiter"
        where = skip(position + 1) if expected == "Extra data" else position
        broken = json.JSONDecodeError(expected, text, where)
        yield Record("element", broken.lineno, index + 1, error=_syntax(broken) + _REST_LOST)
        return


def json_document(text: str, file: str = "") -> object:
    """The one JSON value of a whole text (a config or definitions file), read within the limits: a top-level
    array element by element. Raises ``InputError`` naming ``file``, the line and the field for a text that is
    empty or malformed, or a part beyond a limit."""
    records = list(read_records([line.encode() for line in text.splitlines(keepends=True)], file, "json"))
    bad = next((r for r in records if r.error is not None), None)
    if bad is not None:
        raise InputError(bad.error or "", Location(file or None, line=bad.line, index=bad.index))
    value = records[0].value if len(records) == 1 and records[0].kind == "document" else [r.value for r in records]
    flaw = find_flaw(value)
    if flaw is not None:
        raise InputError(flaw.message, Location(file or None, field=flaw.path or None))
    return value
