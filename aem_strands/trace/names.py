"""Tool names as the policy engine sees them: one name for every spelling an agent host gives a tool.

A policy names ``delete_account``; a run may call it ``Delete_Account``, ``deleteAccount``, ``delete-account``,
``functions.delete_account`` (OpenAI), ``mcp__crm__delete_account`` (an MCP server prefix), ``crm.delete_account``
or ``crm/delete_account``, or with a Cyrillic ``\u0435`` in place of the Latin ``e``. ``canonical_tool_name`` maps
them all to ``delete_account``:

1. NFKC (full-width letters, ligatures), then each letter that Unicode's confusables list (``confusable-homoglyphs``,
   the Unicode Consortium's ``confusables.txt``) maps to an ASCII letter or digit is replaced by it (its
   *skeleton*). The list is loaded only for names with a non-ASCII character.
2. The namespace goes: ``mcp__SERVER__`` in front, then everything up to the last ``.``, ``/`` or ``:``
   (``namespace_of`` keeps it: ``functions`` counts as none).
3. camelCase splits into words, every run of other characters (spaces, hyphens, underscores) is one ``_``,
   lower case.

Two names are the same tool (``same_tool``) when their canonical names agree with the underscores left out
(``cancelorder`` for ``cancel_order`` and ``cancelOrder``), and their namespaces agree or one of them has none
(a policy's ``create_issue`` applies to ``jira.create_issue``; ``jira.create_issue`` and ``github.create_issue``
are two tools). ``lookalike`` tells an unknown name one edit away from a restricted tool (``delete_acount``,
``delete_accounts``, ``de1ete_account``), or the restricted name with wrapper words around it
(``delete_account_v2``, ``DeleteAccountTool``): the checks flag such a call rather than let it pass as some other
tool.

``ToolNameMap`` is a mapping keyed by tool names that answers for every spelling of a key.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import TypeVar

V = TypeVar("V")

GENERIC_NAMESPACES = frozenset(["functions", "function", "tools", "tool", "default_api", "api"])
"""Namespaces that name no server (OpenAI's ``functions.``, Gemini's ``default_api.``): as if there were none."""

_GENERIC = frozenset(n.replace("_", "") for n in GENERIC_NAMESPACES)
_MCP = re.compile(r"^mcp__(?P<server>[^_](?:[^_]|_(?!_))*)__(?P<tool>.+)$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[./:]")
_CAMEL = (re.compile(r"([a-z0-9])([A-Z])"), re.compile(r"([A-Z]+)([A-Z][a-z])"))
_NON_WORD = re.compile(r"[^a-z0-9]+")
AFFIX_WORDS = frozenset(
    ["tool", "tools", "fn", "func", "function", "api", "impl", "internal", "raw", "async", "sync", "new", "latest"]
)
"""Words a wrapper or a new version of a tool adds to its name (``delete_account_tool``, ``delete_account_v2``): an
unknown tool so named is a look-alike of the restricted one."""
_VERSION = re.compile(r"v?\d+")
_LOOKALIKE_MIN = 6
"""Names shorter than this (with underscores left out) are never look-alikes: one edit turns ``get`` into ``set``."""


@cache
def _confusables() -> Mapping[str, list[dict[str, str]]]:
    from confusable_homoglyphs.confusables import confusables_data  # loaded lazily: 900 kB of JSON

    data: Mapping[str, list[dict[str, str]]] = confusables_data
    return data


@cache
def _skeleton_char(char: str) -> str:
    """An ASCII letter or digit the character is confusable with, else the character itself."""
    for glyph in _confusables().get(char, ()):
        target = glyph.get("c", "")
        if target.isascii() and target.isalnum():
            return target
    return char


def skeleton(text: str) -> str:
    """``text`` after NFKC with every confusable letter replaced by its ASCII look-alike (step 1 above)."""
    text = unicodedata.normalize("NFKC", text)
    if text.isascii():
        return text
    return "".join(c if c.isascii() else _skeleton_char(c) for c in text)


@cache
def _split(name: str) -> tuple[str, str]:
    """(namespace, bare name) of a skeleton, the namespace case-folded ("" for none or a generic one)."""
    namespace = ""
    mcp = _MCP.match(name)
    if mcp is not None:
        namespace, name = mcp.group("server"), mcp.group("tool")
    parts = _SEPARATORS.split(name)
    if len(parts) > 1 and parts[-1]:
        inner = ".".join(parts[:-1])
        namespace = f"{namespace}.{inner}" if namespace else inner
        name = parts[-1]
    namespace = _NON_WORD.sub("", namespace.casefold())
    return ("" if namespace in _GENERIC else namespace), name


def _words(name: str) -> str:
    for pattern in _CAMEL:
        name = pattern.sub(r"\1_\2", name)
    return _NON_WORD.sub("_", name.casefold()).strip("_")


@cache
def canonical_tool_name(name: str) -> str:
    """The policy engine's name of a tool (see the module docstring): ``mcp__crm__DeleteAccount`` →
    ``delete_account``. A name with nothing left (``"..."``) is its own case-folded self."""
    _, bare = _split(skeleton(name))
    return _words(bare) or name.casefold()


def namespace_of(name: str) -> str:
    """The server a name is qualified with (``crm`` for ``mcp__crm__x`` and ``crm.x``), ``""`` for none."""
    return _split(skeleton(name))[0]


@cache
def tool_key(name: str) -> str:
    """What two spellings of one tool share: the canonical name without underscores."""
    return canonical_tool_name(name).replace("_", "")


def same_tool(a: str, b: str) -> bool:
    """Whether two names are one tool (see the module docstring)."""
    if a == b:
        return True
    if tool_key(a) != tool_key(b):
        return False
    first, second = namespace_of(a), namespace_of(b)
    return not first or not second or first == second


_LOOK_ALIKE_ASCII = frozenset(frozenset(p) for p in ("0o", "1l", "1i", "il", "5s", "2z", "8b", "vu", "6g"))
"""Pairs of ASCII characters that pass for each other: a substitution between other letters makes another word
(``get`` / ``set``), not a look-alike."""


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one insertion, deletion, swap of neighbours, or substitution of
    look-alike characters (``_LOOK_ALIKE_ASCII``)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return frozenset((a[diff[0]], b[diff[0]])) in _LOOK_ALIKE_ASCII
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1 :]


def _wrapped(name: str, tool: str) -> bool:
    """Whether ``name`` is ``tool`` with wrapper words around it (``AFFIX_WORDS``: ``delete_account_v2``,
    ``DeleteAccountTool``, ``tool_delete_account``)."""
    words, inner = canonical_tool_name(name).split("_"), canonical_tool_name(tool).split("_")
    for start in range(len(words) - len(inner) + 1):
        if words[start : start + len(inner)] == inner:
            rest = words[:start] + words[start + len(inner) :]
            return bool(rest) and all(w in AFFIX_WORDS or _VERSION.fullmatch(w) for w in rest)
    return False


def lookalike(name: str, restricted: Iterable[str], known: Iterable[str] = ()) -> str | None:
    """The restricted tool ``name`` is one edit away from, or wraps (``_wrapped``), when ``name`` is no known tool
    (``known``: the catalog's and the policy's names) and not that tool itself; ``None`` otherwise."""
    if any(same_tool(name, k) for k in known):
        return None
    key = tool_key(name)
    for tool in restricted:
        other = tool_key(tool)
        if (
            len(other) >= _LOOKALIKE_MIN
            and not same_tool(name, tool)
            and (_one_edit(key, other) or _wrapped(name, tool))
        ):
            return tool
    return None


class ToolNameMap(Mapping[str, V]):
    """A mapping keyed by tool names that answers for every spelling of a key (``same_tool``). Iterating gives
    the keys as they were given; a name that matches two keys gets the first one's value."""

    def __init__(self, items: Mapping[str, V] | Iterable[tuple[str, V]] = ()) -> None:
        self._items: dict[str, V] = dict(items)
        self._by_key: dict[str, list[str]] = {}
        for name in self._items:
            self._by_key.setdefault(tool_key(name), []).append(name)

    def name_of(self, name: str) -> str | None:
        """The key ``name`` is a spelling of, or ``None``."""
        if name in self._items:
            return name
        return next((k for k in self._by_key.get(tool_key(name), ()) if same_tool(name, k)), None)

    def __getitem__(self, name: str) -> V:
        key = self.name_of(name)
        if key is None:
            raise KeyError(name)
        return self._items[key]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.name_of(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ToolNameMap({self._items!r})"


def in_names(name: str, names: Iterable[str]) -> str | None:
    """The name of ``names`` that ``name`` is a spelling of, or ``None``."""
    return next((n for n in names if same_tool(name, n)), None)
