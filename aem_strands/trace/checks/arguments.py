"""Arguments: every value the agent passes to a tool is grounded in what came before it, and fits the tool's schema.

A tool call's argument values (each scalar leaf, nested ones included) must appear earlier in the trace: in the
user's messages, the goal, the agent's instructions (``Trace.instructions``: a policy's fees and limits), the
initial state, an earlier step's state, an earlier observation (what a tool returned
or computed: a ``calculate`` result), or an earlier call's arguments (the agent's own replies do not count: a value
it made up and then said is still made up, unless the user's answer to that reply took it up without
denying anything: "Will you pick the car up on March 6th?" / "Oh, yeah."). "Appear" is the product's
typed equivalence (``trace.grounding.GroundingIndex``): ``order 123`` grounds ``ORDER_123``, ``five days`` grounds
``5 days``, ``$40.00`` grounds ``40``, ``two people`` grounds ``2``, ``SF`` grounds ``San Francisco``, ``March
13th`` grounds ``2019-03-13``; numbers are compared as numbers and identifiers as whole tokens, so ``$40.00`` does
not ground ``4000``, nor ``C-3003`` ``3003``. Relative and yearless dates are read against the known today
(``reference_date``: ``initial_state`` keys ``today``, ``current_date``, ``reference_date``, ``date``..., or the
trace's metadata); without one a yearless date grounds its month and day in any year, and a relative date any date
it names for some today (``grounding_dates``). Values worked out from what was said are grounded too: a time or
date shifted by a said length (``8 am`` and ``30 minutes before`` give ``07:30``), the start of a period up to a
known today, a month by a date in it, ``6:30`` said without am or pm in either half of the day, the days of ``next
week``, the ends of ``9/15-9/21``, a currency by an amount in it (``forty bucks`` grounds ``USD``), and a name
composed of words each said or seen earlier (``1 on 1 with Olivie`` after "one on one" and "Olivie"). A value in
the form its tool takes is read in that form: a yearless date in the format its description gives (``12-10`` under
``Format: %m-%d`` is December 10), a field's key of words said together (``name: blood_pressure`` after "my blood
pressure"; a category such as ``doc_type: police_report`` stays open), a language code by the language named
(``tgt_lang: fr`` after "to French").

Exempt: booleans (written as text too, ``"True"``, where the schema types the argument boolean: a flag is no
value anyone says; whether it is the one asked for is a matter of the request), null, the integers 0 and 1, empty
strings, values the tool's schema gives (``enum``, ``const``, ``default``, or choices its description quotes: the
tool, not the conversation, says what they may be), and a word of the tool's own name (``folder: inbox`` of
``read_inbox``: choosing the tool said it). A free-text argument (``ArgKind.FREE_TEXT``: a ``message``,
``reason``, ``body``...; also a ``thought``, ``expression``, ``query``, search ``keywords`` or shell ``command``,
and any string of six words or more not found whole, most of whose words were said) is the agent's own wording;
only the identifiers and amounts inside it must be grounded, each alone or with the word or two words beside it
(``order 123``, ``7 pm``, ``17 April 2026``), an amount with its unit run on also alone (``24.5p/kWh``); in an
arithmetic ``expression`` / ``formula`` not said whole, each number apart (``5*10`` after "length is 5 and width
is 10"). A value the user corrects in the same message ("18342. No wait, ... It's 18324.") grounds nothing
(``grounding.without_corrected``).

A value found nowhere earlier gives ``arguments.ungrounded`` with the argument's path and value, except where it
may be what the user meant in other words, which no rule here settles: a word or two with no typed reading
(``paraphrasable``: ``Drama`` after "the Play genre"), or a name an earlier text names in part (``Livermore 13
Cinema`` after "Livermore Cinema": ``GroundingIndex.named_in_part``), or a date or time that may be worked out
from what was (a date-time whose date was said, a weekly series, the bounds of "around 6 PM":
``GroundingIndex.may_be_derived``), except where the derivation is plain (``grounding_series``: the next of a
weekly series the user asked for, one week after the same argument of the previous call; an end that is a grounded
start of the same call moved on by a said length; the bounds of a read-only tool's window that enclose a said time
or lie on a said date: grounded).
Settled all the same, as no words could have said them otherwise: a city by its
own name or a name of capitalised words none of whose words (nor a short form) was said
(``GroundingIndex.unsaid_name``: ``Sydney``, ``Union Station``); a word where the argument takes typed values (its
schema's format or type, a format its description gives, the typed values earlier seen under its key) or cities
(its description says so) and no word of it was said; a value the argument's description lists as a choice when
the user said another of them (``profit`` of "revenue, profit or units" after "EU revenue"); any value of a trace
in which the user said nothing (no words, so no other words). The judge is asked the open ones when one is given
(a no is the finding, method ``judge``); without one the question is ``undecided`` (the trace inconclusive, never a
pass). After the user handed the choice among an earlier tool's options to the agent (``grounding_delegation``:
"Want me to pick one?" answered "Aisle please"), a value found nowhere of an argument those options hold is
undecided too (a judge may accept the choice), never a rule's finding. A value outside its schema's ``enum`` /
``const``, or a missing ``required`` argument, gives ``arguments.schema`` (``argument_schema``). Not applicable
when no tool call has an argument.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

from aem_strands.compare.gazetteer import places
from aem_strands.compare.identifiers import is_identifier
from aem_strands.compare.reply_words import negation_pattern
from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import ParseContext, Text
from aem_strands.tools import ArgKind, ToolDefinition, arg_kind
from aem_strands.trace.checks.argument_forms import boolean_text, said_in_form
from aem_strands.trace.checks.argument_names import named_kind, names_place
from aem_strands.trace.checks.argument_schema import argument_parts, leaf_schema, path_text, schema_findings
from aem_strands.trace.checks.context import TraceContext
from aem_strands.trace.checks.steps import step_fragment
from aem_strands.trace.grounding import GroundingIndex, without_corrected
from aem_strands.trace.grounding_dates import trace_today
from aem_strands.trace.grounding_delegation import hands_choice, options
from aem_strands.trace.grounding_series import asks_weekly, read_window, said_span, weekly_series
from aem_strands.trace.names import canonical_tool_name
from aem_strands.trace.types import (
    ActionType,
    Dimension,
    DimensionVerdict,
    Environment,
    Finding,
    FindingMethod,
    Step,
    Trace,
    not_applicable,
)
from aem_strands.types import JsonValue

RULES = ("arguments.ungrounded", "arguments.schema")
"""The rules this dimension gives (``arguments.schema`` from ``argument_schema``)."""
_EDGE = "\"'.,;:!?()[]{}<>"


def exempt(value: JsonValue) -> bool:
    """Values no argument needs to ground: booleans, null, 0 and 1, empty strings."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, (int, float)) and value in (0, 1):
        return True
    return isinstance(value, str) and not value.strip()


