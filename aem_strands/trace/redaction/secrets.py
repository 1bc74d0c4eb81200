"""Secrets by ``detect-secrets``' judgement: its detectors of known key formats (AWS, GitHub, Slack, Stripe, JWT,
basic-auth passwords in URLs, ...) give each match's place, its keyword detector the value after ``password:`` /
``secret =``, its entropy measure and limit (4.5 bits a character, base64) a random-looking token of 20 characters
or more; plus a whole private-key block (its ``BEGIN`` line, body and ``END`` line: the detector names the ``BEGIN``
line only) and an HTTP ``Bearer`` credential (whatever its alphabet: a 32-hex token too). The keyword detector reads
``password: X`` and ``password = X``; a reply says it in words (``your temporary password is Xk9#mP2v``,
``password has been reset to Summer2025!``): after such a keyword and ``is`` / ``was`` / ``set to`` ..., a token of
six characters or more with both a letter and a digit is read as the keyword's value (``password is reset`` and
``password is 8 characters`` are not).

Not secrets: UUIDs, hex digests and other hex-only tokens without a label (a commit hash, an id), tokens inside a
URL's path or query (web-page metadata: image and script paths), subresource-integrity hashes (``sha384-...``),
and a keyword's value that is a masked, templated or prose word (``password: click the link``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from aem_strands.trace.redaction.kinds import SensitiveKind, SensitiveSpan

_KEY_BLOCK = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END \1-----|(?=\n\s*\n)|\Z)", re.DOTALL
)
_BEARER = re.compile(r"\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)", re.IGNORECASE)
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/_\-=])[A-Za-z0-9+/_\-]{20,}={0,2}(?![A-Za-z0-9+/_\-=])")
_HEX = re.compile(r"[0-9a-fA-F\-]+")
_IN_URL = re.compile(r"[a-z][a-z0-9+.\-]*://\S*$|(?:^|\s)/\S*$", re.IGNORECASE)
_INTEGRITY = re.compile(r"^sha(?:256|384|512)-")
_NOT_ONE_TOKEN = re.compile(r"\s|['\"`]|://")
_MASKED = re.compile(r"^[*•xX#.\-]+$|^[{<$%]")
_CLOSING = re.compile(r"[\s'\"`,;.)\]}]+$")
_PROSE_KEYWORD = re.compile(
    r"\b(?:password|passwd|passcode|pwd|secret|api[ _-]?key|access[ _-]?key)s?\s+"
    r"(?:(?:has\s+been\s+|was\s+|is\s+now\s+)?(?:set|reset|changed)\s+to|will\s+be|is|was)\s*:?\s+[`'\"]?(\S+)",
    re.IGNORECASE,
)
_PROSE_VALUE = re.compile(r"(?=\S*[A-Za-z])(?=\S*\d)\S{6,}")
"""A keyword's value in prose: a letter and a digit, six characters or more (``Summer2025!``, ``tR7-bw4q``)."""
_KEYWORD_GATE = re.compile(r"key|pass|pwd|secret|contrase", re.IGNORECASE)
"""A word every keyword expression of ``detect-secrets`` needs (its ``DENYLIST``): without one, none is run."""
_FORMAT_WORDS = re.compile(r"://|key|pw|pass|token|secret|xox", re.IGNORECASE)
_FORMAT_RUN = re.compile(r"[A-Za-z0-9_\-+/=.]{16,}", re.IGNORECASE)
_LETTER_IN_RUN = re.compile(r"[^0-9_\-+/=.]")
_ASCII_DIGIT = re.compile(r"[0-9]")
_DIGIT = re.compile(r"\d")


def may_hold_format(text: str) -> bool:
    """What every known key format needs: the URL or keyword its expression is anchored on, or a long token of
    letters and digits (the key itself): a run of 16 characters or more of letters, digits and ``_-+/=.`` with a
    letter, and a digit in it or right after it. Without one, no format's expression is run.

    The same texts as the one case-insensitive expression it replaces (the words, or two lookaheads, "letters and
    marks, then a decimal digit" and "digits and marks, then a letter", before such a run), at a third of its cost:
    where a match starts inside a whole run, one starts at the run's start (the lookaheads see more from there);
    from there, the first character that is no letter or mark is the run's first digit or the character after
    the run, and the first that is no digit or mark is a letter of the run."""
    if _FORMAT_WORDS.search(text):
        return True
    for run in _FORMAT_RUN.finditer(text):
        token = run.group()
        if _LETTER_IN_RUN.search(token) and (_ASCII_DIGIT.search(token) or _DIGIT.match(text, run.end())):
            return True
    return False


