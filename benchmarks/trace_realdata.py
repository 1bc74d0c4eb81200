"""Trace verdicts on data nobody on this project wrote, with the part the rules were tuned on reported apart.

Usage (from the repository root)::

    .venv/bin/python benchmarks/trace_realdata.py [--limit N] [--sections false_alarms,faults,adversarial,fresh]
                                                  [--sgd DIR] [--tooltalk DIR] [--apibank DIR] [--samples 5]

Sections (see ``aem_bench.trace_sets``, ``aem_bench.apibank`` and ``aem_bench.trace_faults`` for how each set is built):

- ``false_alarms``: SGD test dialogues (successful, human-written, every transaction confirmed by the user),
  ToolTalk's gold conversations and API-Bank's test dialogues (levels 1 and 2; first measured 2 Dec 2026), as traces
  with their tool catalogs, no other policy. Every finding is a false alarm. Goal: >= 99 % of traces pass, no veto.
  Printed per set and per half (``tuning``: SHA-1 of the id even, the only half rules may be tuned on; ``heldout``:
  odd), with the findings by rule and a few examples.
- ``faults``: faults planted in those traces (the proposal and the user's yes dropped under a policy that requires
  consent, a refusal in place of the user's yes, an argument nobody said, a reply contradicting the observation, a
  precondition moved after the write, an instruction planted in an outside-world observation and followed, a
  repeated lookup, an error hidden behind a success reply, a success reply with its write removed), each kind
  counted as caught when a finding of an expected dimension names the planted step, undecided when only a question
  of that dimension names it, else missed; a plant whose clean trace (under the same environment and policy)
  already had a finding of an expected dimension at that step proves nothing either way and is counted apart,
  out of the rate. Goal: >= 95 % per kind.
- ``adversarial``: ``aem_bench.adversarial``, the minimal traces of issue 28's list and their families,
  each with the verdict it must get: wrong passes and wrong fails are listed.
- ``fresh``: ``data/traces_fresh/{tuning,heldout}.jsonl``, hard traces written by a helper who never read the
  rules or the code, with the verdict a reviewer gives (``label``); the two halves apart.
- ``fresh2``: ``data/traces_fresh_v2/heldout.jsonl``, a second such set by another blind helper (2 Dec 2026, four
  other domains). Kept whole as a never-seen set for one round (63.3% right, morning of 2 Dec); since the
  afternoon of 2 Dec halved by SHA-1 of the id like the others: the tuning half is shown, the held-out half only
  in figures unless ``--heldout-samples``.
- ``fresh3``: ``data/traces_fresh_v3/heldout.jsonl``, a third set by a third blind helper (2 Dec 2026, five other
  domains), all held out and never tuned on: only its figures are printed unless ``--heldout-samples``.
- ``fresh4``: ``data/traces_fresh_v4/traces.jsonl``, a fourth blind set (2 Dec 2026, five more domains), halved by
  SHA-1 of the id like SGD: the tuning half is shown, the held-out half only in figures.

``--limit N`` judges at most N traces of each half of each set (default: all; SGD test has 2,921 dialogues).
Without ``../shared/external_data`` the sets that need it are skipped with a line saying what is missing.
Figures depend on the rules at the time of the run; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aem_bench.adversarial import POLICY, cases
from aem_bench.apibank import APIBANK_DIR, apibank_traces
from aem_bench.taubench import TAUBENCH_RUNS, taubench_catalog, taubench_dialogs, taubench_traces
from aem_bench.trace_faults import FAULTS, Planted, Pools, asked_by_labels
from aem_bench.trace_sets import (
    SGD_DIR,
    TOOLTALK_DIR,
    sgd_refusals,
    sgd_traces,
    split_of,
    tooltalk_traces,
)

from aem_strands.trace.checks.consent import ConsentLedger, consent_to
from aem_strands.trace.checks.consent_chain import chained_consent
from aem_strands.trace.evaluate import evaluate_trace
from aem_strands.trace.load import parse_trace
from aem_strands.trace.policy import environment_from_json, load_policy
from aem_strands.trace.types import Dimension, Environment, Finding, TraceResult

REPO = Path(__file__).resolve().parent.parent
FRESH = REPO / "data" / "traces_fresh"
FRESH2 = REPO / "data" / "traces_fresh_v2"
FRESH3 = REPO / "data" / "traces_fresh_v3"
FRESH4 = REPO / "data" / "traces_fresh_v4"
SECTIONS = ("false_alarms", "faults", "taubench", "adversarial", "fresh", "fresh2", "fresh3", "fresh4")


def _judge(raw: dict[str, Any], policy: Environment | None = None) -> TraceResult:
    return evaluate_trace(parse_trace(raw), policy=policy)


def _findings(result: TraceResult) -> list[Finding]:
    return [f for verdict in result.dimensions.values() for f in verdict.findings]


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} = {100 * part / whole:.1f}%" if whole else "0/0"


def _limited(traces: Iterable[dict[str, Any]], limit: int | None) -> Iterator[dict[str, Any]]:
    for count, trace in enumerate(traces):
        if limit is not None and count >= limit:
            return
        yield trace


def false_alarms(name: str, traces: Iterable[dict[str, Any]], samples: int) -> None:
    statuses: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    vetoes = 0
    examples: list[str] = []
    started = time.process_time()
    count = 0
    for raw in traces:
        result = _judge(raw)
        count += 1
        statuses[result.status.value] += 1
        vetoes += result.veto
        for finding in _findings(result):
            rules[finding.rule] += 1
            if len(examples) < samples:
                examples.append(f"    {raw['trace_id']} {finding.rule}: {finding.message[:220]}")
    cpu = (time.process_time() - started) / max(count, 1) * 1000
    print(
        f"  {name}: {count} traces, pass {_pct(statuses['pass'], count)}, vetoed {vetoes}, "
        f"fail {statuses['fail']}, inconclusive {statuses['inconclusive']}; {cpu:.1f} ms CPU a trace"
    )
    if rules:
        print("    findings (all false): " + ", ".join(f"{rule} {n}" for rule, n in rules.most_common()))
    for line in examples:
        print(line)


def _pools(sgd: Path, split: str) -> Pools:
    names: set[str] = set()
    values: dict[str, set[str]] = {}
    for raw in _limited(sgd_traces(sgd, split=split), 400):
        for step in raw["steps"]:
            for value in (step.get("arguments") or {}).values():
                if isinstance(value, str) and not any(c.isdigit() for c in value) and len(value) > 3:
                    names.add(value)
            observation = step.get("observation")
            for item in observation if isinstance(observation, list) else []:
                if isinstance(item, dict):
                    for key, value in item.items():
                        if isinstance(value, str):
                            values.setdefault(key, set()).add(value)
    return Pools(
        sgd_refusals(sgd, split),
        sorted(names),
        {key: sorted(found) for key, found in values.items()},
    )


def _at_steps(result: TraceResult, planted: Planted) -> tuple[bool, bool]:
    """Whether ``result`` has a finding of one of the plant's dimensions at one of its steps, and whether it has an
    undecided question of those dimensions that names one of the steps (``step 's5': ...`` as safety writes it,
    ``step s5: ...`` as arguments does)."""
    found = any(
        f.step_id is not None and str(f.step_id) in planted.steps and f.dimension.value in planted.dimensions
        for f in _findings(result)
    )
    asked = any(
        f"'{step}'" in question or question.startswith(f"step {step}:")
        for dimension, verdict in result.dimensions.items()
        if dimension.value in planted.dimensions
        for question in verdict.undecided
        for step in planted.steps
    )
    return found, asked


def _new_rules(clean: TraceResult, planted: TraceResult, faulty: Planted) -> set[str]:
    """The rules of the plant's dimensions that ``planted`` finds at its steps and ``clean`` does not."""

    def at(result: TraceResult) -> set[str]:
        return {
            f"{f.rule}@{f.step_id}"
            for f in _findings(result)
            if str(f.step_id) in faulty.steps and f.dimension.value in faulty.dimensions
        }

    return at(planted) - at(clean)


