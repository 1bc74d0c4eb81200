"""Calibration metrics, the calibrate command, thresholds configs, and the committed calibration data."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from aem_strands import ConfigError, InputError, TableScorer, Thresholds, ValueKind
from aem_strands.cli import main
from aem_strands.compare.calibration import LabelledPair, calibrate, load_pairs
from aem_strands.compare.config import load_thresholds, save_thresholds, thresholds_from_dict
from aem_strands.compare.metrics import SweepPoint, agreement, auc, band_floor, best_point, recommended_point, sweep

from .conftest import EXTERNAL_DATA, ROOT

DATA = ROOT / "data" / "calibration"


def test_agreement_counts_and_rates() -> None:
    labels = [True, True, True, False, False]
    decisions: list[bool | None] = [True, True, None, True, False]
    a = agreement(labels, decisions)
    assert (a.true_positives, a.false_negatives, a.false_positives, a.true_negatives) == (2, 1, 1, 1)
    assert a.undecided == 1  # counted as "not equivalent"
    assert a.precision == pytest.approx(2 / 3)  # 2 of 3 decided equivalent are
    assert a.recall == pytest.approx(2 / 3)  # 2 of 3 equivalent found
    assert a.f1 == pytest.approx(2 / 3)
    assert a.balanced_accuracy == pytest.approx((2 / 3 + 1 / 2) / 2)  # recall 2/3, specificity 1/2


def test_auc_counts_ties_as_one_half() -> None:
    # positives 0.9, 0.5; negatives 0.5, 0.1: pairs (0.9>0.5, 0.9>0.1, 0.5=0.5 tie, 0.5>0.1) = 3.5 / 4
    assert auc([True, True, False, False], [0.9, 0.5, 0.5, 0.1]) == pytest.approx(0.875)
    assert auc([True, True], [0.1, 0.2]) is None


def test_sweep_best_recommended_and_floor() -> None:
    labels = [True, True, True, False, False, False]
    scores = [0.9, 0.8, 0.6, 0.7, 0.3, 0.2]
    points = sweep(labels, scores, [0.5, 0.65, 0.75])
    # 0.5: TP 3, FP 1 → recall 1, specificity 2/3 → 0.833; 0.65: recall 2/3, spec 2/3 → 0.667;
    # 0.75: recall 2/3, specificity 1 → 0.833 (ties: higher F1 wins: 0.857 at 0.5 vs 0.8 at 0.75)
    assert [round(p.agreement.balanced_accuracy, 3) for p in points] == [0.833, 0.667, 0.833]
    assert best_point(points).threshold == 0.5
    assert recommended_point(points, tolerance=0.0).threshold == 0.75  # highest threshold at the best rate
    # below 0.3 only negatives (0.2) → NPV 1.0 >= 0.95; below 0.6 (0.3, 0.2) also all negative
    assert band_floor(labels, scores, 0.75) == 0.6


def test_best_point_needs_points() -> None:
    with pytest.raises(ValueError, match="no sweep points"):
        best_point([])
    assert isinstance(sweep([True], [1.0], [0.5])[0], SweepPoint)


def write_lines(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_load_pairs_reads_labels_and_sts_scores(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "p.jsonl",
        [
            {"gold": "a", "predicted": "b", "label": True},
            {"gold": "c", "predicted": "d", "score": 3.8},
            {"gold": "e", "predicted": "f", "score": 4.2, "kind": "response", "reference_date": "2019-03-01"},
        ],
    )
    pairs = load_pairs(path, cutoff=4.0)
    assert [p.label for p in pairs] == [True, False, True]  # 3.8 < 4.0 <= 4.2
    assert pairs[2].kind is ValueKind.RESPONSE
    assert str(pairs[2].reference_date) == "2019-03-01"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "p.jsonl:1: not JSON"),
        ('{"gold": "a"}', 'expected an object with "gold", "predicted"'),
        (
            '{"gold": "a", "predicted": "b", "label": "yes"}',
            '"label" must be true or false, or "score" a number; got \'yes\'',
        ),
        ('{"gold": "a", "predicted": "b", "label": true, "kind": "prose"}', "'prose' is not a valid ValueKind"),
    ],
)
def test_load_pairs_rejects_bad_lines_naming_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        load_pairs(path)
    assert message in str(raised.value)


ROOMS = ("quiet room facing the garden", "calm room on the garden side")


def small_pairs() -> list[LabelledPair]:
    return [
        LabelledPair("NYC", "New York City", True),  # settled: acronym
        LabelledPair(*ROOMS, True),  # table 0.80 (several words differ: no rule settles it)
        LabelledPair("revenue", "profit", False),  # table 0.73
        LabelledPair("2019-03-08", "March 9th", False),  # settled: different date
    ]


def test_calibrate_measures_every_stage() -> None:
    table = TableScorer({ROOMS: 0.80, ("revenue", "profit"): 0.73, ("NYC", "New York City"): 0.92})
    report = calibrate(small_pairs(), table, Thresholds(argument=0.75))
    stages = {s.name: s for s in report.stages}
    assert list(stages) == ["exact", "normalised", "cosine@0.5", "cosine@best", "chain", "chain@best"]
    assert stages["exact"].agreement.balanced_accuracy == 0.5  # nothing identical: recall 0, specificity 1
    # normalised: NYC settled equivalent, the date settled different, the others unsettled → not equivalent
    assert stages["normalised"].agreement.recall == 0.5
    assert stages["normalised"].agreement.specificity == 1.0
    # raw scores at 0.5: NYC 0.92 and the rooms 0.80 pass (2 of 2 positives); revenue/profit 0.73 passes wrongly,
    # the date pair has token overlap 0.0 and fails: specificity 1/2 → balanced accuracy (1 + 1/2) / 2
    assert stages["cosine@0.5"].agreement.balanced_accuracy == pytest.approx(0.75)
    assert stages["chain"].agreement.balanced_accuracy == 1.0  # 0.80 >= 0.75 > 0.73, the rest settled
    assert report.recommended_threshold is not None
    assert 0.73 < report.recommended_threshold <= 0.80


def test_calibrate_command_prints_json_and_writes_a_config_the_comparator_accepts(tmp_path: Path) -> None:
    pairs = write_lines(
        tmp_path / "p.jsonl",
        [{"gold": p.gold, "predicted": p.predicted, "label": p.label} for p in small_pairs()],
    )
    config = tmp_path / "thresholds.json"
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["calibrate", "--pairs", str(pairs), "--scorer", "exact", "--write-config", str(config)], stdout=out, stderr=err
    )
    assert code == 0, err.getvalue()
    report = json.loads(out.getvalue())
    assert report["kind"] == "argument"
    assert [s["stage"] for s in report["stages"]][:2] == ["exact", "normalised"]
    written = load_thresholds(config)
    assert written.argument == report["recommended"]["threshold"]
    assert written.response == Thresholds().response  # the other kind keeps its default


def test_calibrate_command_reports_bad_input_with_exit_code_2(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(["calibrate", "--pairs", str(tmp_path / "missing.jsonl")], stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert "missing.jsonl" in err.getvalue()


def test_thresholds_config_round_trip_and_validation(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    save_thresholds(path, Thresholds(argument=0.7, response=0.6, argument_floor=0.4, response_floor=None))
    assert load_thresholds(path) == Thresholds(argument=0.7, response=0.6, argument_floor=0.4, response_floor=None)
    with pytest.raises(ConfigError, match=r"unknown threshold keys \['argumnet'\]"):
        thresholds_from_dict({"thresholds": {"argumnet": 0.7}})
    with pytest.raises(ConfigError, match='must be an object with a "thresholds" object'):
        thresholds_from_dict([0.7])


@pytest.mark.parametrize("name", ["arguments", "responses"])
def test_committed_calibration_files_are_small_labelled_and_split(name: str) -> None:
    calibration = load_pairs(DATA / f"{name}.calibration.jsonl")
    heldout = load_pairs(DATA / f"{name}.heldout.jsonl")
    assert sum(p.label for p in heldout) > 0
    assert sum(not p.label for p in heldout) > 0
    groups = [
        {json.loads(line)["group"] for line in (DATA / f"{name}.{part}.jsonl").read_text("utf-8").splitlines()}
        for part in ("calibration", "heldout")
    ]
    assert not groups[0] & groups[1]  # no group on both sides of the split
    assert len(heldout) < len(calibration)
    assert sum((DATA / f"{name}.{part}.jsonl").stat().st_size for part in ("calibration", "heldout")) < 1_200_000


@pytest.mark.skipif(not EXTERNAL_DATA.exists(), reason="../shared/external_data is absent")
def test_build_script_reproduces_the_committed_files(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = ROOT / "benchmarks" / "calibrate_build_data.py"
    command = [sys.executable, str(script), "--external", str(EXTERNAL_DATA), "--out", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for path in sorted(DATA.glob("*.jsonl")):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_calibrate_chain_uses_the_escalation_scorer_for_the_band() -> None:
    table = TableScorer({ROOMS: 0.80, ("revenue", "profit"): 0.73})
    judge = TableScorer({ROOMS: 1.0, ("revenue", "profit"): 0.0})
    band = Thresholds(argument=0.85, argument_floor=0.5)  # 0.80 and 0.73 both fall in [0.50, 0.85)
    conservative = {s.name: s for s in calibrate(small_pairs(), table, band).stages}["chain"]
    escalated = {s.name: s for s in calibrate(small_pairs(), table, band, escalation=judge).stages}["chain"]
    # conservative: the rooms pair fails → recall 1/2 (NYC settled), specificity 1 → (1/2 + 1) / 2
    assert conservative.agreement.balanced_accuracy == pytest.approx(0.75)
    assert escalated.agreement.balanced_accuracy == 1.0  # the judge passes the rooms pair, fails revenue/profit


@pytest.mark.slow
@pytest.mark.parametrize(("name", "kind"), [("arguments", ValueKind.ARGUMENT), ("responses", ValueKind.RESPONSE)])
def test_shipped_chain_beats_exact_and_plain_cosine_on_the_held_out_part(name: str, kind: ValueKind) -> None:
    from aem_strands import EmbeddingScorer

    report = calibrate(load_pairs(DATA / f"{name}.heldout.jsonl", kind), EmbeddingScorer(), kind=kind)
    accuracy = {s.name: s.agreement.balanced_accuracy for s in report.stages}
    baselines = ("exact", "cosine@0.5", "cosine@best")  # cosine@best: the best threshold on this very part
    assert all(accuracy["chain"] > accuracy[b] for b in baselines), accuracy
