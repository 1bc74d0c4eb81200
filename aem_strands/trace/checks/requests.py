"""Whether a user's text asks for a tool's action to be done, read from its dependency parse (the spaCy
pipeline ``aem_strands.compare.roles`` loads, on first use only).

A text asks for the action when a word naming it (``steps.names_action``: ``cancel`` for ``cancel_order``) is a
verb in its base form (``VB``: an imperative, or after a modal or ``to``: "please cancel order 123", "Can you
transfer 250 EUR?", "I need you to cancel it") that is

- not negated: neither it nor a verb it hangs from has a ``neg`` dependent ("I need you to not cancel it",
  "I don't want to cancel");
- not the subject of a question about it: neither it nor a verb it hangs from has a wh-word dependent (``WRB``,
  ``WP``, ``WDT``) or an ``if`` / ``whether`` marker ("Can you explain how to cancel an order?", "What happens if
  I cancel?").

A noun ("how a transfer would work") or a past form ("I cancelled it yesterday") asks for nothing.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from aem_strands.trace.checks.steps import names_action

if TYPE_CHECKING:
    from spacy.tokens import Token

_WH_TAGS = frozenset(["WRB", "WP", "WDT", "WP$"])
_QUESTION_MARKERS = frozenset(["if", "whether"])


def _chain(token: Token) -> list[Token]:
    """The token and the verbs it hangs from, up to the root."""
    chain = [token]
    while chain[-1].head is not chain[-1] and len(chain) < 32:
        chain.append(chain[-1].head)
    return chain


def _open(verb: Token) -> bool:
    """Whether neither the verb nor a verb it hangs from is negated or questioned (see the module docstring)."""
    for token in _chain(verb):
        for child in token.children:
            if child.dep_ == "neg" or child.tag_ in _WH_TAGS:
                return False
            if child.dep_ == "mark" and child.lower_ in _QUESTION_MARKERS:
                return False
    return True


@functools.lru_cache(maxsize=1024)
def asks_for(text: str, tool_name: str) -> bool:
    """Whether ``text`` asks for ``tool_name``'s action (see the module docstring)."""
    if not names_action(text, tool_name):
        return False
    from aem_strands.compare.roles import _nlp  # the parser is loaded only when a request needs reading

    doc = _nlp()(text)
    return any(t.tag_ == "VB" and names_action(t.text, tool_name) and _open(t) for t in doc)