_FREE_TEXT_NAMES = frozenset(
    {"thought", "thoughts", "reasoning", "expression", "formula", "query", "search_query", "question", "prompt",
     "subject", "email_body", "message_body", "command", "cmd", "shell_command", "script", "equation", "keywords",
     "keyword", "search_keywords"}
)  # fmt: skip
"""Argument names of the agent's own wording besides ``tools.FREE_TEXT_NAMES``; a shell command is code the agent
writes, as an expression is (``cat notes.txt``: only the identifiers inside it are looked up); search keywords are
the agent's words for what it looks for (``hotel booking``)."""
_EXPRESSION_NAMES = frozenset({"expression", "formula", "equation"})
"""Argument names of an arithmetic expression: its numbers are read apart from its operators (``5*10``)."""
_OPERATORS = re.compile(r"[-+*/^%=(),]")
_COMMAND_NAMES = frozenset({"command", "cmd", "shell_command", "script"})
"""Argument names of a shell command: its options are the agent's own (``_free_text_values``)."""
_WORDING = 6
"""A string of this many words or more, not found whole, is read as wording: only the values inside it count."""


def _free_text_values(text: str, command: bool = False, expression: bool = False) -> Iterator[tuple[str, ...]]:
    """For each identifier or amount inside free text, the readings any of which grounds it: the token alone, and
    with the word before or after it (``order 123``, ``7 pm``, ``March 13``). In a shell ``command`` an option
    (``-5``, ``-n``, ``--lines=20``) and the number right after one (``-n 20``) are the agent's own choice. In an
    arithmetic ``expression`` the operators and brackets part the numbers (``5*10`` holds ``5`` and ``10``)."""
    raw = (_OPERATORS.sub(" ", text) if expression else text).split()
    words = [w.strip(_EDGE) for w in raw]
    for i, word in enumerate(words):
        if not word or not (any(ch.isdigit() for ch in word) or is_identifier(word)):
            continue
        if command and (raw[i].startswith("-") or (i > 0 and raw[i - 1].startswith("-") and word.isdigit())):
            continue
        readings = [word]
        if i > 0 and words[i - 1]:
            readings.append(f"{words[i - 1]} {word}")
        if i + 1 < len(words) and words[i + 1]:
            readings.append(f"{word} {words[i + 1]}")
        if i > 1 and words[i - 1] and words[i - 2]:
            readings.append(f"{words[i - 2]} {words[i - 1]} {word}")  # "17 April 2026"
        if i + 2 < len(words) and words[i + 1] and words[i + 2]:
            readings.append(f"{word} {words[i + 1]} {words[i + 2]}")
        amount = _LEADING_AMOUNT.match(word)
        if amount is not None and amount.end() < len(word):
            readings.append(amount.group())  # "24.5p/kWh": the amount, its unit aside
        yield tuple(readings)


