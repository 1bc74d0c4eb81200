"""Throughput of reply comparison: ``aem-strands compare --pairs`` and ``aem-strands score`` on reply pairs.

Takes every reply pair of ``data/replies`` (SGD calibration and held-out, hand-made) and the STS-B
rows of ``data/calibration/responses.*.jsonl``, writes them once as ``compare`` pairs (``"kind":
"response"``) and once as one-turn dialogs for ``score``, and runs the real command line on each::

    HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/reply_throughput.py [--scorer embedding exact] \\
        [--package DIR] [--limit N]

``--package DIR`` puts DIR first on ``PYTHONPATH``, to time another checkout of ``aem_strands`` (e.g.
an extracted older commit) on the same pairs. ``compare`` prints its own pairs/s (``compare_many``
only); for ``score`` the process wall time is what is measured. Both include loading the model once.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def reply_pairs() -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    files = [
        DATA / "replies" / n for n in ("sgd_pairs.calibration.jsonl", "sgd_pairs.heldout.jsonl", "hard_pairs.jsonl")
    ]
    files += [DATA / "calibration" / f"responses.{part}.jsonl" for part in ("calibration", "heldout")]
    for path in files:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                if "responses." not in path.name or str(row.get("source", "")).startswith("stsb"):
                    pairs.append((row["gold"], row["predicted"]))
    return list(dict.fromkeys(pairs))


def _run(command: list[str], package: Path | None) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = dict(os.environ)
    if package is not None:
        env["PYTHONPATH"] = f"{package}{os.pathsep}{env.get('PYTHONPATH', '')}"
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env, cwd=package or None)
    return time.perf_counter() - started, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scorer", nargs="+", default=["embedding", "exact"])
    parser.add_argument("--package", type=Path, help="a folder holding another aem_strands package to time")
    parser.add_argument("--limit", type=int, help="time only the first N pairs")
    args = parser.parse_args()
    pairs = reply_pairs()[: args.limit]
    with tempfile.TemporaryDirectory() as folder:
        compare_file, score_file = Path(folder) / "pairs.jsonl", Path(folder) / "dialogs.jsonl"
        compare_file.write_text(
            "".join(json.dumps({"gold": g, "predicted": p, "kind": "response"}) + "\n" for g, p in pairs),
            encoding="utf-8",
        )
        dialogs = [
            {"dialog_id": f"d{i}", "turns": [{"turn_no": 1, "turn": "Agent", "gold_turn": {"response": g},
                                              "predict_turn": {"response": p}}]}
            for i, (g, p) in enumerate(pairs)
        ]  # fmt: skip
        score_file.write_text("".join(json.dumps(d) + "\n" for d in dialogs), encoding="utf-8")
        print(f"{len(pairs)} reply pairs")
        for scorer in args.scorer:
            cli = [sys.executable, "-m", "aem_strands.cli"]
            wall, done = _run([*cli, "compare", "--pairs", str(compare_file), "--scorer", scorer], args.package)
            summary = [line for line in done.stderr.splitlines() if "pairs/s" in line]
            methods: dict[str, int] = {}
            for line in done.stdout.splitlines():
                method = json.loads(line).get("method", "?")
                methods[method] = methods.get(method, 0) + 1
            print(f"compare --scorer {scorer}: {summary[-1] if summary else done.stderr.strip()[-300:]}")
            print(f"  process wall time {wall:.1f} s (exit {done.returncode}); decided by method: {methods}")
            wall, done = _run([*cli, "score", str(score_file), "--scorer", scorer, "--format", "jsonl"], args.package)
            print(f"score --scorer {scorer}: {len(pairs)} one-turn dialogs in {wall:.1f} s process wall time "
                  f"= {len(pairs) / wall:.0f} dialogs/s (exit {done.returncode})")  # fmt: skip


if __name__ == "__main__":
    main()
