"""The reply pair model (``compare.pair_model``): the shipped int8 ONNX cross-encoder and its stage in the chain."""

from __future__ import annotations

import json
import math
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aem_strands.compare.chain import Comparator, ComparisonRequest
from aem_strands.compare.combiner import PairGroup, pair_group
from aem_strands.compare.pair_model import (
    PairModel,
    PairModelStage,
    StageWeights,
    default_pair_model,
    default_stage,
    model_input,
)
from aem_strands.compare.replies import settle_reply
from aem_strands.compare.scorers import EmbeddingScorer
from aem_strands.errors import ConfigError
from aem_strands.types import Method, ValueKind

FOLDER = resources.files("aem_strands.compare").joinpath("data").joinpath("pair_model")
GOLD = "I found 3 restaurants. How about Sushi Zen in Palo Alto?"
PARAPHRASE = (GOLD, "There are 3 options; one of them is Sushi Zen, located in Palo Alto.")
VALUE_CHANGED = (GOLD, "I found 3 restaurants. How about Taco Bell in Palo Alto?")
SETTLED = ("Your table is booked for 7 pm.", "Your table is booked for 8 pm.")


def test_the_stage_is_the_logistic_of_the_weighted_logits_of_the_pairs_group() -> None:
    asks = ("Where are you going?", "What is your destination?")
    plain = ("A man is playing a flute.", "A man plays a large flute.")
    stage = PairModelStage({PairGroup.ASKS: StageWeights(head=2.0, model=0.5, intercept=-1.0)})
    weights = stage.weights(*asks)
    assert weights is not None
    # head probability 0.5 has logit 0: z = -1 + 2*0 + 0.5*4 = 1
    assert weights.probability(0.5, 4.0) == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert stage.weights(*plain) is None  # a group without weights keeps the head's probability
    assert PairModelStage.from_dict(stage.to_dict()) == stage


