"""Two things asked or offered against one of them: ``Could you give me your policy number and postcode?`` /
``Could you give me your policy number?``; ``Shall I turn off the lights and lock the door?`` / ``Shall I lock
the door?``.

``dropped_item(gold, predicted)`` reads the question of each reply (a reply with one ``?``); where one joins two
items with ``and`` and the other joins none, the words of one item stand in the other question and none of the
other item's do, the item left out is returned. Anything else (two questions on a side, both or neither joining
items, an item whose words the other reply tells in other words) is ``None``: the pair stays open.
"""

from __future__ import annotations

import re

from aem_strands.compare.reply_signals import words_in
from aem_strands.compare.reply_words import GOVERNED_SKIP

_AND = re.compile(r",? and (?:also )?")
_NAMED = re.compile(r"[A-Z]\w* and [A-Z]")
_IDIOM = re.compile(r"\b(?:go ahead|try|come|wait|nice|good|lovely) and\b")
_QUESTION_WORDS = frozenset(["what", "when", "where", "which", "who", "how", "many", "much", "whose", "why", "shall"])


def dropped_item(gold: str, predicted: str) -> str | None:
    """The item one question asks for and the other leaves out (see the module docstring); ``None`` otherwise."""
    mine, theirs = _question(gold), _question(predicted)
    if mine is None or theirs is None:
        return None
    joined = [_AND.split(q) for q in (mine, theirs)]
    if sorted(len(parts) for parts in joined) != [1, 2]:
        return None
    items, other = (joined[0], theirs) if len(joined[0]) == 2 else (joined[1], mine)
    other_words = _content(other)
    kept = [bool(_content(item) & other_words) for item in items]
    if kept.count(True) != 1 or not all(_content(item) for item in items):
        return None
    return items[kept.index(False)].strip(" ?")


def _question(text: str) -> str | None:
    """``text`` case-folded when it is one question and nothing else, and joins no names (``Hobbs and Shaw``),
    lists (``A, B or C``) or idioms (``go ahead and book``); ``None`` otherwise."""
    text = text.strip().replace("\u2019", "'")
    if text.count("?") != 1 or not text.endswith("?") or re.search(r"[.!;]\s", text) or _NAMED.search(text):
        return None
    folded = text.casefold()
    return None if _IDIOM.search(folded) or " or " in folded else folded


def _content(text: str) -> frozenset[str]:
    return frozenset(w for w in words_in(text) if len(w) > 2 and w not in GOVERNED_SKIP | _QUESTION_WORDS)