_LEADING_AMOUNT = re.compile(r"[$\u20ac\u00a3]?\d+(?:\.\d+)?(?=-?[a-z%/]+$)", re.IGNORECASE)
"""An amount written with its unit run on (``24.5p/kWh``, ``60.1p``, ``3kg``, ``24-hour``): the amount is read alone
too."""
_EMAIL_LOCAL = re.compile(r"(?<![\w.+-])([A-Za-z0-9][\w.+-]*)@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
"""An e-mail address said, its local part taken apart: a whole token of what the user said (an account id the
address spells)."""
_QUOTED = re.compile(r"['\"`]([^'\"`]{1,40})['\"`]")


def _given_by_schema(value: JsonValue, schema: Mapping[str, Any] | None) -> bool:
    """Whether the schema itself gives ``value``: an ``enum`` or ``const`` argument, its ``default``, or one of
    two or more choices its description quotes ("The type of the event, either 'meeting' or 'event'.")."""
    if schema is None:
        return False
    if "enum" in schema or "const" in schema or ("default" in schema and schema["default"] == value):
        return True
    description = schema.get("description")
    quoted = _QUOTED.findall(description) if isinstance(description, str) else []
    return isinstance(value, str) and len(quoted) >= 2 and value.casefold() in {q.casefold() for q in quoted}


def _named_by_tool(value: JsonValue, tool: str) -> bool:
    """Whether the value is a word of the tool's own name (``inbox`` of ``read_inbox``): choosing the tool said it."""
    return isinstance(value, str) and value.strip().casefold() in canonical_tool_name(tool).split("_")


def _values_to_ground(step: Step, definition: ToolDefinition | None) -> Iterator[tuple[str, JsonValue, bool]]:
    """(path, the argument's value, whether it is read as wording) for each leaf that must be grounded."""
    for parts, value in argument_parts(dict(step.arguments), []):
        if exempt(value) or _named_by_tool(value, step.tool_name or ""):
            continue
        top = str(parts[0])
        top_schema = definition.properties.get(top) if definition is not None else None
        schema = leaf_schema(top_schema, parts[1:]) if top_schema is not None else None
        if _given_by_schema(value, schema) or boolean_text(value, schema):
            continue
        name = str(parts[-1]) if not isinstance(parts[-1], int) else top
        kind = arg_kind(name, schema if schema is not None else {})
        path = path_text(parts)
        wording = kind is ArgKind.FREE_TEXT or name.lower() in _FREE_TEXT_NAMES
        yield path, value, wording and isinstance(value, str)


def _index_step(index: GroundingIndex, step: Step) -> None:
    """What a step adds to the trace's known values once it has happened."""
    where = f"step {step.step_id}"
    if step.action_type is ActionType.USER and step.content:
        said = without_corrected(step.content)
        index.add_text(said, f"user message ({where})")
        for local in _EMAIL_LOCAL.findall(said):  # "yara_garcia_1905@gmail.com" gives the user id yara_garcia_1905
            index.add_text(local, f"the e-mail address in user message ({where})")
    if step.action_type is ActionType.TOOL_CALL:
        index.add_json(dict(step.arguments), f"arguments of {where}")
        observation = step.observation
        if isinstance(observation, str):
            index.add_text(observation, f"observation of {where}")
        elif observation is not None:
            index.add_json(observation, f"observation of {where}")
    if step.state_after:
        index.add_json(dict(step.state_after), f"state after {where}")


_DENIES = negation_pattern("wait", "actually", "instead", "rather", "change")


def _accepts(step: Step, user: Step) -> bool:
    """Whether the user's answer takes up what the agent's reply ``step`` said (a confirmation asked as a
    statement, "Booking a table at Left Bank Larkspur Brasserie on March 1st.", an offer, "One date is March
    2nd."): the answer denies nothing (``reply_words.negation_pattern``, or a change of mind: ``wait``,
    ``actually``, ``instead``). A reply of no values grounds nothing, whatever the answer."""
    return bool(step.content) and not _DENIES.search((user.content or "").casefold())


def paraphrasable(value: JsonValue) -> bool:
    """Whether a value not found may still have been said in other words, which no rule here can settle: a word
    or two with no typed reading (no number, date, identifier, phone or e-mail), two words only when they name no
    place (``Drama`` for "the Play genre", ``Indian`` for "some Punjabi"; ``San Jose`` is settled). Other values
    are settled: they were said in some form the typed equivalence knows, or not at all."""
    if not isinstance(value, str) or len(value.split()) > 2 or any(ch.isdigit() for ch in value):
        return False
    # One word may be a common word that is also some town's name ("Pop", "Thai"); two are a place's own name.
    return isinstance(typed_value(value), Text) and (len(value.split()) == 1 or not places(value).any)


_LIST_SPLIT = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s*/\s*")


def _listed(schema: Mapping[str, Any] | None) -> list[str]:
    """The values an argument's description lists as its choices ("revenue, profit or units"), else none."""
    description = schema.get("description") if schema is not None else None
    if not isinstance(description, str) or len(description) > 200:
        return []
    items = [item.strip() for item in _LIST_SPLIT.split(description.strip().rstrip("."))]
    return items if len(items) >= 2 and all(item and len(item.split()) <= 2 for item in items) else []


def _another_listed(index: GroundingIndex, value: JsonValue, schema: Mapping[str, Any] | None) -> str | None:
    """Another of the choices the argument's description lists, said earlier, when ``value`` is one of them: the
    user chose that one (``revenue`` of "revenue, profit or units" for ``profit``), which settles the value."""
    choices = _listed(schema)
    if not isinstance(value, str) or value.casefold() not in {c.casefold() for c in choices}:
        return None
    return next((c for c in choices if c.casefold() != value.casefold() and index.find(c) is not None), None)


_FORMAT_TEXT = re.compile(r"%[HMSYmdI]|\b(?:YYYY|HH:MM|MM/DD|DD/MM)\b")
_CITY = re.compile(r"\b(?:city|town)\b", re.IGNORECASE)
_NAME = re.compile(r"\bname\b|\bperformer\b", re.IGNORECASE)


def _capitalised(value: JsonValue) -> bool:
    """Whether a value is written as a proper name: every word capitalised (``Neapolitan``, ``Die Young``)."""
    return isinstance(value, str) and bool(value.split()) and all(w[:1].isupper() for w in value.split())


_TYPED_KINDS = (ArgKind.DATE, ArgKind.EMAIL, ArgKind.URI, ArgKind.NUMBER)


def _typed_argument(index: GroundingIndex, path: str, value: JsonValue, schema: Mapping[str, Any] | None) -> str | None:
    """Why an argument's value is no words that could have been said in other words: its schema's ``format`` or
    ``type`` (a date, e-mail, URI or number), a format its description gives (``Format: %H:%M:%S``), a city
    argument (``City where the event is taking place``: a city is said by one of its names) or a name argument
    (``Name of the restaurant``, ``Performer's name``: a name is said by its words) none of whose words was said,
    the value written as a name, or the typed values earlier states, observations or calls held under its name
    (``session_token``); else ``None``."""
    if schema is not None:
        kind = arg_kind(path.rsplit(".", 1)[-1], schema)
        if kind in _TYPED_KINDS:
            return f"the schema of {path!r} makes it a {kind.value}"
        description = schema.get("description")
        if isinstance(description, str) and _FORMAT_TEXT.search(description):
            return f"the description of {path!r} gives its format ({description[:60]!r})"
        if isinstance(description, str) and _CITY.search(description) and not index.any_word_said(str(value)):
            return f"{path!r} is a city ({description[:60]!r}) and no word of {value!r} was said"
        is_name = isinstance(description, str) and _NAME.search(description) is not None
        if is_name and _capitalised(value) and not index.any_word_said(str(value)):
            return f"{path!r} is a name ({str(description)[:60]!r}) and no word of {value!r} was said"
    named = named_kind(path, value)
    if named is not None:
        return named
    if names_place(path, value) and not index.any_word_said(str(value)):
        return f"{path!r} is a place by its name and no word of {value!r} was said"
    earlier = index.typed_key(path)
    return f"earlier values of {path!r} are typed ({earlier!r}), not words" if earlier is not None else None


def _schema_of(definition: ToolDefinition | None, path: str) -> Mapping[str, Any] | None:
    if definition is None:
        return None
    parts = path.replace("[", ".[").split(".")
    top = definition.properties.get(parts[0])
    keys: list[str | int] = [int(p[1:-1]) if p.startswith("[") else p for p in parts[1:]]
    return leaf_schema(top, keys) if top is not None else None


def _finding(
    step: Step, path: str, value: JsonValue, whole: JsonValue, method: FindingMethod, chosen: str | None
) -> Finding:
    inside = f" (in {whole!r})" if whole != value else ""
    judged = "; the judge found it nowhere in other words either" if method is FindingMethod.JUDGE else ""
    if chosen is not None:
        judged += f"; the user chose {chosen!r}, another of the values the argument's description lists"
    return Finding(
        Dimension.ARGUMENTS,
        "arguments.ungrounded",
        f"step {step.step_id}: argument {path!r} of {step.tool_name} is {value!r}{inside}, which appears nowhere "
        "before the call (user messages, goal, initial state, earlier states, observations and arguments): the "
        f"agent may have invented it{judged}",
        step.step_id,
        step.index,
        {"step": step_fragment(step), "argument": path, "value": value},
        method,
    )


def _last_key(path: str) -> str:
    """The last key of an argument's path (``passengers[0].seat`` -> ``seat``)."""
    return path.rsplit(".", 1)[-1].split("[")[0]


def _requires(definition: ToolDefinition | None) -> bool:
    return definition is not None and bool(definition.required)


def _ungrounded(index: GroundingIndex, path: str, value: JsonValue, wording: bool) -> Iterator[JsonValue]:
    """The values of one argument that nothing earlier grounds: the value itself, or for wording (a free-text
    argument, or a long string not found whole) the identifiers and amounts inside it."""
    if not wording:
        if index.find(value, path) is not None:
            return
        if not (isinstance(value, str) and len(value.split()) >= _WORDING):
            yield value
            return
        if index.named_in_part(value) is None and not index.mostly_said(value):
            yield value  # a long name, not wording: most of its words were never said
            return
    if not isinstance(value, str):
        return
    key = path.rsplit(".", 1)[-1].split("[")[0].casefold()
    grounded: list[Decimal] = []
    unfound: list[str] = []
    for inside in _free_text_values(value, key in _COMMAND_NAMES):
        if any(index.find(reading, path) is not None for reading in inside):
            grounded.extend(n for n in (_amount(inside[0]),) if n is not None)
            continue
        if key not in _EXPRESSION_NAMES:
            unfound.append(inside[0])
            continue
        for part in _free_text_values(inside[0], expression=True):  # not said whole: each number said apart
            if not any(index.find(reading, path) is not None for reading in part) and not _an_hour(index, part[0]):
                yield part[0]
    for word in unfound:
        if not _worked_out(_amount(word), grounded):
            yield word


def _an_hour(index: GroundingIndex, number: str) -> bool:
    """Whether a number of an arithmetic expression is the hour of a time on the hour stated before (``13`` in
    ``(16 - 13)`` after a flight at ``13:00:00``): the agent works out a length of time from the times it read."""
    return number.isdigit() and int(number) < 24 and index.find(f"{int(number):02d}:00") is not None


_AMOUNT = re.compile(r"[$\u20ac\u00a3]?(\d+(?:\.\d+)?)")


def _amount(word: str) -> Decimal | None:
    """The amount a word of free text is (``$247``, ``128.50``), or ``None``."""
    found = _AMOUNT.fullmatch(word.replace(",", ""))
    return Decimal(found.group(1)) if found else None


def _worked_out(amount: Decimal | None, grounded: list[Decimal]) -> bool:
    """Whether an amount of free text is the sum or difference of two grounded amounts of the same text (a thought:
    "the total is $375 ... the gift card pays $128 and the remaining $247 goes on the card")."""
    if amount is None or amount == 0:
        return False
    given = set(grounded)
    return any((amount - a in given and amount - a != a) or a + amount in given for a in given)


def _derived(
    index: GroundingIndex,
    value: JsonValue,
    earlier: JsonValue,
    bounds: list[JsonValue],
    definition: ToolDefinition | None,
    said: list[str],
    context: ParseContext,
) -> bool:
    """Whether a date or time found nowhere is settled as worked out from what was said (``grounding_series``):
    the next of a weekly series the user asked for, or a bound of a read-only tool's window around what was said."""
    if earlier is not None and asks_weekly(said) and weekly_series(value, earlier, context):
        return True
    if definition is None or not definition.read_only:
        return False
    return read_window(value, [b for b in bounds if b != value], index.may_be_derived(value), context)


def _judge_says_no(
    ctx: TraceContext, step: Step, question: str, said: list[str], value: JsonValue, undecided: list[str]
) -> bool:
    """Whether the judge answers no (then the value is a finding); a question no judge answered is undecided."""
    answer = ctx.judge.decide(question, {"said": said[-8:], "value": value}) if ctx.judge else None
    if answer is None:
        undecided.append(f"step {step.step_id}: {question}")
    return answer is False


def check_arguments(trace: Trace, env: Environment, ctx: TraceContext) -> DimensionVerdict:
    """Every argument value of every tool call grounded in what came before, and within its tool's schema (see
    the module docstring)."""
    definitions = {d.name: d for d in env.tools.definitions}
    calls = [s for s in trace.tool_calls() if s.arguments or _requires(definitions.get(s.tool_name or ""))]
    if not calls:
        return not_applicable(Dimension.ARGUMENTS, "no tool call has arguments")
    context = trace_today(trace)
    index = GroundingIndex(ctx.values.same, context)
    if trace.goal:
        index.add_text(trace.goal, "goal")
    if trace.instructions:
        index.add_text(trace.instructions, "the agent's instructions")
    if trace.initial_state:
        index.add_json(dict(trace.initial_state), "initial state")
    findings: list[Finding] = []
    checked = 0
    proposal: Step | None = None
    said: list[str] = []
    undecided: list[str] = []
    offered: dict[str, frozenset[str]] = {}  # the options earlier tools returned, by key
    replies: list[str] = []  # the agent's replies since the last options came
    delegated: str | None = None  # the user step that handed the choice among them to the agent
    series: dict[tuple[str, str], JsonValue] = {}  # each tool's argument's last grounded value, by (tool, path)
    for step in trace.steps:
        if step.action_type is ActionType.USER and step.content:
            said.append(step.content)
            if proposal is not None and hands_choice(replies, step.content, offered, ctx.values.same):
                delegated = step.step_id
        if step.action_type is ActionType.USER and proposal is not None and _accepts(proposal, step):
            index.add_text(proposal.content or "", f"the agent's proposal (step {proposal.step_id}), accepted at "
                               f"step {step.step_id}")  # fmt: skip
        if step.action_type in (ActionType.RESPONSE, ActionType.USER):
            proposal = step if step.action_type is ActionType.RESPONSE else None
        if step.state_before:
            index.add_json(dict(step.state_before), f"state before step {step.step_id}")
        if step.action_type is ActionType.TOOL_CALL:
            definition = definitions.get(step.tool_name or "")
            findings.extend(schema_findings(step, definition))
            bounds = [v for _, v in argument_parts(dict(step.arguments), [])]
            grounded_here: list[JsonValue] = []  # the call's values grounded so far (a start before its end)
            for path, whole, wording in _values_to_ground(step, definition):
                checked += 1
                earlier = series.get((step.tool_name or "", path))
                grounded = True
                for value in _ungrounded(index, path, whole, wording):
                    method = FindingMethod.RULE
                    if not wording and index.composed(value) is not None:
                        continue
                    if not wording and said_in_form(index, path, value, _schema_of(definition, path)):
                        continue
                    if not wording and _derived(index, value, earlier, bounds, definition, said, context):
                        continue
                    if not wording and said_span(value, grounded_here, lambda t: index.find(t) is not None, context):
                        continue
                    grounded = False
                    part = None if wording else index.named_in_part(value) or index.may_be_derived(value)
                    chosen = _another_listed(index, value, _schema_of(definition, path))
                    if delegated is not None and chosen is None and _last_key(path) in offered:
                        question = (
                            f"The user left the choice to the agent at step {delegated}: is {value!r} of argument "
                            f"{path!r} of {step.tool_name} a fair choice for the user?"
                        )
                        if _judge_says_no(ctx, step, question, said, value, undecided):
                            findings.append(_finding(step, path, value, whole, FindingMethod.JUDGE, chosen))
                        continue
                    words_given = bool(said) or bool(trace.goal)  # no words, no other words for a value
                    unsaid = index.unsaid_name(value) if part is None else None
                    if unsaid is None and part is None:
                        unsaid = _typed_argument(index, path, value, _schema_of(definition, path))
                    if chosen is None and words_given and unsaid is None and (paraphrasable(value) or part is not None):
                        named = f" ({part.source} named it in part: {part.matched!r})" if part is not None else ""
                        question = (
                            f"Did the user (or an earlier tool result) give the value {value!r} of argument {path!r} "
                            f"of {step.tool_name}, perhaps in other words?{named}"
                        )
                        if not _judge_says_no(ctx, step, question, said, value, undecided):
                            continue
                        method = FindingMethod.JUDGE
                    findings.append(_finding(step, path, value, whole, method, chosen))
                if grounded:
                    series[(step.tool_name or "", path)] = whole
                    grounded_here.append(whole)
        _index_step(index, step)
        if step.action_type is ActionType.RESPONSE:
            replies.append(step.content or "")
        if step.action_type is ActionType.TOOL_CALL and step.observation is not None:
            listed = options(step.observation)
            if listed:
                offered.update(listed)
                replies.clear()
    today = f"; today {context.reference_date.isoformat()}" if context.reference_date else ""
    checked_text = f"{checked} argument value(s) of {len(calls)} tool call(s) looked up in what came before them{today}"
    return DimensionVerdict(Dimension.ARGUMENTS, not findings, tuple(findings), checked_text, "", tuple(undecided))


__all__ = ["RULES", "check_arguments", "exempt", "paraphrasable"]
