"""Whether a user's text asks for a tool's action to be done, and whether an answer refuses by ellipsis, read from
the dependency parse (the spaCy pipeline ``aem_strands.compare.roles`` loads, on first use only) and, for a request
in other words than the tool's name, the bundled MiniLM embeddings (``aem_strands.compare.scorers``).

A text asks for the action when a verb in its base form (``VB``: an imperative, or after a modal or ``to``: "please
cancel order 123", "Can you transfer 250 EUR?", "I need you to cancel it") is *open*:

- not negated: neither it nor a verb it hangs from has a ``neg`` dependent ("I need you to not cancel it",
  "I don't want to cancel");
- not the subject of a question about it: neither it nor a verb it hangs from has a wh-word dependent (``WRB``,
  ``WP``, ``WDT``) or an ``if`` / ``whether`` marker ("Can you explain how to cancel an order?", "What happens if
  I cancel?"); a wh-word inside a relative clause is a relative pronoun, no question ("an alarm that I'd like to
  delete");

and it names the action, either by a word (``steps.names_action``: ``cancel`` for ``cancel_order``), or by meaning
(``means``): its verb phrase (the verb with its objects, particles and prepositional phrases, without the clauses
that hang from it: "explain" of "explain how a transfer would work") is nearer, by MiniLM cosine, to this tool than
to any other tool of the catalog, read by its name's words or by its description, and at least ``MEANS``
("log me out" → ``LogoutUser``, "cancel my meeting" → ``DeleteEvent``).

A noun ("how a transfer would work") or a past form ("I cancelled it yesterday") asks for nothing.

An answer *refuses the action* when a verb naming it is negated, or completes a negated verb ("I'd rather you
didn't change anything", "I don't want you to cancel it"), in no question or condition; it *refuses by ellipsis*
when a negated verb stands for the proposed action: a form of ``do`` or a modal with a ``neg`` dependent and no verb
or object of its own ("I'd rather you didn't", "Please don't", "You shouldn't").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from aem_strands.trace.checks.steps import names_action

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from aem_strands.compare.scorers import EmbeddingScorer

_WH_TAGS = frozenset(["WRB", "WP", "WDT", "WP$"])
_QUESTION_MARKERS = frozenset(["if", "whether"])
_CLAUSES = frozenset(
    ["ccomp", "advcl", "conj", "cc", "parataxis", "relcl", "csubj", "mark", "punct", "aux", "auxpass", "nsubj",
     "nsubjpass", "neg", "intj", "discourse", "xcomp", "advmod", "npadvmod", "expl"]
)  # fmt: skip
"""Dependents that are no part of a verb's own phrase: the clauses, subjects and adverbs that hang from it."""
_OWN = frozenset(["dobj", "obj", "prt", "attr", "acomp", "oprd", "ccomp", "xcomp", "dative", "pobj", "prep"])
"""Dependents that give a verb its own content: a negated ``do`` with none of them stands for another verb."""
MEANS = 0.3
"""The least MiniLM cosine of a verb phrase and the tool it is nearest to, for the phrase to name its action."""
_NAME_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _chain(token: Token) -> list[Token]:
    """The token and the verbs it hangs from, up to the root."""
    chain = [token]
    while chain[-1].head is not chain[-1] and len(chain) < 32:
        chain.append(chain[-1].head)
    return chain


def _open(verb: Token) -> bool:
    """Whether neither the verb nor a verb it hangs from is negated or questioned (see the module docstring)."""
    chain = _chain(verb)
    for i, token in enumerate(chain):
        relative = any(t.dep_ == "relcl" for t in chain[i:])
        for child in token.children:
            if child.dep_ == "neg" or (child.tag_ in _WH_TAGS and not relative):
                return False
            if child.dep_ == "mark" and child.lower_ in _QUESTION_MARKERS:
                return False
    return True


def _parse(text: str) -> Doc:
    from aem_strands.compare.roles import _nlp  # the parser is loaded only when a request needs reading

    return _nlp()(text)


