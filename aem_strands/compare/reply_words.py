"""Closed vocabularies the reply reader relies on: opposed state words, negation cues, units, names
of days and months, and the common words that start a sentence without naming anything.

Each is a plain table, so a reader can see (and a domain can extend) exactly what is recognised.
"""

from __future__ import annotations

import functools
import re

_OPPOSED: dict[str, tuple[tuple[str, ...], ...]] = {
    # group: poles, each a tuple of words (any inflection: words are stemmed); a negation flips a
    # word of a two-pole group to the other pole.
    "outcome": (
        ("confirmed", "booked", "reserved", "scheduled", "successful", "successfully", "succeeded", "completed",
         "placed", "purchased", "done", "approved", "accepted", "processed", "made"),
        ("failed", "unsuccessful", "unable", "error", "declined", "rejected", "denied"),
    ),
    "switch": (("on", "enabled", "activated"), ("off", "disabled", "deactivated")),
    "direction": (("up", "increased", "rose", "risen", "grew", "gained", "higher"),
                  ("down", "decreased", "fell", "fallen", "dropped", "declined", "lower")),
    "inclusion": (("including", "included", "inclusive"), ("excluding", "excluded", "exclusive")),
    "openness": (("open", "opened"), ("closed", "shut")),
    "availability": (("available", "free", "vacant"), ("unavailable", "busy", "occupied")),
    "renewal": (("renewed", "extended", "reactivated"), ("cancelled", "canceled", "terminated", "expired")),
    "quality": (("good", "safe"), ("bad", "poor", "terrible", "unsafe")),
    "permission": (("allowed", "permitted"), ("forbidden", "prohibited", "banned")),
    "weather": (("sunny", "clear"), ("rainy", "rain", "raining", "showers"), ("cloudy", "overcast"),
                ("snowy", "snow", "snowing"), ("windy",), ("stormy", "thunderstorms")),
    "temperature": (("hot", "warm"), ("cold", "chilly")),
    "day": (("today", "tonight"), ("tomorrow",), ("yesterday",)),
    "trip": (("one-way", "oneway"), ("round-trip", "roundtrip")),
    "order": (("ascending",), ("descending",)),
    "sign": (("positive",), ("negative",)),
    "refund": (("refundable",), ("nonrefundable", "non-refundable")),
    "genre": (("pop",), ("rock",), ("jazz",), ("blues",), ("metal", "metalcore"), ("disco",), ("reggae",),
              ("techno",), ("punk",), ("classical",), ("rap", "hip-hop"), ("comedy", "comedies"),
              ("thriller", "thrillers"), ("horror",), ("drama", "dramas"), ("documentary", "documentaries")),
    "arrival": (("arrive", "arrives", "arrival", "arriving", "lands"), ("depart", "departs", "departure", "leaves")),
}  # fmt: skip

DIRECTIONS: dict[str, str] = {
    "up": "up", "rise": "up", "rose": "up", "increas": "up", "grew": "up", "gain": "up", "higher": "up", "more": "up",
    "down": "down", "fell": "down", "fall": "down", "decreas": "down", "drop": "down", "declin": "down",
    "lower": "down", "less": "down",
}  # fmt: skip
"""Stems that give a percentage its direction (``up 8%``, ``fell 8%``)."""

NEGATION_CUES = frozenset(
    ["not", "no", "never", "cannot", "can't", "won't", "didn't", "don't", "doesn't", "isn't", "wasn't", "aren't",
     "weren't", "couldn't", "wouldn't", "shouldn't", "haven't", "hasn't", "hadn't", "nor", "non"]
)  # fmt: skip
"""Cues that negate the content word they govern (``non`` as in ``non-refundable``; ``nothing``/``none``/
``nobody`` do not: see ``reply_signals``)."""
NEGATIVE_WORDS = frozenset(["unable", "without", "nothing", "none", "neither", "failed", "lack", "lacks"])
"""Words that deny without governing one word (``unable to``, ``without a view``)."""
DENYING_PHRASES = (
    r"\btoo (?:early|late|soon|busy|full|far|close|small|big|short|long|young|old|\w+ly) (?:to|for)\b",
    r"\bout of (?:stock|service|order|season|range|reach|date|time)\b|\b(?:sold|run|ran|runs|running) out\b",
    r"\bno longer\b",
)
"""Phrases that deny without a negation cue: ``too early to refill`` (it cannot be refilled yet), ``out of stock``
(the pharmacy does not have it), ``sold out``."""


