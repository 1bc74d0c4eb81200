"""Stable redaction: each sensitive value becomes a per-run token (``<EMAIL_1>``), the same token for the same value.

A text that already holds a token's shape (``<EMAIL_1>`` typed by a user, or a tool's own placeholder) keeps it
visibly apart: its angle brackets become single guillemets (U+2039, U+203A), so no token of the output is ever both a
literal of the input and a redacted value, whichever comes first in a run.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from aem_strands.trace.redaction.detect import find_sensitive, may_hold_sensitive
from aem_strands.trace.redaction.kinds import SensitiveKind, SensitiveSpan, normalised_value
from aem_strands.trace.redaction.recognizers import CARD_DIGITS, card_named_by_key
from aem_strands.types import JsonValue

_MAX_PASSES = 4
"""Scans of one text by ``Redactor.redact``; tokens hold no digits nor at-signs, so each pass can only uncover
values that a neighbour hid, and a second pass almost always finds nothing."""
_LITERAL_TOKEN = re.compile(r"<(" + "|".join(kind.name for kind in SensitiveKind) + r")_(\d+)>")
_OPEN, _CLOSE = "\u2039", "\u203a"
_TOKEN_OR_LITERAL = re.compile(f"[<{_OPEN}](?:" + "|".join(kind.name for kind in SensitiveKind) + rf")_\d+[>{_CLOSE}]")
_LONG_NUMBER = 10**6
"""Numbers from here up are read as text (a card, an id or a phone number stored as a JSON number)."""
_CARD_FROM = 10 ** (CARD_DIGITS - 1)
"""The least integer with a card's fewest digits (``recognizers.card_named_by_key``): a smaller one is no card."""
_MEMO_CHARS = 1 << 24
"""Characters of redacted texts a redactor remembers (then it starts afresh): records repeat their keys, ids and
replies."""


def _replace_found(text: str, found: Mapping[str, str]) -> str:
    """``text`` with each value of ``found`` replaced by its token wherever it stands, the longest first."""
    for value in sorted(found, key=len, reverse=True):
        if value in text:
            text = text.replace(value, found[value])
    return text