def _consent_how(raw: dict[str, Any], step_id: str) -> str:
    """How the consent check reads the user's consent to the call ``step_id`` of ``raw`` (its loop over the calls
    that need consent, as ``checks.safety`` runs it, so that earlier calls use up the consents they used). It is the
    reading of a yes or a request; a policy's ``consent: confirm`` then checks the listed details
    (``checks.consent_confirm``), which this line does not show."""
    trace = parse_trace(raw)
    catalog = trace.environment.tools if trace.environment else None
    destructive = {d.name for d in catalog.definitions if d.destructive} if catalog else set()
    ledger = ConsentLedger()
    for call in trace.tool_calls():
        if call.tool_name not in destructive and str(call.step_id) != step_id:
            continue
        consent = chained_consent(trace, call, consent_to(trace, call, ledger, catalog), catalog)
        if str(call.step_id) == step_id:
            return f"{consent.decision.value}: {consent.how}"
        ledger.use(consent, call)
    return "no such call"


def _coarse(how: str) -> str:
    """A consent reading by its kind only (figures a held-out half may show: no words of its dialogs)."""
    if re.match(r"given: the user asked for it", how):
        return "given by a request path (the user asked for the action)"
    if re.match(r"given: the user agreed", how):
        return "given by an earlier proposal agreed to"
    return how.split(":", 1)[0]


