"""Check an experiment's AEM gold before a run, and find cached task results scored against stale gold.

``strands-evals validate`` only loads an experiment (it has no hook for evaluators to look at cases),
so a case whose AEM gold is malformed reads "valid" and fails at run time. Run this beside it::

    python -m aem_strands.strands.validate experiments/my_experiment.json [--data-store DIR] [--json]

- every case's gold is parsed as the evaluators will parse it (``metadata["aem"]`` — an offline
  paired dialog or live gold turns — else the host's ``expected_trajectory`` / ``expected_output``);
  each problem names the case, turn and field;
- with ``--data-store DIR`` (the directory ``strands-evals run --data-store`` uses), each cached
  task result whose stored gold (``metadata`` and ``expected_*`` fields) differs from the case's is
  reported: the host scores a cache hit against the **stored** copy. Delete that file, or run from
  Python with ``GoldRefreshingStore``.

Exit codes: 0 every case's gold is valid (stale cache entries are warnings), 2 some gold is invalid
or the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from strands_evals import Case
from strands_evals.local_file_task_result_store import LocalFileTaskResultStore

from aem_strands.errors import AemError
from aem_strands.report.words import counted
from aem_strands.strands.cases import AEM_KEY, aem_entry, case_dialog, host_gold
from aem_strands.strands.store import REFRESHED_FIELDS, check_case_name


@dataclass(frozen=True)
class ExperimentCheck:
    """What ``check_experiment`` found: invalid gold per case, and stale cache entries."""

    cases: int
    problems: list[dict[str, str]] = field(default_factory=list)
    stale: list[dict[str, Any]] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"cases": self.cases, "valid": self.valid, "problems": self.problems, "stale_cache": self.stale}


def _own_predictions(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """An offline dialog's own predicted side, as ``offline_task`` would give it."""
    raw = entry.get("dialog")
    turns = raw.get("turns") if isinstance(raw, dict) else raw
    return [
        {"turn_no": t["turn_no"], "predict_turn": t["predict_turn"]}
        for t in (turns if isinstance(turns, list) else [])
        if isinstance(t, dict) and isinstance(t.get("turn_no"), int) and "predict_turn" in t
    ]


def check_gold(case: Case[Any, Any]) -> str | None:
    """Why the case's AEM gold cannot be scored (``None`` when it can)."""
    metadata = case.metadata or {}
    try:
        if AEM_KEY in metadata:
            entry = aem_entry(metadata, case.name)
            case_dialog(metadata, _own_predictions(entry) if "dialog" in entry else [], name=case.name)
        elif case.expected_trajectory is not None or case.expected_output is not None:
            if not host_gold(case.expected_trajectory, case.expected_output, case.name):
                return "expected_trajectory and expected_output give no gold turn"
            case_dialog(None, [], name=case.name, expected_trajectory=case.expected_trajectory,
                        expected_output=case.expected_output)  # fmt: skip
        else:
            return "no gold: neither metadata.aem nor expected_trajectory / expected_output"
    except AemError as error:
        return str(error)
    return None


def stale_cache(directory: Path, cases: Sequence[Case[Any, Any]]) -> list[dict[str, Any]]:
    """Cached task results (``LocalFileTaskResultStore`` files) whose stored gold differs from the case's."""
    store = LocalFileTaskResultStore(directory)
    out = []
    for case in cases:
        if case.name is None:
            continue
        cached = store.load(check_case_name(case.name))  # never read outside the store folder
        if cached is None:
            continue
        changed = [name for name in REFRESHED_FIELDS if getattr(cached, name) != getattr(case, name)]
        if changed:
            out.append({"case": case.name, "file": str(directory / f"{case.name}.json"), "fields": changed})
    return out


def check_experiment(path: str | Path, data_store: str | Path | None = None) -> ExperimentCheck:
    """Check every case of an experiment file (``Experiment.to_file`` format); see the module docstring."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    raw_cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(raw_cases, list):
        raise ValueError("an experiment file is a JSON object with a 'cases' list")
    cases = [Case.model_validate(item) for item in raw_cases]
    problems = []
    for index, case in enumerate(cases):
        problem = check_gold(case)
        if problem is not None:
            problems.append({"case": case.name or f"#{index}", "problem": problem})
    stale = stale_cache(Path(data_store), cases) if data_store is not None else []
    return ExperimentCheck(len(cases), problems, stale)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aem_strands.strands.validate", description=__doc__.split("\n")[0])
    parser.add_argument("experiment_file", type=Path)
    parser.add_argument("--data-store", type=Path, metavar="DIR", help="the strands-evals run --data-store directory")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    try:
        found = check_experiment(args.experiment_file, args.data_store)
    except (OSError, ValueError, ValidationError) as error:  # unreadable file, bad JSON, not an experiment
        print(
            f"{args.experiment_file}: cannot read the experiment: {' '.join(str(error).split())[:300]}", file=sys.stderr
        )
        return 2
    if args.json:
        print(json.dumps(found.to_dict(), indent=2))
    for problem in found.problems:
        print(f"invalid gold: case {problem['case']!r}: {problem['problem']}", file=sys.stderr)
    for entry in found.stale:
        fields = ", ".join(entry["fields"])
        print(f"stale cache: {entry['file']} was stored with other {fields} than case {entry['case']!r}; "
              "a cache hit would score it against the stored copy", file=sys.stderr)  # fmt: skip
    if not args.json:
        state = "valid" if found.valid else f"{counted(len(found.problems), 'case')} with invalid gold"
        stale = counted(len(found.stale), "stale cache entry", "stale cache entries")
        print(f"{state}: {counted(found.cases, 'case')}, {stale}", file=sys.stderr)
    return 0 if found.valid else 2


if __name__ == "__main__":
    sys.exit(main())
