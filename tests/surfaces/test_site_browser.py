"""The static site in a real browser, from disk, with no network: links, worked answers, axe on every page."""

from __future__ import annotations

import re

import pytest

from helpers.trainee.cases.filled import get_case
from tools.publish.site import build_site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built from the stored notebooks into a scratch folder."""
    return build_site(tmp_path_factory.mktemp("build") / "site")


@pytest.mark.browser
@pytest.mark.smoke
def test_the_site_opens_from_disk_with_no_network(site) -> None:
    from offline_chromium import offline_page

    with offline_page(_local) as (page, watch):
        page.goto(site.index.as_uri())
        assert page.title() == "Evaluation-integrity checks: the notebooks"
        notebooks = page.locator("ol.eic-site-notebooks a")
        assert notebooks.count() == len(site.pages)
        assert page.locator("ul.eic-site-downloads a").count() == 4
        page.get_by_role("link", name=re.compile("^Target scope")).click()
        page.wait_for_url("**/02_target_scope.html")
        case = get_case("new-target")
        reveal = page.locator("details").filter(has_text=case.expected_json).filter(has_text=case.reason)
        assert reveal.count() == 1
        answer = reveal.locator("pre.eic-json")
        assert not answer.is_visible()  # collapsed until opened
        reveal.locator("summary").click()
        assert answer.is_visible()
        assert answer.inner_text() == case.expected_json
        page.get_by_role("link", name="All notebooks and downloads").click()
        page.wait_for_url("**/index.html")
        page.get_by_role("link", name=re.compile("^Sentinel answer key")).click()
        page.wait_for_url("**/03_sentinel_answer_key.html")
        assert page.locator("details").count() >= 3
        page.goto(site.index.as_uri())
        page.get_by_role("link", name=re.compile("^Where the helpers differ")).click()
        page.wait_for_url("**/docs/differences.html")
        assert page.locator("table tr").count() > 10
        page.get_by_role("link", name="All notebooks and downloads").click()
        page.wait_for_url("**/index.html")
        # WCAG 2.1 AA on the index and the check's page here; every page in the next test.
        _assert_axe_clean(page, [site.index, site.pages[1].page])
        # Links are underlined, and prompts and links have at least 4.5:1 contrast (axe checks the ratio).
        page.goto(site.pages[1].page.as_uri())
        assert page.locator("a").first.evaluate("a => getComputedStyle(a).textDecorationLine") == "underline"
    assert watch.refused == [], f"requests that would have left the disk: {watch.refused}"
    assert watch.requested and all(_local(url) for url in watch.requested), watch.requested


@pytest.mark.browser
def test_every_page_of_the_site_passes_axe_from_disk(site) -> None:
    """WCAG 2.1 AA on every page of the site, index and reference pages included (axe-core, from disk)."""
    from offline_chromium import offline_page

    with offline_page(_local) as (page, watch):
        _assert_axe_clean(page, [site.index, *(p.page for p in site.pages), *(d.page for d in site.docs)])
    assert watch.refused == [], f"requests that would have left the disk: {watch.refused}"


def _local(url: str) -> bool:
    """file:/// only: a scheme-relative //host URL seen from disk becomes file://host/..."""
    return url.startswith("file:///")


def _assert_axe_clean(page, paths) -> None:
    from axe_check import axe_violations, describe

    found = {}
    for path in paths:
        page.goto(path.as_uri())
        violations = axe_violations(page)
        if violations:
            found[path.name] = describe(violations)
    assert not found, "axe-core violations on the site:\n" + "\n".join(
        f"{name}:\n{text}" for name, text in found.items()
    )
