"""axe-core in the browser tests: WCAG 2.1 A and AA rules on the project's own HTML and widgets.

Used by ``tests/surfaces/test_browser.py``, ``tests/tools/test_site.py`` and ``tests/surfaces/test_app_browser.py``.
The npm package ``axe-core`` (pinned: :data:`AXE_VERSION`) is installed once with the
ordinary npm client into the git-ignored ``artifacts/axe/`` folder; nothing is fetched
while a page is tested (the script is injected from disk).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from lab_session import ROOT, on_ci
from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
AXE_DIR = ROOT / "artifacts" / "axe"
AXE_SCRIPT = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
#: The WCAG 2.1 A and AA rule sets.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@functools.cache
def axe_script() -> Path:
    """``axe.min.js``, installed with npm on first use; skips locally (fails under CI) without npm."""
    package = AXE_DIR / "node_modules" / "axe-core" / "package.json"
    if AXE_SCRIPT.is_file() and f'"version": "{AXE_VERSION}"' in package.read_text(encoding="utf-8"):
        return AXE_SCRIPT
    npm = shutil.which("npm")
    if npm is None:
        message = "the axe-core checks need npm (`apt-get install -y npm`) to install axe-core once"
        if on_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    AXE_DIR.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--prefix", str(AXE_DIR), f"axe-core@{AXE_VERSION}"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if result.returncode or not AXE_SCRIPT.is_file():
        pytest.fail(f"npm could not install axe-core {AXE_VERSION}:\n{result.stderr[-2000:]}", pytrace=False)
    return AXE_SCRIPT


_RUN_JS = """async ([include, exclude, tags]) => {
  const context = include ? {include: [[include]], exclude: exclude.map(s => [s])} : document;
  const found = await axe.run(context, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return found.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 200)})),
  }));
}"""


def axe_violations(
    page: Page,
    include: str | None = None,
    *,
    exclude: Iterable[str] = (),
    known: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The WCAG 2.1 AA violations axe finds in ``include`` (a CSS selector; default the whole page).

    ``known`` maps rule ids to why they are not the project's (e.g. JupyterLab's own
    chrome): those are left out. Returns the rest, each with its nodes.
    """
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script()))
    found = page.evaluate(_RUN_JS, [include, list(exclude), WCAG_TAGS])
    return [v for v in found if v["id"] not in (known or {})]


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations as readable lines for an assertion message."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        lines += [f"    {node['target']}: {node['html']}" for node in violation["nodes"][:5]]
    return "\n".join(lines)
