"""Parsers for values that name one thing exactly: phone numbers, e-mail addresses, identifiers.

These are never paraphrases of one another, so similarity never decides them:

- ``PhoneParser``: 7 to 15 digits with a leading ``+`` or ``(``, or in three groups or more
  (``+1 555-123-2002``, ``(555) 123-2002``, ``555 123 2002``); compared by ``phonenumbers``
  (``values.phones_match``), also against a bare number (``5551232002``).
- ``EmailParser``: ``local@domain.tld``, compared case-folded and exactly.
- ``IdentifierParser``: a single token (no spaces) shaped like an identifier: letters *and* digits
  (``ORDER_123``, ``ds-7731``, ``A1``), ``_``, ``@`` or ``#`` between letters or digits
  (``ds_profit_eu_q3``), or mixed case inside a word (``camelCase``, ``getUserById``; one capital
  inside a capitalised word, as in ``McDonald``, is a name, not an identifier). Its key ignores case
  and separators (``_ - . / :``), so ``ORDER_123`` and ``order-123`` agree and ``ORDER_123`` and
  ``ORDER_124`` do not. A digit string that is no number and no phone number (``4111 1111 1111 1111``,
  ``4111-1111-1111-1111``, ``0012``) is an identifier too: only digits, spaces, dashes, dots and parentheses,
  maybe after a ``+``; its key is its digits alone, compared digit for digit (``values.agree``).

These parsers run after the number, time and unit parsers: ``2019-03-01``, ``7pm`` and ``5kg`` are
not identifiers.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from aem_strands.compare.values import Email, Identifier, ParseContext, Phone, Typed

_PHONE = re.compile(r"\+?[\d\s().-]+")
_PHONE_MARKED = re.compile(r"^\s*[+(]")
_DIGIT_GROUPS = re.compile(r"\d+")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")
_INNER_MARK = re.compile(r"[A-Za-z0-9][_@#][A-Za-z0-9]")
_LOWER_UPPER = re.compile(r"[a-z][A-Z]")
_SEPARATORS = re.compile(r"[_\-./:\s]+")
_DIGIT_STRING = re.compile(r"\+?[(\d][\d\s().-]*[\d)]")
_NOT_DIGIT = re.compile(r"\D+")


def looks_like_phone(text: str) -> bool:
    """7 to 15 digits with a leading ``+`` or ``(``, or in three groups or more (``555-123-2002``);
    two groups are a range or a year span (``2019-2020``), not a phone number."""
    if not _PHONE.fullmatch(text):  # first: it rejects most text at its first letter, counting reads it all
        return False
    digits = sum(c.isdigit() for c in text)
    if not 7 <= digits <= 15:
        return False
    return bool(_PHONE_MARKED.match(text)) or len(_DIGIT_GROUPS.findall(text)) >= 3


def digit_string(text: str) -> str | None:
    """The digits of ``text`` when it is a digit string (see the module docstring), else ``None``."""
    token = text.strip()
    if len(token) > 200 or not _DIGIT_STRING.fullmatch(token):
        return None
    digits = _NOT_DIGIT.sub("", token)
    return digits if len(digits) >= 2 else None


def is_identifier(text: str) -> bool:
    """Whether ``text`` is shaped like an identifier (see the module docstring)."""
    token = text.strip()
    if digit_string(token) is not None:
        return True
    if not token or any(c.isspace() for c in token) or len(token) > 200:
        return False
    has_letter, has_digit = any(c.isalpha() for c in token), any(c.isdigit() for c in token)
    if has_letter and has_digit:
        return True
    if _INNER_MARK.search(token):
        return True
    transitions = len(_LOWER_UPPER.findall(token))
    return transitions >= 2 or (transitions == 1 and token[0].islower())


@functools.lru_cache(maxsize=1 << 16)
def identifier_key(text: str) -> str:
    """``text`` case-folded (NFKC) without separators: what two spellings of one identifier share; a digit
    string's digits alone. Remembered: the same words come back in every reply and argument of a run."""
    digits = digit_string(text)
    return digits if digits is not None else _SEPARATORS.sub("", unicodedata.normalize("NFKC", text).casefold())


class PhoneParser:
    """Phone numbers written with separators or ``+`` (see the module docstring)."""

    name = "phone"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        token = text.strip()
        if not looks_like_phone(token):
            return None
        digits = "".join(c for c in token if c.isdigit())
        return Phone(("+" if token.startswith("+") else "") + digits)


class EmailParser:
    """E-mail addresses (see the module docstring)."""

    name = "email"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        if "@" not in text and "\uff20" not in text and "\ufe6b" not in text:
            return None  # no "@", nor a form NFKC turns into one (fullwidth, small)
        token = unicodedata.normalize("NFKC", text).strip().casefold()
        return Email(token) if _EMAIL.fullmatch(token) else None


class IdentifierParser:
    """Identifier-shaped tokens (see the module docstring)."""

    name = "identifier"

    def parse(self, text: str, context: ParseContext) -> Typed | None:
        return Identifier(identifier_key(text), text.strip()) if is_identifier(text) else None
