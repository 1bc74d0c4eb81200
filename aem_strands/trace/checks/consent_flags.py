"""Yes/no arguments of a call read in the talk (``add_insurance: "False"``): the side a text states for one, from
its parse (the spaCy pipeline ``aem_strands.compare.roles`` loads, on first use only). A mention of a flag is a
word naming one of its name's words (``steps.names_action``); its side is yes unless the parse negates it
(``_negated``: "with extra luggage" yes; "Insurance is not included", "No extra luggage" no).

- ``flag_side``: the side the newest text that mentions the flag states (the confirmation check's listing).
- ``other_flags``: the call's flags an answer to its proposal states the other side of, by naming the flag's
  object (a noun: "Please buy me the insurance for this car." for ``add_insurance: "False"``), in a sentence that
  is no question and sets no condition: the answer agrees to other details than the call's (``consent``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING

from aem_strands.trace.checks.requests import conditional
from aem_strands.trace.checks.steps import names_action, sentences
from aem_strands.types import JsonValue

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def flag_value(value: JsonValue) -> bool | None:
    """A yes/no argument's value (``true``, ``"False"``), else ``None``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().casefold() in ("true", "false"):
        return value.strip().casefold() == "true"
    return None


def _negated(token: Token) -> bool:
    """Whether the parse negates a mention of a flag: its phrase (the mention, or the noun it modifies: "the
    insurance option") has a negation or a determiner "no" ("No extra luggage"), is governed by "without", or is the
    subject or object of a negated verb, or of a preposition attached to one ("Insurance is not included", "You
    won't be needing the insurance option", "a Hatchback not coming with insurance")."""
    phrase = token.head if token.dep_ in ("compound", "amod") else token
    if any(c.dep_ == "neg" or (c.dep_ == "det" and c.lower_ == "no") for c in phrase.children):
        return True
    verb = phrase.head
    if phrase.dep_ == "pobj":
        if verb.lower_ == "without":
            return True
        verb = verb.head  # what the preposition attaches to: "not coming with insurance"
    return phrase.dep_ != "ROOT" and verb.pos_ in ("VERB", "AUX") and any(c.dep_ == "neg" for c in verb.children)


@functools.lru_cache(maxsize=256)
def _flag_parse(sentence: str) -> Doc:
    """The parse of a sentence that mentions a flag, once per sentence, with the coarse part-of-speech tags
    ``_negated`` reads (the attribute ruler's) but without the lemmas nothing here reads. Callers never change it."""
    from aem_strands.compare.roles import english_parser  # the parser is loaded only when a flag needs reading

    return english_parser()(sentence, disable=["lemmatizer"])


def flag_side(texts: list[str], name: str) -> bool | None:
    """The side the newest text that mentions a flag argument's words states for it (no when the parse negates the
    mention, ``_negated``), ``None`` where none mentions it."""
    for text in texts:
        for sentence in sentences(text):
            if not names_action(sentence, name):
                continue
            mention = next((t for t in _flag_parse(sentence) if names_action(t.text, name)), None)
            if mention is not None:
                return not _negated(mention)
    return None


def other_flags(arguments: Mapping[str, JsonValue], answer: str) -> list[str]:
    """The flag arguments whose other side ``answer`` states by naming the flag's object (see the module
    docstring); a flag its sentences name in no noun, or only in a question or a condition, is not stated."""
    out = []
    for name, value in arguments.items():
        flag = flag_value(value)
        if flag is None:
            continue
        for sentence in sentences(answer):
            if "?" in sentence or not names_action(sentence, name) or conditional(sentence):
                continue
            nouns = [t for t in _flag_parse(sentence) if t.pos_ in ("NOUN", "PROPN") and names_action(t.text, name)]
            if nouns and all(_negated(t) is flag for t in nouns):
                out.append(name)
                break
    return out
