"""The Schema-Guided Dialogue corpus (SGD) as paired dialogs.

SGD (Rastogi et al., "Towards Scalable Multi-domain Conversational Agents: The Schema-Guided
Dialogue Dataset", AAAI 2020; CC BY-SA 4.0) is read where it lies, never copied: a folder holding
``<split>/dialogues_NNN.json`` or ``.json.gz`` files, each a JSON list of dialogues.

User turns are context, not agent output, and are dropped. Each SYSTEM turn gives, in order, one
action turn per frame that carries a ``service_call`` (``tool_id`` = the frame's ``service``,
``action`` = ``method``, ``args`` = ``parameters``), then one response turn (the ``utterance``).
Turns are numbered 1, 2, ... across the dialog. Predicted equals gold, so every converted dialog
passes; ``perturb`` (re-exported from ``aem_bench.perturbation``) makes the predicted side wrong.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from aem_bench.perturbation import perturb
from aem_strands.errors import ConfigError, InputError, Location
from aem_strands.types import ActionCall, Dialog, JsonValue, Reply, Turn, TurnKind

__all__ = ["load_sgd_dialogs", "perturb", "sgd_files"]


def _field(container: Any, key: str, expected: type, where: Location, prefix: str) -> Any:
    path = f"{prefix}.{key}" if prefix else key
    if not isinstance(container, dict) or key not in container:
        raise InputError("missing field", replace(where, field=path))
    value = container[key]
    if not isinstance(value, expected):
        found = type(value).__name__
        raise InputError(f"expected {expected.__name__}, found {found}", replace(where, field=path))
    return value


def _convert(raw: Any, path: Path) -> Dialog:
    where = Location(file=str(path))
    dialog_id: str = _field(raw, "dialogue_id", str, where, "")
    where = replace(where, dialog_id=dialog_id)
    services: list[Any] = _field(raw, "services", list, where, "")
    turns: list[Turn] = []
    for index, sgd_turn in enumerate(_field(raw, "turns", list, where, "")):
        at = f"turns[{index}]"
        if _field(sgd_turn, "speaker", str, where, at) != "SYSTEM":
            continue
        for frame_index, frame in enumerate(_field(sgd_turn, "frames", list, where, at)):
            if not isinstance(frame, dict) or frame.get("service_call") is None:
                continue
            frame_at = f"{at}.frames[{frame_index}]"
            call = _field(frame, "service_call", dict, where, frame_at)
            content = ActionCall(
                _field(frame, "service", str, where, frame_at),
                _field(call, "method", str, where, f"{frame_at}.service_call"),
                dict(_field(call, "parameters", dict, where, f"{frame_at}.service_call")),
            )
            turns.append(Turn(len(turns) + 1, TurnKind.ACTION, content, content))
        reply = Reply(_field(sgd_turn, "utterance", str, where, at))
        turns.append(Turn(len(turns) + 1, TurnKind.RESPONSE, reply, reply))
    metadata: dict[str, JsonValue] = {"source": "sgd", "file": path.name, "services": [str(s) for s in services]}
    return Dialog(dialog_id, tuple(turns), metadata)


def _read(path: Path) -> list[Any]:
    try:
        data = path.read_bytes()
        text = (gzip.decompress(data) if path.name.endswith(".gz") else data).decode("utf-8")
        dialogues = json.loads(text)
    except (OSError, ValueError) as error:  # unreadable, bad gzip, bad UTF-8 or bad JSON
        raise InputError(f"cannot read SGD file: {error}", Location(file=str(path))) from error
    if not isinstance(dialogues, list):
        found = type(dialogues).__name__
        raise InputError(f"expected a JSON list of dialogues, found {found}", Location(file=str(path)))
    return dialogues


def sgd_files(root: Path, split: str = "test") -> list[Path]:
    """The ``dialogues_*.json[.gz]`` files of a split, in name order; ``InputError`` when there are none."""
    folder = root / split
    files = sorted(p for p in folder.glob("dialogues_*") if p.name.endswith((".json", ".json.gz")))
    if not files:
        raise InputError(f"no dialogues_*.json or dialogues_*.json.gz files in {folder}", Location(file=str(folder)))
    return files


def load_sgd_dialogs(root: Path, limit: int | None = None, *, split: str = "test") -> list[Dialog]:
    """The SGD dialogues of ``root/<split>`` as paired dialogs with predicted == gold.

    Files are read in name order and dialogues in file order; ``limit`` keeps the first ``limit``
    (files after the last one needed are not read). Each dialog's metadata holds ``source``
    (``"sgd"``), ``file`` and ``services``. Malformed data raises ``InputError`` naming the file,
    the dialogue id and the field (``turns[3].frames[0].service_call.method``).
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ConfigError(f"limit must be a non-negative integer or None, got {limit!r}")
    dialogs: list[Dialog] = []
    for path in sgd_files(root, split):
        if limit is not None and len(dialogs) >= limit:
            break
        for raw in _read(path):
            if limit is not None and len(dialogs) >= limit:
                break
            dialogs.append(_convert(raw, path))
    return dialogs