def negation_pattern(*more: str) -> re.Pattern[str]:
    """A search for anything that denies in a folded text: a negation cue, a negative word, ``n't``, a denying
    phrase, or one of ``more`` (words or patterns a caller adds)."""
    words = "|".join([*(re.escape(c) for c in sorted(NEGATION_CUES | NEGATIVE_WORDS)), *more])
    return re.compile(rf"\b(?:{words})\b|n't\b|" + "|".join(DENYING_PHRASES))


GOVERNED_SKIP = frozenset(
    ["be", "is", "are", "was", "were", "been", "being", "a", "an", "the", "very", "really", "quite", "so", "too",
     "any", "yet", "currently", "able", "to", "have", "has", "had", "get", "got", "going", "do", "does", "did",
     "seem", "seems", "i", "you", "we", "it", "it's", "they", "there", "this", "that", "these", "those", "at", "all",
     "in", "on", "for", "of", "me", "my", "your", "our", "their", "one", "will", "would", "can", "could",
     "should", "may", "might", "shall", "just", "also", "still", "longer", "more", "much", "as", "sure", "worry",
     "problem", "and", "or", "but", "if", "then", "what", "which", "find", "found", "see", "know", "think", "like",
     "want", "need", "let", "please", "thanks", "thank", "sorry", "unfortunately", "ok", "okay", "yes", "here",
     "having", "possess", "offer", "serve", "provide", "include"]
)  # fmt: skip
"""Words a negation reaches past, and words too generic to be a negated fact on their own."""

HEDGES = frozenset(
    ["around", "about", "approximately", "approx", "roughly", "nearly", "almost", "expect", "expected", "likely",
     "probably", "maybe", "perhaps", "estimated", "some"]
)  # fmt: skip
"""Words that soften a stated value without changing it (``Around 27 percent.``): not a difference
between two statements of the same facts."""


WEEKDAYS: dict[str, str] = {
    name: name[:3] for name in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
}

UNITS: dict[str, tuple[str, float]] = {
    "kg": ("mass g", 1000.0), "kilograms": ("mass g", 1000.0), "kilogram": ("mass g", 1000.0),
    "g": ("mass g", 1.0), "grams": ("mass g", 1.0), "lb": ("mass g", 453.59237), "lbs": ("mass g", 453.59237),
    "oz": ("mass g", 28.349523125), "km": ("length m", 1000.0), "kilometers": ("length m", 1000.0),
    "kilometres": ("length m", 1000.0), "miles": ("length m", 1609.344), "mile": ("length m", 1609.344),
    "mi": ("length m", 1609.344), "meters": ("length m", 1.0), "metres": ("length m", 1.0),
    "ft": ("length m", 0.3048), "feet": ("length m", 0.3048), "mph": ("speed km/h", 1.609344),
    "miles per hour": ("speed km/h", 1.609344), "km/h": ("speed km/h", 1.0), "kph": ("speed km/h", 1.0),
    "miles an hour": ("speed km/h", 1.609344), "kilometers per hour": ("speed km/h", 1.0),
    "°c": ("temperature C", 1.0), "°f": ("temperature F", 1.0), "degrees celsius": ("temperature C", 1.0),
    "degrees fahrenheit": ("temperature F", 1.0), "degree fahrenheit": ("temperature F", 1.0),
    "degrees f": ("temperature F", 1.0), "degrees c": ("temperature C", 1.0), "degrees": ("temperature", 1.0),
    "degree": ("temperature", 1.0), "stars": ("rating", 1.0), "star": ("rating", 1.0), "gb": ("data GB", 1.0),
    "mb": ("data GB", 0.001), "fahrenheit": ("temperature F", 1.0), "celsius": ("temperature C", 1.0),
}  # fmt: skip
"""Measurement units: the dimension compared and the factor to its base unit (``5 kg`` = ``5000 g``)."""

TITLES = frozenset(["sir", "madam", "ma'am", "dr", "mr", "mrs", "ms", "miss", "mister", "prof", "professor"])
"""Forms of address and titles: no name by themselves (``For what city, Sir?``), and a name reads the same
without them (``Dr. Anne Han`` / ``Anne Han``)."""