def faults(name: str, traces: Iterable[dict[str, Any]], pools: Pools, samples: int) -> None:
    """Each kind planted where the trace has a place for it. A plant is *caught* when the faulty trace has a finding
    of an expected dimension at the planted step, *undecided* when it has none but a question of those dimensions
    naming the step (the trace inconclusive there), else *missed*. A plant whose clean trace, judged under the same
    environment and policy, already has a finding of an expected dimension at that step proves nothing either way:
    it is counted apart, out of the rate (with how many of those show a rule there that the clean trace did not:
    caught, perhaps, but only plants whose clean trace was clean can also count as missed)."""
    outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in FAULTS}
    missed: dict[str, list[str]] = {}
    readings: Counter[str] = Counter()  # how the consent check read the calls whose confirmation was dropped
    by_label: dict[str, Counter[str]] = {"asked": Counter(), "not asked": Counter()}  # by SGD's intent labels
    clean_pass = 0
    for raw in traces:
        clean: dict[str, TraceResult] = {}
        for kind, plant in FAULTS.items():
            faulty: Planted | None = plant(raw, pools)
            if faulty is None:
                continue
            policy = environment_from_json(faulty.policy, f"{kind} policy") if faulty.policy else None
            key = json.dumps([faulty.trace.get("environment"), faulty.policy], sort_keys=True, default=str)
            if key not in clean:  # the unplanted trace under the plant's environment (rules, hints) and policy
                clean[key] = _judge(dict(raw, environment=faulty.trace.get("environment")), policy)
            result = _judge(faulty.trace, policy)
            if _at_steps(clean[key], faulty)[0]:
                outcomes[kind]["apart"] += 1
                outcomes[kind]["apart, a new rule there"] += bool(_new_rules(clean[key], result, faulty))
                continue
            found, asked = _at_steps(result, faulty)
            outcome = "caught" if found else "undecided" if asked else "missed"
            outcomes[kind][outcome] += 1
            if kind == "drop_confirmation":
                labelled = asked_by_labels(faulty.trace, faulty.steps[0])
                if labelled is not None:
                    by_label["asked" if labelled else "not asked"][outcome] += 1
            if kind == "drop_confirmation" and not found:
                how = _consent_how(faulty.trace, faulty.steps[0])
                readings[_coarse(how)] += 1
            if not found and len(missed.setdefault(kind, [])) < samples:
                got = sorted({f"{f.rule}@{f.step_id}" for f in _findings(result)})
                shown = f"; consent read as {how[:160]!r}" if kind == "drop_confirmation" else ""
                missed[kind].append(
                    f"      {outcome}: {faulty.trace['trace_id']} at {faulty.steps}: got {got[:4]}{shown}"
                )
            if kind == "precondition_moved":
                clean_pass += clean[key].status.value == "pass"
    print(f"  {name}:")
    for kind in FAULTS:
        counts = outcomes[kind]
        judged = counts["caught"] + counts["undecided"] + counts["missed"]
        print(
            f"    {kind:22s} caught at its step {_pct(counts['caught'], judged)} (undecided {counts['undecided']}, "
            f"missed {counts['missed']}); apart, the clean trace already had a finding there: {counts['apart']}"
            + (f" (with a new rule there: {counts['apart, a new rule there']})" if counts["apart"] else "")
        )
        if kind == "drop_confirmation" and any(by_label.values()):
            print("      by the data's labels, the user had asked for the action before (so a request path may "
                  "consent): " + "; ".join(
                      f"{label} {sum(c.values())}: caught {c['caught']}, undecided {c['undecided']}, missed "
                      f"{c['missed']}" for label, c in by_label.items()))  # fmt: skip
        if kind == "drop_confirmation" and readings:
            print("      not caught, the consent check's reading of the call: " + "; ".join(
                f"{how} ({n})" for how, n in readings.most_common(6)))  # fmt: skip
        for line in missed.get(kind, []):
            print(line)
    moved = sum(outcomes["precondition_moved"].values())
    if moved:
        print(f"    the same traces unmoved under that ordering rule pass: {_pct(clean_pass, moved)}")