class Redactor:
    """Replaces sensitive values with tokens that are stable within one redactor: the same value (under
    ``normalised_value``) always gets the same token (``<EMAIL_1>``, ``<CARD_2>``), different values different
    tokens, so findings and evidence still line up after redaction. ``kinds`` limits what is redacted (default:
    every kind). Redact each input once: token-shaped text of the input is set apart (see the module docstring),
    so a redacted text redacted again has its tokens set apart, and no value."""

    def __init__(self, kinds: frozenset[SensitiveKind] | None = None) -> None:
        self.kinds = frozenset(SensitiveKind) if kinds is None else frozenset(kinds)
        self._tokens: dict[tuple[SensitiveKind, str], str] = {}
        self._counts: Counter[SensitiveKind] = Counter()
        # A text's redaction depends on the text and on the tokens already made; the tokens of every value of a
        # text are made on its first redaction, so a text redacted again gives what it gave the first time.
        self._redacted: dict[str, str] = {}
        self._remembered = 0

    def token(self, kind: SensitiveKind, value: str) -> str:
        """The token standing for ``value`` of ``kind``, made on first use."""
        key = (kind, normalised_value(kind, value))
        token = self._tokens.get(key)
        if token is None:
            self._counts[kind] += 1
            token = f"<{kind.name}_{self._counts[kind]}>"
            self._tokens[key] = token
        return token

    def redact(self, text: str) -> str:
        """``text`` with each sensitive value of the redactor's kinds replaced by its token. The result is scanned
        again until nothing is found: a value can hide another next to it (a phone number right before a card
        number reads as one long run of digits until the card is replaced)."""
        done = self._redacted.get(text)
        if done is None:
            if self._remembered >= _MEMO_CHARS:
                self._redacted.clear()
                self._remembered = 0
            done = self._redacted[text] = self._redact(text)
            self._remembered += len(text) + 1
        return done

    def _redact(self, text: str) -> str:
        if "<" not in text and not may_hold_sensitive(text):
            return text
        if "<" in text:
            text = _LITERAL_TOKEN.sub(lambda m: f"{_OPEN}{m[1]}_{m[2]}{_CLOSE}", text)
        found: dict[str, str] = {}
        for _ in range(_MAX_PASSES):
            spans = [
                s for s in find_sensitive(text) if s.kind in self.kinds and not _TOKEN_OR_LITERAL.fullmatch(s.value)
            ]
            if not spans:
                # Each value found is replaced wherever else it stands too, also where the detector misses it in
                # that context (a phone number followed by another number reads as one run); what that uncovers
                # (a card number that ran on from the phone number) is scanned for in the next pass.
                replaced = _replace_found(text, found)
                if replaced == text:
                    break
                text = replaced
                continue
            found.update((s.value, self.token(s.kind, s.value)) for s in spans)
            text = self._replace(text, spans)
        return _replace_found(text, found)

    def _replace(self, text: str, spans: list[SensitiveSpan]) -> str:
        parts, at = [], 0
        for span in spans:
            parts += [text[at : span.start], self.token(span.kind, span.value)]
            at = span.end
        parts.append(text[at:])
        return "".join(parts)

    def redact_json(self, value: JsonValue) -> JsonValue:
        """A copy of a JSON value with every string (object keys included) redacted; numbers long enough to be a
        card, id or phone number (integers, and floats without a fraction) are read as text and replaced by the
        token when one is found in them. A card-shaped value under a key that names a card (``payment_card.number``)
        is a card whatever its check digit (``recognizers.card_named_by_key``)."""
        return self._redact_json(value, "")

    def _redact_json(self, value: JsonValue, key: str) -> JsonValue:
        if isinstance(value, str):
            # shorter than a card's fewest digits: no card whatever its key (the common case, checked first)
            if len(value) >= CARD_DIGITS and SensitiveKind.CARD in self.kinds and card_named_by_key(key, value):
                return self.token(SensitiveKind.CARD, value)
            return self.redact(value)
        if isinstance(value, bool) or value is None:
            return value
        if (
            isinstance(value, int)
            and value >= _CARD_FROM
            and SensitiveKind.CARD in self.kinds
            and card_named_by_key(key, str(value))
        ):
            return self.token(SensitiveKind.CARD, str(value))
        if isinstance(value, (int, float)):
            if abs(value) < _LONG_NUMBER or (isinstance(value, float) and not value.is_integer()):
                return value
            text = str(int(value))
            redacted = self.redact(text)
            return value if redacted == text else redacted
        if isinstance(value, Mapping):
            out: dict[str, JsonValue] = {}
            for k, v in value.items():
                name = self._redacted.get(k) if type(k) is str else None  # a key redacted before (most are)
                name = self.redact(str(k)) if name is None else name
                out[name] = self._redact_item(v) if _plain(v) else self._redact_json(v, f"{key}.{k}")
            return out
        if isinstance(value, (list, tuple)):
            return [self._redact_item(v) if _plain(v) else self._redact_json(v, key) for v in value]
        return value

    def _redact_item(self, value: JsonValue) -> JsonValue:
        """``_redact_json`` of a ``_plain`` value, whatever its key: its redaction if a string, else itself."""
        if type(value) is not str:
            return value
        done = self._redacted.get(value)
        return self.redact(value) if done is None else done


def _plain(value: JsonValue) -> bool:
    """Whether ``_redact_json`` gives ``value`` its plain redaction, whatever its key: a string no card by its key
    (shorter than a card's fewest digits, or starting with neither a digit nor a space: a card-shaped value starts
    with a digit once stripped), ``None``, a boolean or an integer too small to be read as text."""
    kind = type(value)
    return (
        (kind is str and (len(value) < CARD_DIGITS or not (value[0].isdigit() or value[0].isspace())))
        or value is None
        or kind is bool
        or (kind is int and -_LONG_NUMBER < value < _LONG_NUMBER)
    )
