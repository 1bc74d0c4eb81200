"""Codes a reply gives that nothing before it stated (``result_use.unsupported_value``).

A code is one token of letters and digits (``Clink261``, ``S90``, ``1A``), read by the reply fact reading as an
identifier. ``StatedCodes`` keeps every word the trace has stated so far (the user, the calls' arguments, the tools'
answers, earlier replies) in the spelling identifiers are compared in (``A8`` and ``a-8`` are one), so whether a
code was stated costs a set look-up. Questions propose, they do not state: a question's codes are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from aem_strands.compare.identifiers import identifier_key
from aem_strands.compare.reply_signals import Fact, facts_in
from aem_strands.trace.checks.steps import sentences
from aem_strands.types import JsonValue

_CODE = re.compile(r"[A-Za-z].*\d|\d.*[A-Za-z]")
"""A code: letters and digits in one token (``Clink261``, ``S90``, ``1A``)."""
_TOKEN = re.compile(r"[\w@.#-]+")


def _tokens(text: str) -> Iterator[str]:
    for word in _TOKEN.findall(text):
        yield identifier_key(word)
        yield identifier_key(word.strip(".-#"))


class StatedCodes:
    """The words stated so far, and the codes of a reply none of them is (see the module docstring)."""

    def __init__(self) -> None:
        self.tokens: set[str] = set()

    def state(self, text: str) -> None:
        """What the user, a call or a reply said."""
        self.tokens.update(_tokens(text))

    def observe(self, value: JsonValue) -> None:
        """One scalar a tool answered."""
        if isinstance(value, str):
            self.tokens.update(_tokens(value))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            self.tokens.add(identifier_key(str(value)))

    def invented(self, text: str, grounded: set[str]) -> Iterator[tuple[str, Fact]]:
        """(sentence, code) for each code a statement of ``text`` gives that no stated word (nor ``grounded``, the
        whole values stated) is."""
        for sentence in sentences(text):
            if "?" in sentence:
                continue
            for fact in facts_in(sentence):
                if fact.group != "identifier" or not _CODE.search(fact.text):
                    continue
                key = identifier_key(fact.text)
                if key in self.tokens or key in grounded or identifier_key(fact.text.strip("#")) in self.tokens:
                    continue
                yield sentence, fact


__all__ = ["StatedCodes"]
