"""The grounding index: does a value appear, under the product's typed equivalence, in what came before it?

``GroundingIndex`` is the index by value (``grounding_index``: exact, normalised, identifier, typed, place and
initials lookups, see its docstring), with the lookups of names and wording (``grounding_names``) and, here, of
the dates and times that may have been worked out from earlier ones (``may_be_derived``).
"""

from __future__ import annotations

from aem_strands.compare.settle import typed_value
from aem_strands.compare.values import ClockTime, Moment
from aem_strands.trace.grounding_keys import Grounding, SameFn, compact
from aem_strands.trace.grounding_names import NameIndex
from aem_strands.types import JsonValue


class GroundingIndex(NameIndex):
    """What has been said or seen so far in a trace, indexed for ``find`` (see the module docstring).

    ``same`` (a ``ValueJudge``'s) confirms the typed candidates whose agreement is not a key (phones,
    measurements). ``context`` gives the known today (``reference_date``) and the day-first reading of numeric
    dates. ``add_text`` takes free text (a user message, the goal); ``add_json`` takes structured values (a
    state, an observation, earlier arguments): every scalar leaf, every object key, and every string leaf as
    text too."""

    def may_be_derived(self, value: JsonValue) -> Grounding | None:
        """For a date, time or date with a time found nowhere: the earlier value it may have been worked out from,
        which no rule here can settle (``method`` says how):

        - ``date only``: a date with a time whose date was said (the time from a start and a length, "after
          lunch");
        - ``weekly``: a date with a time whose time was said and whose date is a whole number of weeks (up to ten)
          after an earlier date (a meeting set up "weekly until the end of next month");
        - ``near``: a time on the hour or half hour, whole half hours up to two hours from an earlier time (the
          bounds of "around 6 PM").

        A time off the half hours, or far from every earlier time, is no such bound: it stays ungrounded."""
        typed = typed_value(value, self._context)
        if not isinstance(typed, (Moment, ClockTime)):
            return None
        self._read_texts()
        self._parse_pending()
        time = typed.time if isinstance(typed, Moment) else typed
        if isinstance(typed, Moment):
            dated = self._dates.find(typed.day)
            if dated is not None:
                return Grounding(dated.source, dated.matched, "date only")
            if self._dates.find(time) is not None:
                weekly = self._dates.weeks_after(typed.day)
                if weekly is not None:
                    return Grounding(weekly.source, weekly.matched, "weekly")
        near = self._dates.near(time)
        return Grounding(near.source, near.matched, "near") if near is not None else None


__all__ = ["Grounding", "GroundingIndex", "SameFn", "compact"]