WEIGHTS = {"head": 1, "model": 1, "intercept": 0}


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"kind": "pair_head", "groups": {"asks": WEIGHTS}}, "kind"),
        ({"kind": "pair_model_stage", "groups": {"asks": {**WEIGHTS, "head": "1"}}}, "groups.asks.head"),
        ({"kind": "pair_model_stage", "groups": {"other": {**WEIGHTS, "model": float("nan")}}}, "groups.other.model"),
        ({"kind": "pair_model_stage", "groups": {"dialog": {"head": 1, "model": 1}}}, "groups.dialog.intercept"),
        ({"kind": "pair_model_stage", "groups": {"questions": WEIGHTS}}, "groups"),
        ({"kind": "pair_model_stage", "groups": {}}, "groups"),
        ({"kind": "pair_model_stage", "groups": {"asks": [1, 1, 0]}}, "groups.asks"),
    ],
)
def test_a_malformed_stage_names_the_field(data: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        PairModelStage.from_dict(data)


def test_an_incomplete_model_folder_names_the_missing_file(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    with pytest.raises(ConfigError, match=r"model\.onnx"):
        PairModel(folder).logits([PARAPHRASE])


def test_the_shipped_artefact_is_small_and_says_what_it_was_trained_on() -> None:
    model = FOLDER.joinpath("model.onnx")
    assert model.is_file()
    assert FOLDER.joinpath("tokenizer.json").is_file()
    with resources.as_file(model) as path:
        assert path.stat().st_size < 25_000_000
    manifest = json.loads(FOLDER.joinpath("manifest.json").read_text(encoding="utf-8"))
    repositories = [source["repository"] for source in manifest["data"]["sources"]]
    assert repositories == ["google-research-datasets/dstc8-schema-guided-dialogue", "aivilmo/textual-similarity"]
    assert any("SGD dev" in line for line in manifest["data"]["excluded"])


@pytest.mark.slow
def test_the_shipped_model_scores_pairs_in_the_unit_interval_offline() -> None:
    scores = PairModel().probabilities([PARAPHRASE, VALUE_CHANGED, ("", "")])
    assert len(scores) == 3
    assert all(0.0 <= s <= 1.0 for s in scores)


@pytest.mark.slow
def test_a_pairs_logit_is_the_same_whatever_pairs_are_read_with_it() -> None:
    # the int8 layers quantise each run's inputs with one scale: read in a batch, a pair's logit moved with its
    # neighbours (up to about one logit); one pair per run keeps a verdict independent of the rest of a run
    others = [("Your flight leaves at 6:05 am from gate B12.", "Gate B12, 6:05 am.")] * 3 + [("Hi", "Hello there")]
    model = PairModel()
    alone = model.logits([PARAPHRASE])[0]
    assert model.logits([*others, PARAPHRASE, VALUE_CHANGED])[-2] == alone
    assert model.logits([VALUE_CHANGED, PARAPHRASE])[1] == alone


@pytest.mark.slow
def test_a_verdict_is_the_same_whatever_pairs_share_its_run() -> None:
    open_pair = ComparisonRequest(
        "When and what time do you intend to depart?", "What day and time would you like to leave?", ValueKind.RESPONSE
    )
    others = [
        ComparisonRequest("A man is playing a flute.", "A man plays a large flute.", ValueKind.RESPONSE),
        ComparisonRequest("Where are you headed?", "What is your destination city?", ValueKind.RESPONSE),
        ComparisonRequest(*SETTLED, ValueKind.RESPONSE),
    ]
    comparator = Comparator(EmbeddingScorer())
    alone = comparator.compare_many([open_pair])[0]
    assert alone.method is Method.EMBEDDING
    assert "pair model logit" in alone.detail
    for run in ([*others, open_pair], [open_pair, *others[::-1]]):
        beside = next(c for q, c in zip(run, comparator.compare_many(run), strict=True) if q is open_pair)
        assert (beside.equivalent, beside.score, beside.detail) == (alone.equivalent, alone.score, alone.detail)


@pytest.mark.slow
def test_a_paraphrase_scores_above_the_same_reply_with_one_value_changed() -> None:
    # an SGD-style offer: another restaurant name in the same words must score below the same offer in other words
    # (the chain's facts settle this pair before any model; here the model's own ranking is checked)
    paraphrase, changed = PairModel().probabilities([PARAPHRASE, VALUE_CHANGED])
    assert paraphrase > changed


@pytest.mark.slow
def test_the_chain_asks_the_pair_model_only_for_pairs_the_facts_leave_open() -> None:
    assert settle_reply(*SETTLED) is not None  # 7 pm vs 8 pm: settled by the facts
    open_pair = ("When and what time do you intend to depart?", "What day and time would you like to leave?")
    plain = ("A man is playing a flute.", "A man plays a large flute.")
    assert settle_reply(*open_pair) is None
    assert settle_reply(*plain) is None
    assert pair_group(*open_pair) is PairGroup.ASKS  # two requests: a group the stage serves
    assert pair_group(*plain) is PairGroup.OTHER
    stage = default_stage()
    assert stage is not None
    assert stage.weights(*open_pair) is not None
    plain_served = stage.weights(*plain) is not None  # plain statements: served when the shipped stage has weights
    model = default_pair_model()
    comparator = Comparator(EmbeddingScorer())
    before = model.scored
    settled = comparator.compare_many([ComparisonRequest(*SETTLED, ValueKind.RESPONSE)])[0]
    assert settled.method is Method.FACTS
    assert model.scored == before  # a settled pair never reaches the model
    statement = comparator.compare_many([ComparisonRequest(*plain, ValueKind.RESPONSE)])[0]
    assert statement.method is Method.EMBEDDING
    assert model.scored == before + plain_served  # an open pair reaches the model only when its group is served
    assert ("pair model logit" in statement.detail) is plain_served
    decided = comparator.compare_many([ComparisonRequest(*open_pair, ValueKind.RESPONSE)])[0]
    assert decided.method is Method.EMBEDDING
    assert model.scored == before + plain_served + 1
    assert "pair model logit" in decided.detail


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Your table for two is set for 19:00.", "Your table for 2 is set for 7 pm."),
        ("It leaves at 7:00 pm.", "It leaves at 7 pm."),
        ("Doors open at 00:30.", "Doors open at 12:30 am."),
        ("Pick-up at 7:30.", "Pick-up at 7:30."),  # 1:00-12:59 without am/pm: either half of the day, kept
        ("Call 555-0199.", "Call 555-0199."),
        ("The shuttle comes at six in the morning.", "The shuttle comes at 6 am."),  # a spoken time, as SGD writes it
        ("Doors open at quarter to eight in the evening.", "Doors open at 7:45 pm."),
        ("It closes at 11 at night.", "It closes at 11 pm."),
        ("Trains run until half past ten.", "Trains run until 10:30."),  # no half of the day said: none written
        ("Pick-up is at four o'clock.", "Pick-up is at 4."),
        ("The bus is at quarter past 7 pm.", "The bus is at 7:15 pm."),
        ("It ends at 12 at night.", "It ends at 12 at night."),  # midnight, not noon: left as written
        ("I have 3 in my basket.", "I have 3 in my basket."),  # a bare number is no time
        ("The wait is three quarters of an hour.", "The wait is 45 minutes."),  # a span in parts of an hour
        ("Allow half an hour, or an hour and a half at peak.", "Allow 30 minutes, or 90 minutes at peak."),
    ],
)
def test_the_model_reads_values_written_one_way(text: str, read: str) -> None:
    assert model_input(text) == read


@pytest.mark.slow
def test_a_time_written_on_the_24_hour_clock_is_no_other_time_to_the_model() -> None:
    gold = "Your table for 2 is at 7 pm."
    same, other = PairModel().logits([(gold, "Your table for two has been set for 19:00."), (gold, "Set for 8 pm.")])
    assert same > 0 > other


# no am/pm fragment: "5 19:00 pm" is read "5 19 pm", and that "5:19 pm" when read again (no reply writes it)
_FRAGMENTS = ["at", "five", "7", "19:00", "half past", "quarter to", "o'clock", "in the morning", "at night",
              "three quarters of an hour", "half an hour", "12", "the", "train", "an hour and a half", "."]  # fmt: skip


@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=8))
def test_the_model_input_is_written_one_way_once(words: list[str]) -> None:
    text = " ".join(words)
    assert model_input(model_input(text)) == model_input(text)