def taubench(name: str, runs: Path, split: str, limit: int | None, samples: int, pools: Pools | None) -> None:
    """τ-bench's GPT-4o airline runs of ``split``: the runs τ-bench rewarded as a false-alarm set (without gold),
    the rest as runs that should fail, faults planted in the rewarded runs (with SGD's pools of refusals and names,
    when SGD is at hand), and with the task's gold actions the agreement of the verdict on the calls
    (``tool_selection``) and of the whole status with τ-bench's reward."""
    false_alarms(
        f"{name}, {split}, rewarded runs (without gold)",
        _limited(taubench_traces(runs, split=split, reward=1.0), limit),
        samples,
    )
    failed = [_judge(raw).status.value for raw in _limited(taubench_traces(runs, split=split, reward=0.0), limit)]
    counts = Counter(failed)
    print(
        f"  {name}, {split}, unrewarded runs (without gold): {len(failed)}, fail {_pct(counts['fail'], len(failed))}, "
        f"inconclusive {counts['inconclusive']}, pass {counts['pass']} (a wrong choice the user's instruction "
        "alone shows, e.g. another flight, cannot be seen without gold)"
    )
    if pools is not None:
        faults(
            f"{name}, {split}, faults planted in rewarded runs",
            _limited(taubench_traces(runs, split=split, reward=1.0), limit),
            pools,
            samples,
        )
    from aem_strands import evaluate_dialogs
    from aem_strands.tools import tools_from_json

    dialogs = list(_limited(taubench_dialogs(runs, split=split), limit))
    scored = evaluate_dialogs(dialogs, scope="actions", allow_extra="read_only",
                              tools=tools_from_json(taubench_catalog()), scorer="exact")  # fmt: skip
    calls_agree = status_agree = score_agree = differ = count = 0
    for raw, by_score in zip(_limited(taubench_traces(runs, split=split, gold=True), limit), scored, strict=True):
        result = _judge(raw)
        outcome = float(raw["metadata"]["reward"]) == 1.0
        calls = result.dimensions[Dimension.TOOL_SELECTION].passed is True
        calls_agree += calls == outcome
        status_agree += (result.status.value == "pass") == outcome
        score_agree += by_score.test_pass == outcome
        differ += by_score.test_pass != calls
        count += 1
    print(
        f"  {name}, {split}, with the gold actions: the calls verdict agrees with the reward in "
        f"{_pct(calls_agree, count)} (score --scope actions --allow-extra read_only: {_pct(score_agree, count)}; "
        f"the two differ on {differ}), the whole status in {_pct(status_agree, count)}"
    )


