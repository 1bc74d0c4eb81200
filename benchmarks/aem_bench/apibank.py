"""API-Bank as traces: its test dialogues of levels 1 and 2, one trace a dialogue file (for the sets beside it, see
``aem_bench.trace_sets``, whose ``split_of`` halves this one too).

**API-Bank** (Li et al., "API-Bank: A Comprehensive Benchmark for Tool-Augmented LLMs", EMNLP 2023; Apache-2.0),
``../shared/external_data/api_bank``: 261 dialogues (212 of level 1, Call; 49 of level 2, Retrieve+Call; the paper's
314 also count level 3, which these files do not hold), given as the turn-level test items of levels 1 and 2
(``*-api``: the next API request, ``*-response``: the next reply), one trace per dialogue ``file``. Each item's
``input`` is the dialogue so far, a prefix of the file's longest one, so the longest input, with its
``expected_output`` appended, holds every turn of the file. ``User:`` becomes a ``user`` step, ``AI:`` a
``response`` step, ``API-Request: [Name(k='v', ...)]->result`` a ``tool_call`` (the call parsed by ``ast``; the
result after ``->`` as JSON, else a Python literal, else text; the line as written in ``metadata.apibank_request``).
In 40 of 508 calls the data quotes a list argument (``attendees='['Ann', 'Bo']'``), which no parser reads; there the
quotes around ``[...]``/``{...}`` are dropped and the argument is the list (the API's declared ``list`` type). The
catalog is the file's ``API descriptions`` (JSON lines of the instruction): ``input_parameters`` as the properties
(``str``, ``int``, ``bool``, ``list``/``list(str)`` as JSON types, their descriptions kept), ``output_parameters``
named in the description. API-Bank states neither which parameters are required nor any read-only or destructive
hint, so none is given: the library then takes every tool as a write that needs no consent (MCP's defaults:
``readOnlyHint`` false, ``destructiveHint`` unset) and no argument as required. The instruction says only "The
current year is 2023", so ``initial_state`` is ``{"current_year": 2023}``: no day is stated, none is invented.
What the data gets wrong is kept as written and no dialogue is left out: the (Cancel)TimedSwitch calls of 8 files
pass ``device_id`` where their description names ``name``; the paper calls the dialogues annotated, not each one
successful, and some are not (a reply naming an ID the call did not return, a password the user never gave).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from aem_bench.trace_sets import SHARED, open_json, split_of

APIBANK_DIR = SHARED / "api_bank"

__all__ = ["APIBANK_DIR", "apibank_catalog", "apibank_traces"]


APIBANK_TYPES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "list": {"type": "array"},
    "list(str)": {"type": "array", "items": {"type": "string"}},
}
"""API-Bank's parameter type names as JSON Schema types (every name its API descriptions use)."""


def apibank_catalog(instruction: str) -> list[dict[str, Any]]:
    """The tools an API-Bank ``instruction`` describes (its JSON lines after ``API descriptions:``), as MCP tool
    definitions without hints or required parameters (see the module docstring)."""
    tools = []
    for line in instruction.split("API descriptions:", 1)[-1].strip().splitlines():
        api = json.loads(line)
        properties = {
            name: {**APIBANK_TYPES.get(spec["type"], {}), "description": spec["description"]}
            for name, spec in api["input_parameters"].items()
        }
        returns = "; ".join(f"{n} ({o['type']}): {o['description']}" for n, o in api["output_parameters"].items())
        description = f"{api['description']} Returns: {returns}" if returns else api["description"]
        tools.append(
            {
                "name": api["name"],
                "description": description,
                "inputSchema": {"type": "object", "properties": properties},
            }
        )
    return tools


def _apibank_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """``[Name(k='v', ...)]`` as the name and its arguments, or None when it is not one literal call."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
        if not (isinstance(node, ast.List) and len(node.elts) == 1 and isinstance(node.elts[0], ast.Call)):
            return None
        call = node.elts[0]
        if not isinstance(call.func, ast.Name) or call.args:
            return None
        return call.func.id, {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError):
        return None


def _apibank_result(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return ast.literal_eval(text)
    except (SyntaxError, ValueError):
        return text


def _apibank_step(line: str) -> dict[str, Any]:
    """One ``API-Request: [Name(...)]->result`` line (or one without ``->result``) as a ``tool_call`` step."""
    request = line.removeprefix("API-Request:").strip()
    candidates = [(request[: i + 1], request[i + 3 :]) for i in range(len(request)) if request.startswith("]->", i)]
    for call_text, result in [*candidates, (request, None)]:
        # the data sometimes quotes a list or dict argument inside quotes (see the module docstring)
        unquoted = call_text.replace("='[", "=[").replace("]', ", "], ").replace("]')", "])")
        unquoted = unquoted.replace("='{", "={").replace("}', ", "}, ").replace("}')", "})")
        parsed = _apibank_call(call_text) or _apibank_call(unquoted)
        if parsed is not None:
            observation = None if result is None else _apibank_result(result)
            step = {"action_type": "tool_call", "tool_name": parsed[0], "arguments": parsed[1]}
            return {**step, "observation": observation, "metadata": {"apibank_request": line}}
    raise ValueError(f"API-Bank request not parsed: {line[:200]!r}")


def _apibank_trace(stem: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    longest = max(items, key=lambda item: len(item["input"]))
    lines = longest["input"].rstrip("\n").split("\n")
    if lines and lines[-1].startswith("Generate"):  # the task line ("Generate API Request:" / "... AI Response:")
        lines = lines[:-1]
    expected = str(longest["expected_output"]).strip()
    lines.append(expected if expected.startswith("API-Request:") else f"AI: {expected.removeprefix('AI:').strip()}")
    steps: list[dict[str, Any]] = []
    for line in lines:
        if line.startswith("API-Request:"):
            steps.append(_apibank_step(line))
        elif line.startswith(("User:", "AI:")):
            kind = "user" if line.startswith("User:") else "response"
            steps.append({"action_type": kind, "content": line.split(":", 1)[1].strip()})
        else:
            raise ValueError(f"API-Bank {stem}: a line that is no turn: {line[:200]!r}")
    for index, step in enumerate(steps, start=1):
        step["step_id"] = f"s{index}"
    tools: dict[str, dict[str, Any]] = {}
    for item in items:
        for tool in apibank_catalog(item["instruction"]):
            tools.setdefault(tool["name"], tool)
    _, found, rest = longest["instruction"].partition("The current year is ")
    state = {"current_year": int(rest.split(".", 1)[0])} if found else {}
    return {
        "trace_id": f"apibank-{stem}",
        "case_id": stem,
        "initial_state": state,
        "environment": {"tools": list(tools.values())},
        "steps": steps,
    }


def apibank_traces(folder: Path = APIBANK_DIR, split: str | None = None) -> Iterator[dict[str, Any]]:
    """The API-Bank test dialogues of levels 1 and 2 as trace objects, one a dialogue file, sorted by file name
    (see the module docstring); ``split`` as for SGD, by the file's stem."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    for name in ("level-1-api", "level-1-response", "level-2-api", "level-2-response"):
        for item in open_json(folder / f"{name}.json.gz"):
            by_file.setdefault(Path(item["file"]).stem, []).append(item)
    for stem in sorted(by_file):
        if split is None or split_of(stem) == split:
            yield _apibank_trace(stem, by_file[stem])
