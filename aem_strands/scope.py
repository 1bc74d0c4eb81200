"""Scope: which turns are aligned and judged (``all``, ``actions`` only or ``replies`` only).

With ``actions``, reply turns on both sides are left out; with ``replies``, tool calls are. What was
left out is recorded in the dialog's ``metadata["scope"]`` so a reader sees it. Pure.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, get_args

from aem_strands.types import ActionCall, Dialog, Turn, TurnContent, TurnKind

Scope = Literal["all", "actions", "replies"]
SCOPE_CHOICES: tuple[str, ...] = get_args(Scope)


def content_in_scope(content: TurnContent | None, scope: Scope) -> bool:
    if scope == "all" or content is None:
        return True
    return isinstance(content, ActionCall) == (scope == "actions")


def turn_in_scope(turn: Turn, scope: Scope) -> bool:
    """A paired turn is in scope when its kind is (gold and predicted both left out otherwise)."""
    if scope == "all":
        return True
    return (turn.kind is TurnKind.ACTION) == (scope == "actions")


def apply_scope(dialog: Dialog, scope: Scope) -> Dialog:
    """``dialog`` with the turns outside ``scope`` left out (turn numbers kept); notes what was left out."""
    if scope == "all":
        return dialog
    kept = tuple(t for t in dialog.turns if turn_in_scope(t, scope))
    left_out = [t.turn_no for t in dialog.turns if not turn_in_scope(t, scope)]
    if not left_out:
        return dialog
    numbers = {t.turn_no for t in kept}
    kept = tuple(replace(t, depends_on=tuple(d for d in t.depends_on if d in numbers)) for t in kept)
    metadata = {**dialog.metadata, "scope": {"scope": scope, "left_out_turns": list(left_out)}}
    return Dialog(dialog.dialog_id, kept, metadata)