COMMON_STARTERS = frozenset(
    ["sure", "okay", "ok", "great", "yes", "yeah", "no", "alright", "certainly", "absolutely", "perfect", "thanks",
     "thank", "hi", "hello", "hey", "sorry", "unfortunately", "please", "well", "so", "also", "and", "but", "or",
     "the", "a", "an", "this", "that", "these", "those", "there", "here", "it", "its", "it's", "i", "i'm", "i've",
     "i'll", "i'd", "you", "your", "you're", "you'll", "we", "we're", "we've", "they", "their", "he", "she", "his",
     "her", "my", "our", "what", "which", "where", "when", "who", "how", "why", "whose", "would", "could", "can",
     "should", "shall", "will", "do", "does", "did", "is", "are", "was", "were", "have", "has", "had", "let", "let's",
     "enjoy", "have", "please", "good", "nice", "wonderful", "excellent", "awesome", "done", "booked", "found",
     "there's", "that's", "what's", "how's", "any", "anything", "is", "all", "one", "some", "if", "as", "for", "on",
     "in", "at", "by", "to", "from", "with", "your", "after", "before", "since", "just", "noted", "got", "indeed",
     "of", "not", "none", "nothing", "everything", "both", "each", "every", "may", "might", "must", "shall", "then",
     "now", "today", "tomorrow", "tonight", "yesterday", "according", "based", "currently", "unluckily", "sadly",
     "regrettably", "apologies", "welcome", "bye", "goodbye", "cheers", "hmm", "oh", "ah", "wow", "fine", "right",
     "correct", "confirmed", "confirm", "please", "book", "shall", "should", "maybe", "perhaps", "again", "another",
     "other", "more", "many", "much", "several", "most", "first", "next", "last", "total", "payment", "reservation",
     "booking", "flight", "flights", "table", "tickets", "ticket", "hotel", "restaurant", "event", "movie",
     "appointment", "alarm", "weather", "temperature", "profit", "revenue", "sales", "report", "order", "account",
     "these", "such", "how", "ok", "yep", "nope", "unable", "successfully", "great", "cool", "sounds", "looks",
     "seems", "try", "check", "call", "make", "search", "searching", "looking", "checking", "would", "want",
     "glad", "happy", "hope", "hopefully", "congratulations", "definitely", "understood", "actually", "apparently",
     "alternatively", "otherwise", "additionally", "however", "meanwhile", "luckily", "fortunately", "though",
     "note", "remember", "welcome", "thankfully", "enjoy", "visit", "take", "go", "give", "tell", "pick", "select",
     "choose", "would", "consider", "shall", "ready", "unfortunate", "excuse", "pardon", "information", "details",
     "start", "begin", "get", "set", "play", "find", "rent", "buy", "stream", "cast", "watch", "listen", "reserve",
     "need", "send", "transfer", "share", "add", "use", "see", "keep", "leave", "return", "pay", "schedule",
     "playing", "starting", "transferring", "sending", "reserving", "booking", "getting", "searched", "humidity",
     "yup", "yeah", "yea", "till", "until", "location", "day", "date", "time", "city", "place", "name", *TITLES]
)  # fmt: skip
"""Capitalised sentence starts that name nothing; any other first word that is capitalised is read as
a name (``John will join you``)."""


@functools.lru_cache(maxsize=1 << 15)
def stem(word: str) -> str:
    """A crude, symmetric stem (``booked``/``booking``/``books`` → ``book``), enough to match a word
    with its inflections on the other side."""
    word = word.casefold().replace("\u2019", "'")
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


STATE_WORDS: dict[str, tuple[str, str, str | None]] = {}
"""word or stem → (group, pole, the other pole of a two-pole group)."""

PARTICLES: dict[str, frozenset[str]] = {
    "on": frozenset(["switch", "turn", "power", "put", "stay", "keep", "kept", "left", "turned", "switched"]),
    "off": frozenset(["switch", "turn", "power", "put", "stay", "keep", "kept", "left", "turned", "switched"]),
    "up": frozenset(["go", "went", "gone"]),
    "down": frozenset(["go", "went", "gone"]),
}
"""Particles that are state words only after one of these stems (``switched on``; not ``on Friday``),
at the end of a clause after a form of *be* (``the light is on.``), or before ``by``/``to`` (``up by 8%``)."""
for _group, _poles in _OPPOSED.items():
    for _index, _pole in enumerate(_poles):
        _name = _pole[0]
        _other = _poles[1 - _index][0] if len(_poles) == 2 else None
        for _word in _pole:
            STATE_WORDS.setdefault(_word, (_group, _name, _other))
            STATE_WORDS.setdefault(stem(_word), (_group, _name, _other))
