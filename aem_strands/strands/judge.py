"""An LLM-judge semantic scorer: any Strands ``Model`` rates how equivalent two values are.

It implements the same ``SemanticScorer`` interface as the embedding scorer, so the comparison chain
(exact → normalisation → semantic stage → threshold) is unchanged; only values that normalisation
does not settle reach the judge, one call per distinct pair. The prompt is the versioned constant
``JUDGE_PROMPT_V0``. A reply that does not parse as ``EquivalenceRating`` gives ``None`` for that
pair (could not score), never 0.0. ``model`` takes a ``Model`` or a model id like the host's judges;
``None`` means the host's default Bedrock judge model.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from pydantic import BaseModel, Field
from strands import Agent
from strands.models.model import Model
from strands.types.exceptions import StructuredOutputException

from aem_strands.types import Method, ValueKind

DEFAULT_JUDGE_MODEL_ID = "global.anthropic.claude-sonnet-4-6"

JUDGE_PROMPT_V0 = """You compare a GOLD value with a PREDICTED value produced by an AI agent.
Rate how far the predicted value means the same thing as the gold value in this role, as a number
from 0 (different or contradictory meaning) to 1 (same meaning; wording may differ).
A different metric, entity, date, amount or polarity means a low score even if the words look alike."""


class EquivalenceRating(BaseModel):
    """Structured reply of the judge."""

    reasoning: str = Field(description="One or two sentences of reasoning")
    score: float = Field(ge=0.0, le=1.0, description="0 = different meaning, 1 = same meaning")


class JudgeScorer:
    """Asks an LLM (through a Strands ``Agent``) for the equivalence of each distinct pair."""

    name = "judge"
    method = Method.JUDGE

    def __init__(self, model: Model | str | None = None) -> None:
        self._model: Model | str = model if model is not None else DEFAULT_JUDGE_MODEL_ID
        self._memo: dict[tuple[str, str, str], float | None] = {}
        self._lock = threading.Lock()

    def _rate(self, gold: str, predicted: str, kind: ValueKind) -> float | None:
        role = "tool argument value" if kind is ValueKind.ARGUMENT else "reply to the user"
        prompt = f"Role: {role}\nGOLD: {gold}\nPREDICTED: {predicted}"
        agent = Agent(model=self._model, system_prompt=JUDGE_PROMPT_V0, callback_handler=None)
        try:
            result = agent(prompt, structured_output_model=EquivalenceRating)
        except StructuredOutputException:
            return None
        rating = result.structured_output
        return rating.score if isinstance(rating, EquivalenceRating) else None

    def similarities(self, pairs: Sequence[tuple[str, str]], kind: ValueKind) -> list[float | None]:
        out: list[float | None] = []
        for gold, predicted in pairs:
            key = (gold, predicted, kind.value)
            with self._lock:
                known = key in self._memo
            if not known:
                score = self._rate(gold, predicted, kind)
                with self._lock:
                    self._memo[key] = score
            out.append(self._memo[key])
        return out
