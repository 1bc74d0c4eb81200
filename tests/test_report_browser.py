"""The HTML report in a real browser: headless Chromium driven by Playwright.

The tests use a Chromium that is already there (``$AEM_BROWSER``, else ``chromium`` or
``chromium-browser`` on PATH) and never install one: a test run does not change the system. No
package of the project's registry ships a Chromium inside its wheel (Playwright's own browsers are
downloaded at run time), so without one the tests skip with a loud message naming the opt-in command,
``make browser-test``, which installs Debian's ``chromium`` with apt-get and runs them, failing
(not skipping) when the browser is still missing (``AEM_BROWSER_REQUIRED=1``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

import aem_strands
from aem_strands.cli import main
from aem_strands.report.words import ordered, root_cause_in_words
from tests.conftest import EXAMPLES, action, paired, reply

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


OPT_IN = "make browser-test (installs Debian's chromium with apt-get, as root, then runs these tests)"


def _loud_skip(why: str) -> NoReturn:
    message = f"BROWSER TEST SKIPPED: {why}; to run it: {OPT_IN}"
    if os.environ.get("AEM_BROWSER_REQUIRED") == "1":
        pytest.fail(message.replace("SKIPPED", "FAILED (AEM_BROWSER_REQUIRED=1)"))
    sys.__stderr__.write(f"\n{'!' * 80}\n{message}\n{'!' * 80}\n")
    pytest.skip(message)


def find_chromium() -> str | None:
    """The Chromium to drive: ``$AEM_BROWSER``, else ``chromium`` / ``chromium-browser`` on PATH; never installs one."""
    named = os.environ.get("AEM_BROWSER")
    if named:
        return shutil.which(named)
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _loud_skip("the 'playwright' package is not installed (pip install -e '.[dev]')")
    path = find_chromium()
    if path is None:
        _loud_skip("no Chromium found ($AEM_BROWSER, chromium or chromium-browser on PATH)")
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=path, args=FLAGS)
        except Error as error:
            _loud_skip(f"Chromium at {path} does not start: {error}")
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def example_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("report")
    paths = [*sorted((EXAMPLES / "data").glob("sales_report*.json")), EXAMPLES / "data" / "travel_dataset.jsonl"]
    dialogs = [d for p in paths for d in aem_strands.load_dialogs(p)]
    records = [r.to_dict() for r in aem_strands.evaluate_dialogs(dialogs, scorer="exact")]
    results = folder / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    html = folder / "report.html"
    assert main(["report", str(results), "--by", "version", "--html", str(html), "--json", str(folder / "s.json")]) == 0
    return html, records


def open_page(browser: Any, html: Path, fragment: str = "") -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(html.as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']")
    assert errors == []
    return page


def test_failing_dialog_first_with_its_root_cause_in_words(browser: Any, example_report: Any) -> None:
    html, records = example_report
    first = ordered(records)[0]
    assert not first["test_pass"]
    page = open_page(browser, html)
    row = page.locator("#dialog-table tbody tr.dialog").first
    assert row.locator("td.id").inner_text() == first["dialog_id"]
    assert row.locator("td.verdict").inner_text() == "FAIL"
    words = root_cause_in_words(first)
    assert page.get_by_text(words, exact=True).first.is_visible()
    assert page.locator("#headline").inner_text().endswith(words)
    assert page.locator("#dialog-table tbody tr.details").count() == 1  # the first failing dialog opens its details
    page.close()


def test_filters_narrow_the_list(browser: Any, example_report: Any) -> None:
    html, records = example_report
    page = open_page(browser, html)
    rows = page.locator("#dialog-table tbody tr.dialog")
    assert rows.count() == len(records)
    page.fill("#q", "wrong_recipient")
    assert [r.inner_text() for r in rows.locator("td.id").all()] == ["sales_report_wrong_recipient"]
    page.fill("#q", "")
    page.select_option("#status", "pass")
    passing = sorted(r["dialog_id"] for r in records if r["test_pass"])
    assert sorted(r.inner_text() for r in rows.locator("td.id").all()) == passing
    assert set(rows.locator("td.verdict").all_inner_texts()) == {"PASS"}
    page.close()


def test_sorting_and_paging_a_long_list(browser: Any, tmp_path: Path) -> None:
    dialogs = [
        {
            "dialog_id": f"d{i:03d}",
            "turns": [
                paired(1, action("db", "Get", id="1"), action("db", "Get", id="1" if i % 3 else "2")),
                paired(2, reply("Done."), reply("Done.")),
            ],
        }
        for i in range(120)
    ]
    source = tmp_path / "many.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in dialogs), encoding="utf-8")
    results = tmp_path / "results.jsonl"
    found = aem_strands.evaluate_dialogs(aem_strands.load_dialogs(source), scorer="exact")
    results.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in found), encoding="utf-8")
    html = tmp_path / "many.html"
    main(["report", str(results), "--html", str(html)])
    page = open_page(browser, html, "#status=fail")
    rows = page.locator("#dialog-table tbody tr.dialog")
    assert rows.count() == 40  # d000, d003, ... d117: i % 3 == 0 fail (40 of 120), all on page 1 of 1
    page.select_option("#status", "")
    assert rows.count() == 50  # 120 dialogs, 50 a page
    assert page.locator("#page").inner_text() == "page 1 of 3"
    page.click("#next")
    assert page.locator("#page").inner_text() == "page 2 of 3"
    page.click("th[data-key='id']")  # sort by id, ascending, back on page 2
    assert rows.locator("td.id").first.inner_text() == "d050"
    page.close()