@functools.lru_cache(maxsize=1024)
def asks_for(text: str, tool_name: str) -> bool:
    """Whether ``text`` asks for ``tool_name``'s action by a word naming it (see the module docstring)."""
    if not names_action(text, tool_name):
        return False
    return any(t.tag_ == "VB" and names_action(t.text, tool_name) and _open(t) for t in _parse(text))


def _phrase(verb: Token) -> str:
    tokens = [verb, *(t for c in verb.children if c.dep_ not in _CLAUSES for t in c.subtree)]
    return " ".join(t.text for t in sorted(tokens, key=lambda t: t.i))


@functools.lru_cache(maxsize=1024)
def open_phrases(text: str) -> tuple[str, ...]:
    """The verb phrases of the open base-form verbs of ``text`` (see the module docstring)."""
    return tuple(_phrase(t) for t in _parse(text) if t.tag_ == "VB" and _open(t))


def tool_readings(name: str, description: str) -> tuple[str, ...]:
    """How a tool is read by meaning: its name's words ("delete alarm"), and its description when it has one."""
    words = " ".join(w.casefold() for w in _NAME_PARTS.findall(name.rsplit(".", 1)[-1].rsplit("__", 1)[-1]))
    return (words, description) if description.strip() else (words,)


@functools.cache
def _scorer() -> EmbeddingScorer:
    from aem_strands.compare.scorers import EmbeddingScorer  # the model loads only when a request needs it

    return EmbeddingScorer()


def means(text: str, tool_name: str, catalog: Sequence[tuple[str, str]]) -> bool:
    """Whether an open verb phrase of ``text`` names ``tool_name``'s action by meaning: nearest to it among the
    ``catalog``'s tools (name, description) under one of their readings (``tool_readings``), at a cosine of at least
    ``MEANS`` (see the module docstring). ``False`` when the catalog does not define the tool or defines no other."""
    names = [n for n, _ in catalog]
    if tool_name not in names or len(names) < 2:
        return False
    phrases = open_phrases(text)
    if not phrases:
        return False
    scorer = _scorer()
    own = names.index(tool_name)
    for reading in range(2):
        texts = [r[min(reading, len(r) - 1)] for r in (tool_readings(n, d) for n, d in catalog)]
        tools = scorer.vectors(texts)
        for vector in scorer.vectors(list(phrases)):
            cosines = tools @ vector
            if int(cosines.argmax()) == own and float(cosines[own]) >= MEANS:
                return True
    return False


@functools.lru_cache(maxsize=1024)
def refuses_action(text: str, tool_name: str) -> bool:
    """Whether ``text`` negates the tool's action itself: a verb naming it (``steps.names_action``) negated, or the
    complement of a negated verb ("I'd rather you didn't change anything", "I don't want you to cancel it"), in no
    question or condition (see the module docstring)."""
    if not names_action(text, tool_name):
        return False
    for token in _parse(text):
        if not token.tag_.startswith("VB") or not names_action(token.text, tool_name):
            continue
        chain = _chain(token)[: 2 if token.dep_ in ("xcomp", "ccomp") else 1]  # the verb, or the verb it completes
        asked = any(
            c.tag_ in _WH_TAGS or (c.dep_ == "mark" and c.lower_ in _QUESTION_MARKERS)
            for t in chain
            for c in t.children
        )
        if not asked and any(c.dep_ == "neg" for t in chain for c in t.children):
            return True
    return False


@functools.lru_cache(maxsize=1024)
def refuses_by_ellipsis(text: str) -> bool:
    """Whether ``text`` refuses by a negated verb standing for the proposed action (see the module docstring)."""
    for token in _parse(text):
        if token.lemma_ != "do" and token.tag_ != "MD":
            continue
        if token.dep_ == "aux" or not any(c.dep_ == "neg" for c in token.children):
            continue
        if not any(c.dep_ in _OWN for c in token.children):
            return True
    return False
