"""Whether a user's text asks for a tool's action to be done, and whether an answer refuses by ellipsis, read from
the dependency parse (the spaCy pipeline ``aem_strands.compare.roles`` loads, on first use only) and, for a request
in other words than the tool's name, the bundled MiniLM embeddings (``aem_strands.compare.scorers``).

A text asks for the action when a verb in its base form (``VB``: an imperative, or after a modal or ``to``: "please
cancel order 123", "Can you transfer 250 EUR?", "I need you to cancel it"; a text the parse finds no verb in is read
again as a request, ``_request_parse``: "Please close savings account 7720.", "Mark as complete.") is *open*:

- not negated: neither it nor a verb it hangs from has a ``neg`` dependent ("I need you to not cancel it",
  "I don't want to cancel"), up to a clause set beside a verb (a conjunct or a parataxis of it: "I don't want
  insurance, just book it" asks for the booking);
- not the subject of a question about it: neither it nor a verb it hangs from has a wh-word dependent (``WRB``,
  ``WP``, ``WDT``) or an ``if`` / ``whether`` marker ("Can you explain how to cancel an order?", "What happens if
  I cancel?"); a wh-word inside a relative clause is a relative pronoun, no question ("an alarm that I'd like to
  delete");
- not asked about by ``do`` before its subject ("Do I have a meeting today?", "Does it include breakfast?"): a
  question about a fact (a modal asks for it: "Can you cancel it?", "Could I change it?");
- not the content of a noun: a verb that modifies a noun (``acl``: "Add a reminder to call my mom", "Set a
  reminder to cancel my subscription") is what the noun is about, not an action asked of the agent;

and it names the action, either by a word (``steps.names_action``: ``cancel`` for ``cancel_order``), or by meaning
(``means``): its verb phrase (the verb with its objects, particles and prepositional phrases, without the clauses
that hang from it: "explain" of "explain how a transfer would work") is nearer, by MiniLM cosine, to this tool than
to any other tool of the catalog under most of its readings (by its name's words, by its description, by its name's
and parameters' words), and at least ``MEANS``
("log me out" → ``LogoutUser``, "cancel my meeting" → ``DeleteEvent``); under one reading only it *may mean* it
(``may_mean``: the consent check leaves that undecided).

A noun ("how a transfer would work") or a past form ("I cancelled it yesterday") asks for nothing.

An agent's sentence *reports* a done action when its main verb is a past form (``VBD``, ``VBN``: "Got it, I've
updated your password.", "Reminder deleted."), in no question and with no modal, and *asks for a value* when it
is a question with a wh-word outside a relative clause ("What would you like your new password to be?"): neither
proposes an action. It *names the action by a verb* when a verb of it in no past form names the tool's action word
(``action_verb``: "I will cancel ORDER_1."; not "The next reminder is to ...").
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from aem_strands.trace.checks.steps import action_words, names_action

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
    while chain[-1].head.i != chain[-1].i and len(chain) < 32:
        chain.append(chain[-1].head)
    return chain


def _open(verb: Token) -> bool:
    """Whether neither the verb nor a verb it hangs from is negated or questioned, and the verb says no content of
    a noun (see the module docstring)."""
    if verb.dep_ == "acl":
        return False
    does = [c.i for c in verb.children if c.dep_ == "aux" and c.lower_ in _DO]
    subjects = [c.i for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if does and subjects and does[0] < subjects[0]:
        return False  # "Do I have a meeting today?": a question about a fact, no request
    chain = _chain(verb)
    for i, token in enumerate(chain):
        relative = any(t.dep_ == "relcl" for t in chain[i:])
        negatable = i == 0 or chain[i - 1].dep_ not in _NEXT_CLAUSE
        for child in token.children:
            if (child.dep_ == "neg" and negatable) or (child.tag_ in _WH_TAGS and not relative):
                return False
            if child.dep_ == "mark" and child.lower_ in _QUESTION_MARKERS:
                return False
    return True


_NEXT_CLAUSE = frozenset(["conj", "parataxis", "dep"])
"""Links of a clause set beside a verb: a negation of that verb does not reach it ("I don't want insurance, just
book it"), while it reaches its complements ("I don't want to cancel or delete it": ``delete`` is a conjunct of
the complement ``cancel``, not of ``want``)."""


_UNREAD_PIPES = ("attribute_ruler", "lemmatizer")
"""Pipes whose annotations nothing here reads (only the tagger's tags, the parser's arcs and the words are read;
forms of *do* by ``_DO``): the parse skips them, about a third of its cost."""
_DO = frozenset({"do", "does", "did", "done", "doing"})
"""The forms of *do*, read from the words (the lemmatizer does not run)."""


_PARSES: OrderedDict[str, Doc] = OrderedDict()
"""The parses of the latest texts read (``_PARSES_KEPT`` at most), the least recently read dropped first."""
_PARSES_KEPT = 2048
_PARSES_LOCK = threading.Lock()


def _parse(text: str) -> Doc:
    """The parse of ``text``, once per distinct text (checks ask again of the same request and answer; the parse
    is the costliest step of a consent reading). Callers read it and never change it."""
    return _parsed((text,))[text]


def parse_texts(texts: Iterable[str]) -> None:
    """Parse those of ``texts`` not parsed yet, several in one batch (``nlp.pipe``: about 2.4 times cheaper a text
    than one by one), so that ``_parse`` finds them read. A caller passes the texts a reading will parse, not more:
    a text parsed in vain costs more than the batch saves."""
    _parsed(texts)


def _parsed(texts: Iterable[str]) -> dict[str, Doc]:
    """The parses of ``texts``, those not parsed yet in one batch."""
    wanted = list(dict.fromkeys(texts))
    with _PARSES_LOCK:
        found = {t: _PARSES[t] for t in wanted if t in _PARSES}
        for text in found:
            _PARSES.move_to_end(text)
    todo = [t for t in wanted if t not in found]
    if not todo:
        return found
    from aem_strands.compare.roles import english_parser  # the parser is loaded only when a request needs reading

    nlp = english_parser()
    docs = nlp.pipe(todo, disable=_UNREAD_PIPES) if len(todo) > 1 else [nlp(todo[0], disable=_UNREAD_PIPES)]
    new = dict(zip(todo, docs, strict=True))
    with _PARSES_LOCK:
        _PARSES.update(new)
        while len(_PARSES) > _PARSES_KEPT:
            _PARSES.popitem(last=False)
    return found | new


def clear_parses() -> None:
    """Forget every parse (a test's fresh start)."""
    with _PARSES_LOCK:
        _PARSES.clear()


_FRAME = "Can you "
"""The frame a verbless request is read in again: a modal question, whose first word after it can only be a verb."""


@functools.lru_cache(maxsize=1024)
def _request_parse(text: str) -> Doc:
    """The parse of a user's request. The small pipeline tags a sentence-initial imperative it cannot tell from a
    noun or an adjective as one ("Please close savings account 7720.": ``close`` an adjective; "Mark as complete.":
    ``Mark`` a proper noun), so a text with no verb at all is parsed again after ``_FRAME``, its first word
    lower-cased; that reading is kept when it makes the first word a base-form verb ("Savings account 7720." stays a
    noun phrase unless the frame reads ``savings`` as a verb)."""
    doc = _parse(text)
    if any(t.tag_.startswith("VB") or t.tag_ == "MD" for t in doc):
        return doc
    first = next((t for t in doc if t.dep_ != "intj" and not t.is_punct and t.tag_ != "UH"), None)
    if first is None or not first.is_alpha:
        return doc
    framed = _parse(_FRAME + first.lower_ + text[first.idx + len(first.text) :])
    own = len(_FRAME.split())
    return framed if len(framed) > own and framed[own].tag_ == "VB" else doc


@functools.lru_cache(maxsize=1024)
def asks_for(text: str, tool_name: str) -> bool:
    """Whether ``text`` asks for ``tool_name``'s action by a word naming it (see the module docstring)."""
    if not names_action(text, tool_name):
        return False
    return any(t.tag_ == "VB" and names_action(t.text, tool_name) and _open(t) for t in _request_parse(text))


def _phrase(verb: Token, kept: frozenset[str] | None = None) -> str:
    """The verb with its own dependents (those of ``kept`` only, when given), less the clauses that hang from them
    ("add a reminder" of "Add a reminder to cancel my subscription": what the reminder says is no part of the action
    asked)."""
    own = [c for c in verb.children if c.dep_ not in _CLAUSES and (kept is None or c.dep_ in kept)]
    tokens = [verb, *(t for c in own for t in _own_subtree(c))]
    return " ".join(t.text for t in sorted(tokens, key=lambda t: t.i))


def _own_subtree(token: Token) -> list[Token]:
    return [token, *(t for c in token.children if c.dep_ not in _NOUN_CLAUSES for t in _own_subtree(c))]


_NOUN_CLAUSES = frozenset(["acl", "relcl"])


@functools.lru_cache(maxsize=1024)
def open_phrases(text: str) -> tuple[str, ...]:
    """The verb phrases of the open base-form verbs of ``text`` (see the module docstring), each whole and as its
    core (the verb with its objects and particles, without prepositional phrases: "move my meeting" of "move my
    meeting to then")."""
    found: list[str] = []
    for verb in (t for t in _request_parse(text) if t.tag_ == "VB" and _open(t)):
        for phrase in (_phrase(verb), _phrase(verb, _CORE)):
            if phrase not in found:
                found.append(phrase)
    return tuple(found)


_CORE = frozenset(["dobj", "obj", "prt", "dative", "attr", "oprd", "acomp"])


def tool_readings(name: str, description: str, parameters: Sequence[str] = ()) -> tuple[str, ...]:
    """How a tool is read by meaning: its name's words ("delete alarm"), its description, and its name's words with
    its parameters' ("modify event: new start time, new attendees"); a reading a tool lacks is its name's words."""
    words = _words(name.rsplit(".", 1)[-1].rsplit("__", 1)[-1])
    with_parameters = f"{words}: {', '.join(_words(p) for p in parameters)}" if parameters else words
    return (words, description if description.strip() else words, with_parameters)


def _words(name: str) -> str:
    return " ".join(w.casefold() for w in _NAME_PARTS.findall(name))


@functools.cache
def _scorer() -> EmbeddingScorer:
    from aem_strands.compare.scorers import EmbeddingScorer  # the model loads only when a request needs it

    return EmbeddingScorer()


def means(
    text: str,
    tool_name: str,
    catalog: Sequence[tuple[str, str]],
    parameters: Mapping[str, Sequence[str]] | None = None,
) -> bool:
    """Whether an open verb phrase of ``text`` names ``tool_name``'s action by meaning: nearest to it among the
    ``catalog``'s tools (name, description) under most of their readings (``tool_readings``, with each tool's
    ``parameters`` but those more than half of the catalog declares, a session's context), at a cosine of at least
    ``MEANS`` (see the module docstring). ``False`` when the catalog does not define the tool or defines no other."""
    return _nearest_readings(text, tool_name, catalog, parameters) * 2 > _READINGS


def may_mean(
    text: str,
    tool_name: str,
    catalog: Sequence[tuple[str, str]],
    parameters: Mapping[str, Sequence[str]] | None = None,
) -> bool:
    """Whether an open verb phrase of ``text`` is nearest to ``tool_name`` under one reading at least (``means``
    asks for most): the readings disagree on what it asks for ("move my meeting": by the tools' parameters
    ``ModifyEvent``, by their names ``QueryCalendar``)."""
    return _nearest_readings(text, tool_name, catalog, parameters) > 0


def context_parameters(tools: Sequence[Sequence[str]]) -> frozenset[str]:
    """The parameters more than half of a catalog's tools declare (``tools``: each tool's parameter names): a
    session's context (a session token, an API key), the same for every action, so no part of what one does."""
    counts = Counter(p for declared in tools for p in declared)
    return frozenset(p for p, count in counts.items() if count > len(tools) / 2)


_READINGS = 3
"""The readings of a tool by meaning (``tool_readings``)."""


def _nearest_readings(
    text: str,
    tool_name: str,
    catalog: Sequence[tuple[str, str]],
    parameters: Mapping[str, Sequence[str]] | None,
) -> int:
    """Under how many readings an open verb phrase of ``text`` is nearest to ``tool_name`` at ``MEANS`` or more."""
    declared = parameters or {}
    frozen = tuple((n, tuple(declared.get(n, ()))) for n, _ in catalog)
    return _nearest_readings_of(text, tool_name, tuple(catalog), frozen)


@functools.lru_cache(maxsize=1024)
def _nearest_readings_of(
    text: str,
    tool_name: str,
    catalog: tuple[tuple[str, str], ...],
    parameters: tuple[tuple[str, tuple[str, ...]], ...],
) -> int:
    names = [n for n, _ in catalog]
    if tool_name not in names or len(names) < 2:
        return 0
    phrases = open_phrases(text)
    if not phrases:
        return 0
    declared = dict(parameters)
    shared = context_parameters([declared.get(n, ()) for n in names])
    own_parameters = {n: [p for p in declared.get(n, ()) if p not in shared] for n in names}
    readings = [tool_readings(n, d, own_parameters[n]) for n, d in catalog]
    scorer = _scorer()
    own = names.index(tool_name)
    scorer.embed([*phrases, *(r[reading] for reading in range(_READINGS) for r in readings)])  # one batch
    vectors = scorer.vectors(list(phrases))
    tools = [scorer.vectors([r[reading] for r in readings]) for reading in range(_READINGS)]
    best = 0
    for vector in vectors:
        nearest = 0
        for matrix in tools:
            cosines = matrix @ vector
            nearest += int(int(cosines.argmax()) == own and float(cosines[own]) >= MEANS)
        best = max(best, nearest)
    return best


@functools.lru_cache(maxsize=1024)
def clauses(sentence: str) -> tuple[str, ...]:
    """A sentence with its leading interjection apart ("Sure" and "may I know if they have vegetarian options?" of
    "Sure, may I know if they have vegetarian options?"), else the sentence: an answer's yes or no is its own act."""
    doc = _parse(sentence)
    lead = 0
    while lead < len(doc) and doc[lead].dep_ == "intj":
        lead += 1
    rest = lead
    while rest < len(doc) and doc[rest].is_punct:
        rest += 1
    if lead == 0 or rest >= len(doc):
        return (sentence,)
    return (doc[:lead].text, doc[rest:].text)


_PAST = frozenset(["VBD", "VBN"])


@functools.lru_cache(maxsize=1024)
def reports(sentence: str) -> bool:
    """Whether an agent's sentence reports a done action: its main verb is a past form, in no question and with no
    modal (see the module docstring: "You would like to ... name it Grocery run?" is none, whatever the parse)."""
    if "?" in sentence:
        return False
    doc = _parse(sentence)
    return not any(t.tag_ == "MD" for t in doc) and any(t.dep_ == "ROOT" and t.tag_ in _PAST for t in doc)


@functools.lru_cache(maxsize=1024)
def asks_value(sentence: str) -> bool:
    """Whether a sentence is a question for a value: a ``?`` and a wh-word outside a relative clause."""
    if "?" not in sentence:
        return False
    return any(t.tag_ in _WH_TAGS and not any(a.dep_ == "relcl" for a in [t, *t.ancestors]) for t in _parse(sentence))


def action_verb(tool_name: str) -> str:
    """The word of a tool's name that says what it does: its first action word (``steps.action_words``: ``delete``
    of ``DeleteReminder``, ``refund`` of ``issue_refund``), or the whole name when it has none."""
    parts = _NAME_PARTS.findall(tool_name.rsplit(".", 1)[-1].rsplit("__", 1)[-1])
    wanted = action_words(tool_name)
    return next((p.casefold() for p in parts if p.casefold() in wanted), tool_name)


def names_verb(text: str, tool_name: str) -> bool:
    """Whether ``text`` names the tool's action word (``action_verb``), not only the object it acts on ("Delete it"
    names ``DeleteReminder``; "your next reminder" does not)."""
    return names_action(text, action_verb(tool_name))


@functools.lru_cache(maxsize=1024)
def names_by_verb(text: str, tool_name: str) -> bool:
    """Whether a verb of ``text`` in no past form names the tool's action word (see the module docstring)."""
    if not names_verb(text, tool_name):
        return False
    return any(t.tag_.startswith("VB") and t.tag_ not in _PAST and names_verb(t.text, tool_name) for t in _parse(text))


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


_CONDITIONS = frozenset(["if", "unless", "as"])
"""Subordinators of a condition clause (``as`` only in "as long as" / "so long as")."""


@functools.lru_cache(maxsize=1024)
def conditional(text: str) -> bool:
    """Whether ``text`` sets a condition by a clause of its own ("Yes if the fee is under $20.", "Go ahead unless
    it costs extra.", "Sure, as long as there is no fee."): whether the condition held is not the parse's to
    say. A bare politeness clause of three words or fewer ("if you can", "if possible") sets none."""
    for token in _parse(text):
        if token.dep_ != "mark" or token.lower_ not in _CONDITIONS or token.head.dep_ not in ("advcl", "ROOT"):
            continue
        if token.lower_ == "as" and (token.i == 0 or token.doc[token.i - 1].lower_ != "long"):
            continue
        if sum(not w.is_punct for w in token.head.subtree) > 3:
            return True
    return False


@functools.lru_cache(maxsize=1024)
def refuses_by_ellipsis(text: str) -> bool:
    """Whether ``text`` refuses by a negated verb standing for the proposed action (see the module docstring)."""
    for token in _parse(text):
        if token.lower_ not in _DO and token.tag_ != "MD":
            continue
        if token.dep_ == "aux" or not any(c.dep_ == "neg" for c in token.children):
            continue
        if not any(c.dep_ in _OWN for c in token.children):
            return True
    return False


@functools.lru_cache(maxsize=1024)
def past_negated_noun(text: str) -> str | None:
    """The imperative a one-sentence answer gives past a noun phrase negated by the determiner "no" that hangs from
    it ("go ahead." of "No problem, go ahead."; "No worries, go ahead."), when that determiner is the text's only
    negation and its root is an open base-form verb; else ``None``. "No, go ahead." (an interjection), "No thanks."
    and "No need, thanks." (no verb) give ``None``: there the "no" answers the question."""
    doc = _request_parse(text)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].tag_ != "VB" or not _open(roots[0]):
        return None
    root = roots[0]
    if any(t.dep_ == "neg" for t in doc):
        return None
    negating = [t for t in doc if t.lower_ == "no"]
    if not negating or any(t.dep_ != "det" or t.head.head.i != root.i or t.head.i == root.i for t in negating):
        return None
    dropped = {w.i for t in negating for w in t.head.subtree}
    kept = [t for t in doc if t.i not in dropped]
    while kept and kept[0].is_punct:
        kept.pop(0)
    return "".join(t.text_with_ws for t in kept).strip() or None