_SKIPPED_DETECTORS = ("Base64 High Entropy String", "Hex High Entropy String", "Secret Keyword", "Public IP (ipv4)",
                      "Private Key")  # fmt: skip
"""Detectors read otherwise here (entropy, keywords, key blocks) or that find no secret (a public IP address)."""


@functools.lru_cache(maxsize=1)
def _detectors() -> tuple[tuple[re.Pattern[str], ...], tuple[tuple[re.Pattern[str], int], ...], Any]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins import keyword
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString

    plugins: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
    formats = tuple(
        regex
        for name, plugin in plugins.items()
        if name not in _SKIPPED_DETECTORS
        for regex in getattr(plugin, "denylist", ())
    )
    keywords = ((keyword.FOLLOWED_BY_COLON_REGEX, 4), (keyword.FOLLOWED_BY_EQUAL_SIGNS_REGEX, 5))
    return formats, keywords, Base64HighEntropyString()


def _group_span(match: re.Match[str]) -> tuple[int, int]:
    """Where the secret of a detector's match is: the whole match when it is one token (``ghp_...``), else its last
    non-empty group (the password of ``://user:pass@``, a key between quotes)."""
    if not _NOT_ONE_TOKEN.search(match.group()):
        return match.span()
    for index in range(match.re.groups or 0, 0, -1):
        if match.group(index):
            return match.span(index)
    return match.span()


def _keyword_value(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The keyword's value as a secret, or None for a masked, templated or prose value: the first word, kept when it
    holds a digit or a symbol or ends its line (``password: hunter2``, ``password: correcthorse``)."""
    value = text[start:end]
    word = value.split(maxsplit=1)[0] if value.strip() else ""
    word = _CLOSING.sub("", word)
    if not word or _MASKED.search(word):
        return None
    rest = text[start + len(word) : text.find("\n", start) if "\n" in text[start:] else len(text)]
    if word.isalpha() and _CLOSING.sub("", rest).strip():
        return None
    return start, start + len(word)


def _random_token(text: str, match: re.Match[str]) -> bool:
    token = match.group().rstrip("=")
    before = text[max(0, match.start() - 400) : match.start()]
    if _HEX.fullmatch(token) or _IN_URL.search(before) or _INTEGRITY.search(token):
        return False
    if not (any(ch.isdigit() for ch in token) and any(ch.isalpha() for ch in token)):
        return False
    entropy = _detectors()[2]
    return bool(entropy.calculate_shannon_entropy(token) > entropy.entropy_limit)


def secret_spans(text: str) -> Iterator[SensitiveSpan]:
    """The secrets of ``text`` (see the module docstring); they may overlap (the caller keeps the longest)."""
    for match in _KEY_BLOCK.finditer(text):
        yield SensitiveSpan(SensitiveKind.SECRET, match.start(), match.end(), match.group())
    for match in _BEARER.finditer(text):
        yield SensitiveSpan(SensitiveKind.SECRET, match.start(1), match.end(1), match.group(1))
    # detect-secrets is imported (about 0.1 s) only for a text that one of its detectors could match
    for regex in _detectors()[0] if may_hold_format(text) else ():
        for match in regex.finditer(text):
            start, end = _group_span(match)
            yield SensitiveSpan(SensitiveKind.SECRET, start, end, text[start:end])
    for regex, group in _detectors()[1] if _KEYWORD_GATE.search(text) else ():
        for match in regex.finditer(text):
            found = _keyword_value(text, *match.span(group))
            if found is not None:
                yield SensitiveSpan(SensitiveKind.SECRET, *found, text[found[0] : found[1]])
    for match in _PROSE_KEYWORD.finditer(text) if _KEYWORD_GATE.search(text) else ():
        word = _CLOSING.sub("", match.group(1))
        if _PROSE_VALUE.fullmatch(word) and not _MASKED.search(word):
            yield SensitiveSpan(SensitiveKind.SECRET, match.start(1), match.start(1) + len(word), word)
    for match in _TOKEN.finditer(text):
        if _random_token(text, match):
            yield SensitiveSpan(SensitiveKind.SECRET, match.start(), match.end(), match.group())