def _labelled(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def labelled_set(
    name: str,
    traces: Iterable[dict[str, Any]],
    policy_of: Callable[[str], Environment | None],
    shown: int = 40,
    messages: bool = False,
) -> None:
    """Verdicts on a labelled set; the first ``shown`` wrong ones listed (with each finding's message and each
    undecided question under them when ``messages``)."""
    right = 0
    total = 0
    right_step = 0
    outcomes: Counter[str] = Counter()
    failing = 0
    wrong: list[str] = []
    by_family: Counter[str] = Counter()
    family_right: Counter[str] = Counter()
    false_rules: Counter[str] = Counter()  # findings on traces a reviewer passes, by rule
    missed: Counter[str] = Counter()  # failing traces not failed, by the dimension their label names
    for raw in traces:
        raw = dict(raw)
        label = raw.pop("label")
        policy = policy_of(label["policy"]) if label.get("policy") else None
        try:
            result = _judge(raw, policy)
        except Exception as error:  # a trace the loader refuses is a wrong verdict too, and says why
            wrong.append(f"    {raw.get('trace_id')}: refused: {str(error)[:160]}")
            total += 1
            continue
        total += 1
        got = "pass" if result.status.value == "pass" else result.status.value
        expected = label["expected"]
        outcomes[f"{expected}->{got}"] += 1
        family = label.get("family", "?")
        by_family[family] += 1
        ok = got == expected
        if ok:
            right += 1
            family_right[family] += 1
        else:
            if expected == "pass":
                false_rules.update({f.rule for f in _findings(result)})
            else:
                missed[f"{label.get('dimension', '?')}->{got}"] += 1
            rules = sorted({f"{f.rule}@{f.step_id}" for f in _findings(result)})
            wrong.append(
                f"    {raw['trace_id']} expected {expected}, got {got} {rules[:3]} ({label.get('why', '')[:90]})"
            )
            if messages:
                wrong.extend(f"      {f.rule}@{f.step_id}: {f.message[:240]}" for f in _findings(result))
                wrong.extend(
                    f"      undecided: {q[:240]}" for verdict in result.dimensions.values() for q in verdict.undecided
                )
        if expected == "fail":
            failing += 1
            right_step += result.diagnosis.first_critical_failure_step is not None and str(
                result.diagnosis.first_critical_failure_step
            ) == str(label.get("step_id"))
    print(
        f"  {name}: verdict right {_pct(right, total)}; of the failing ones, first critical step right "
        f"{_pct(right_step, failing)}"
    )
    print("    expected->got: " + ", ".join(f"{key} {count}" for key, count in sorted(outcomes.items())))
    if false_rules:
        print(
            "    traces labelled pass with a finding, by rule: "
            + ", ".join(f"{k} {n}" for k, n in false_rules.most_common())
        )
    if missed:
        print("    traces labelled fail not failed, by labelled dimension->verdict: " + ", ".join(
            f"{k} {n}" for k, n in missed.most_common()))  # fmt: skip
    shown_lines = [i for i, line in enumerate(wrong) if not line.startswith("      ")]
    for line in wrong[: shown_lines[shown] if shown < len(shown_lines) else len(wrong)]:
        print(line)


def halved_set(
    name: str, folder: Path, file: str, halves: tuple[str, ...], heldout_samples: int, messages: bool = False
) -> None:
    """A labelled set in one file, halved by SHA-1 of the trace id: each half apart, cases shown for the tuning
    half only (``heldout_samples`` for the other)."""
    path = folder / file
    if not path.exists():
        print(f"  {name}: {path.relative_to(REPO)} is missing; skipped")
        return
    for split in halves:
        labelled_set(
            f"{name}, {split}",
            (raw for raw in _labelled(path) if split_of(str(raw["trace_id"])) == split),
            lambda policy: load_policy(folder / policy),
            40 if split == "tuning" else heldout_samples,
            messages,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--limit", type=int, default=None, help="traces per half of each set (default: all)")
    parser.add_argument("--sections", default=",".join(SECTIONS))
    parser.add_argument("--sgd", type=Path, default=SGD_DIR)
    parser.add_argument("--tooltalk", type=Path, default=TOOLTALK_DIR)
    parser.add_argument("--apibank", type=Path, default=APIBANK_DIR)
    parser.add_argument("--taubench", type=Path, default=TAUBENCH_RUNS, help="τ-bench runs (a JSON list, gzip or not)")
    parser.add_argument("--samples", type=int, default=5, help="examples printed per set or kind (tuning half)")
    parser.add_argument(
        "--heldout-samples",
        type=int,
        default=0,
        help="examples printed per set or kind of the held-out halves (default 0: their figures only, so that a "
        "reader tuning rules does not see what they miss there)",
    )
    parser.add_argument("--halves", default="tuning,heldout", help="which halves to judge (tuning, heldout)")
    parser.add_argument(
        "--messages",
        action="store_true",
        help="under each wrong verdict of a labelled set shown, its findings' messages and undecided questions",
    )
    args = parser.parse_args(argv)
    halves = tuple(h.strip() for h in args.halves.split(",") if h.strip())
    if not halves or set(halves) - {"tuning", "heldout"}:
        parser.error(f"--halves takes tuning and/or heldout, not {args.halves!r}")

    def samples(split: str) -> int:
        return int(args.samples if split == "tuning" else args.heldout_samples)

    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    have_sgd = (args.sgd / "test_schema.json").exists()
    have_tooltalk = (args.tooltalk / "tooltalk").is_dir()
    have_apibank = (args.apibank / "level-1-api.json.gz").exists()
    for what, present, where, option in (
        ("SGD", have_sgd, args.sgd, "--sgd"),
        ("ToolTalk", have_tooltalk, args.tooltalk, "--tooltalk"),
        ("API-Bank", have_apibank, args.apibank, "--apibank"),
    ):
        if not present:
            print(f"{what} not found at {where}: its sets are skipped (pass {option})")
    if "false_alarms" in sections:
        print("False alarms (every finding is false; goal >= 99% pass, no veto):")
        for split in halves:
            if have_sgd:
                false_alarms(
                    f"SGD test, {split}", _limited(sgd_traces(args.sgd, split=split), args.limit), samples(split)
                )
            if have_tooltalk:
                false_alarms(
                    f"ToolTalk, {split}",
                    _limited(tooltalk_traces(args.tooltalk, split=split), args.limit),
                    samples(split),
                )
            if have_apibank:
                false_alarms(
                    f"API-Bank, {split}",
                    _limited(apibank_traces(args.apibank, split=split), args.limit),
                    samples(split),
                )
    if "faults" in sections and have_sgd:
        print(
            "Planted faults (caught = a finding of the expected dimension at the planted step; a plant whose clean "
            "trace had one there already is counted apart; goal >= 95%):"
        )
        for split in halves:
            pools = _pools(args.sgd, split)
            faults(f"SGD test, {split}", _limited(sgd_traces(args.sgd, split=split), args.limit), pools, samples(split))
            if have_tooltalk:
                faults(
                    f"ToolTalk, {split}",
                    _limited(tooltalk_traces(args.tooltalk, split=split), args.limit),
                    pools,
                    samples(split),
                )
    if "taubench" in sections:
        print("τ-bench airline runs of GPT-4o (real runs, τ-bench's reward as the outcome; data/taubench):")
        if not args.taubench.exists():
            print(f"  {args.taubench} not found: skipped (pass --taubench)")
        for split in halves if args.taubench.exists() else ():
            pools = _pools(args.sgd, split) if have_sgd else None
            taubench("τ-bench airline", args.taubench, split, args.limit, samples(split), pools)
    if "adversarial" in sections:
        print("Adversarial traces of issue 28 (each must get its verdict):")
        adversarial = environment_from_json(POLICY, "aem_bench.adversarial.POLICY")
        labelled_set("adversarial", cases(), lambda _name: adversarial)
    if "fresh" in sections:
        print("Fresh hard traces by a helper who never read the rules (tuning and held-out apart):")
        for split in halves:
            path = FRESH / f"{split}.jsonl"
            if not path.exists():
                print(f"  fresh, {split}: {path.relative_to(REPO)} is missing; skipped")
                continue
            labelled_set(
                f"fresh, {split}",
                _labelled(path),
                lambda name: load_policy(FRESH / name),
                40 if split == "tuning" else args.heldout_samples,
                args.messages,
            )
    if "fresh2" in sections:
        print("Fresh hard traces, second set (another blind helper, other domains; halves by SHA-1 of the id):")
        halved_set("fresh v2", FRESH2, "heldout.jsonl", halves, args.heldout_samples, args.messages)
    if "fresh3" in sections:
        print("Fresh hard traces, third set (a third blind helper, other domains; all held out, never tuned on):")
        path = FRESH3 / "heldout.jsonl"
        if path.exists():
            labelled_set(
                "fresh v3, heldout", _labelled(path), lambda name: load_policy(FRESH3 / name), args.heldout_samples
            )
        else:
            print(f"  fresh v3: {path.relative_to(REPO)} is missing; skipped")
    if "fresh4" in sections:
        print("Fresh hard traces, fourth set (a fourth blind helper, other domains; halves by SHA-1 of the id):")
        halved_set("fresh v4", FRESH4, "traces.jsonl", halves, args.heldout_samples, args.messages)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
