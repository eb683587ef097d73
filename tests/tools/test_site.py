"""The static site: every page, every worked answer, nothing loaded from elsewhere, all escaped.

The site is built once into a temporary folder from the notebooks as stored
(not re-executed), exactly as ``python3 tasks.py site`` builds ``site/``.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

import helpers
from helpers.core.errors import BuildError
from helpers.core.paths import project_root
from helpers.trainee.cases.filled import Case
from helpers.trainee.views import case_html
from tools.publish.downloads import CHECK_NOTEBOOKS, downloads_dir
from tools.publish.site import (
    SITE_MARKER,
    build_site,
    doc_paths,
    external_urls,
    notebook_paths,
    page_name,
)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = project_root() / "notebooks"
DOCS = project_root() / "docs"


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the text of every <style> element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.styles: list[str] = []
        self._style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))
        self._style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._style = False if tag == "style" else self._style

    def handle_data(self, data: str) -> None:
        if self._style:
            self.styles.append(data)


def _tags(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser


def _remote(url: str) -> bool:
    return url.strip().lower().startswith(("http://", "https://", "//"))


def _loaded_urls(page: str) -> list[str]:
    """What a browser would fetch: src-like attributes, non-anchor hrefs, CSS url() and @import."""
    parsed = _tags(page)
    urls = []
    for tag, attrs in parsed.tags:
        for name, value in attrs.items():
            if name in {"src", "data", "poster", "background", "xlink:href"}:
                urls.append(value)
            elif name == "srcset":
                urls += [part.strip().split(" ")[0] for part in value.split(",")]
            elif name == "href" and tag != "a":
                urls.append(value)
            elif name == "style":
                urls += re.findall(r"url\(\s*['\"]?([^'\")]*)", value)
    for css in parsed.styles:
        urls += re.findall(r"url\(\s*['\"]?([^'\")]*)", css)
        urls += re.findall(r"@import\s+(?:url\()?\s*['\"]?([^'\")\s;]*)", css)
    return urls


def _anchors(page: str) -> list[str]:
    return [attrs.get("href", "") for tag, attrs in _tags(page).tags if tag == "a" and "href" in attrs]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built from the stored notebooks into a scratch folder."""
    return build_site(tmp_path_factory.mktemp("build") / "site")


@pytest.fixture(scope="module")
def pages(site) -> dict[str, str]:
    """Every HTML file of the site by its path in the site, index and reference pages included."""
    return {
        path.relative_to(site.folder).as_posix(): path.read_text(encoding="utf-8")
        for path in site.folder.rglob("*.html")
    }


def test_every_notebook_has_a_page_and_the_index_links_it(site, pages) -> None:
    notebooks = notebook_paths(NOTEBOOKS)
    assert [p.name for p in notebooks][:3] == [
        "01_start_here.ipynb",
        "02_target_scope.ipynb",
        "03_sentinel_answer_key.ipynb",
    ]
    top = sorted(name for name in pages if "/" not in name)
    assert top == sorted([page_name(p) for p in notebooks] + ["index.html"])
    links = _anchors(pages["index.html"])
    for notebook in notebooks:
        assert page_name(notebook) in links
        assert "<main>" in pages[page_name(notebook)]
        assert 'href="index.html"' in pages[page_name(notebook)]
    assert (site.folder / SITE_MARKER).is_file()


def test_every_reference_page_is_on_the_site_and_the_index_links_it(site, pages) -> None:
    docs = doc_paths(DOCS)
    assert {"formats.md", "differences.md", "architecture.md", "testing.md"} <= {p.name for p in docs}
    assert sorted(name for name in pages if name.startswith("docs/")) == sorted(
        f"docs/{p.stem}.html" for p in docs
    )
    assert [doc.notebook for doc in site.docs] == docs
    links = _anchors(pages["index.html"])
    for doc in docs:
        page = pages[f"docs/{doc.stem}.html"]
        heading = next(
            line[2:] for line in doc.read_text(encoding="utf-8").splitlines() if line.startswith("# ")
        )
        assert f"docs/{doc.stem}.html" in links
        assert f"<title>{html.escape(heading.replace('`', ''))}</title>" in page
        assert "<main>" in page and 'href="../index.html"' in page
        assert "<table" in page or "|---" not in doc.read_text(encoding="utf-8"), doc.name
        assert "&lt;!--" not in page, f"{doc.name}: a comment shown as text"


def test_every_link_on_a_reference_page_reaches_its_page_and_heading(site, pages) -> None:
    checked = 0
    for name, page in pages.items():
        if not name.startswith("docs/"):
            continue
        for href in _anchors(page):
            assert not _remote(href), (name, href)
            path, _, fragment = href.partition("#")
            target = (site.folder / name).parent / path if path else site.folder / name
            assert target.resolve().is_file(), (name, href)
            assert not path.endswith((".md", ".ipynb")), (name, href)
            if fragment and target.suffix == ".html":
                assert f'id="{fragment}"' in target.read_text(encoding="utf-8"), (name, href)
            checked += 1
    assert checked >= 10


def test_the_differences_page_shows_the_table_from_its_data(pages) -> None:
    from helpers.core.differences import load_differences

    page = pages["docs/differences.html"]
    rows = load_differences()["differences"]
    first_table = page.split("</table>", 1)[0]  # the qrels reader's own table follows
    assert first_table.count("<tr>") == len(rows) + 1
    assert "<td>Byte-order mark</td>" in page
    assert "<td><code>{&quot;baseline&quot;:{},...}</code>" in page or "{&quot;baseline&quot;:{},...}" in page


def test_index_links_every_download_and_the_copies_are_identical(site, pages) -> None:
    committed = sorted(p.name for p in downloads_dir().iterdir())
    assert len(committed) == 4
    links = _anchors(pages["index.html"])
    for name in committed:
        assert f"downloads/{name}" in links
        assert (site.folder / "downloads" / name).read_bytes() == (downloads_dir() / name).read_bytes()


@pytest.mark.parametrize("case", helpers.filled_cases(), ids=lambda c: c.id)
def test_every_worked_answer_reads_in_a_details_block_of_its_checks_page(pages, case: Case) -> None:
    page = pages[page_name(CHECK_NOTEBOOKS[case.check])]
    blocks = [
        re.sub(r"<wbr/?>", "", b) for b in re.findall(r"<details>(.*?)</details>", page, flags=re.DOTALL)
    ]
    # nbconvert re-serialises pages, writing quotes in text as plain quotes: &, < and > stay escaped.
    expected = html.escape(case.expected_json, quote=False)
    reason = html.escape(case.reason, quote=False)
    decision = html.escape(case.decision, quote=False)
    holding = [b for b in blocks if expected in b and reason in b]
    assert len(holding) == 1, f"{case.id}: expected JSON and reason in one <details> block"
    assert decision in holding[0]
    assert "<summary>Show the worked answer</summary>" in holding[0]


@pytest.mark.parametrize("check", list(CHECK_NOTEBOOKS))
def test_check_pages_link_their_downloads(site, pages, check: str) -> None:
    links = [
        href for href in _anchors(pages[page_name(CHECK_NOTEBOOKS[check])]) if href.startswith("downloads/")
    ]
    stem = check.replace("-", "_")
    assert links == [f"downloads/{stem}_cases.csv", f"downloads/{stem}_example.py"]
    for href in links:
        assert (site.folder / href).is_file()


def test_no_page_loads_anything_from_elsewhere(pages) -> None:
    for name, page in pages.items():
        loaded = _loaded_urls(page)
        assert [url for url in loaded if _remote(url)] == [], name
        assert "<script" not in page.lower(), f"{name} carries a script"
        for tag in ("<iframe", "<object", "<embed", '<link rel="preconnect'):
            assert tag not in page.lower(), name
        assert external_urls(page) == ([], []), name


def test_no_page_names_an_external_url_at_all(pages) -> None:
    """Not even a link in markdown text, or a URL in a CSS comment."""
    for name, page in pages.items():
        assert re.search(r"https?://", page, flags=re.IGNORECASE) is None, name
        assert [href for href in _anchors(page) if _remote(href)] == [], name


def test_widgets_show_their_text_picture_with_a_note(pages) -> None:
    page = pages["02_target_scope.html"]
    assert page.count('class="jp-RenderedText jp-OutputArea-output eic-static-widget"') == 4
    assert "Work-it-yourself widget: Case 1" in page
    assert "widget-view+json" not in page
    assert "python3 tasks.py app" in page


def test_importing_the_builder_loads_neither_widgets_nor_nbconvert() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, tools.publish.site; print(sorted(m for m in ('ipywidgets', 'nbconvert') if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "[]\n", "")


@pytest.mark.slow  # builds the whole site in a process of its own
def test_the_site_command_builds_into_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "tools.publish.site", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert (out / "index.html").is_file()
    assert f"open {out / 'index.html'}" in done.stderr


# --- scratch notebooks --------------------------------------------------------

MARKUP_CASE = Case(
    check="target-scope",
    id="<img src=x onerror=alert(1)>",
    title='<script>alert("title")</script>',
    input={"original": ["<b>bold</b>", "a&b"], "rewritten": ["a&b"]},
    expected={"missing": ["<b>bold</b>"], "added": [], "preserved": False},
    decision="<i>Reject</i>",
    reason='"Quoted" & <a href="https://evil.example/">a link</a>',
)


def _notebook(path: Path, cells: list, title: str = "# A scratch notebook") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(title), *cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(path))
    return path


def _shown(block: case_html.HtmlBlock, count: int = 1):
    cell = nbformat.v4.new_code_cell("shown", execution_count=count)
    cell.outputs = [
        nbformat.v4.new_output(
            "execute_result",
            data={"text/html": block._repr_html_(), "text/plain": repr(block)},
            execution_count=count,
        )
    ]
    return cell


def test_markup_in_a_case_stays_escaped(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(
        source / "01_markup.ipynb",
        [
            _shown(case_html.worked_answer(MARKUP_CASE), 1),
            _shown(case_html.cases_table([MARKUP_CASE]), 2),
            _shown(case_html.supplied_input(MARKUP_CASE), 3),
        ],
        title="# The `<b>` case & more",
    )
    built = build_site(tmp_path / "site", notebooks_dir=source)
    page = (tmp_path / "site" / "01_markup.html").read_text(encoding="utf-8")
    index = built.index.read_text(encoding="utf-8")
    for raw in ("<img src=x", "<script>", "<i>Reject", '<a href="https://evil', "<b>bold</b>"):
        assert raw not in page, raw
    assert "&lt;img·src=x·onerror=alert(1)&gt;" in page  # an ID: spaces shown as ·
    assert '&lt;script&gt;alert("title")&lt;/script&gt;' in page
    assert "&lt;i&gt;Reject&lt;/i&gt;" in page
    assert '"Quoted" &amp; &lt;a href="https://evil.example/"&gt;a link&lt;/a&gt;' in page
    tags = {tag for tag, _attrs in _tags(page).tags}
    assert not tags & {"img", "script", "i"}
    assert not any("onerror" in attrs for _tag, attrs in _tags(page).tags)
    assert external_urls(page) == ([], [])
    assert "The &lt;b&gt; case &amp; more</a>" in index
    assert "<title>The &lt;b&gt; case &amp; more</title>" in page
    assert page.count("<details>") == 1


def test_markup_in_a_reference_page_stays_escaped_and_its_links_point_at_pages(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(source / "01_a.ipynb", [nbformat.v4.new_markdown_cell("## Part one")])
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "other.md").write_text("# Other\n\n## A part\n", encoding="utf-8")
    (docs / "page.md").write_text(
        "# The `<b>` page & more\n\n"
        "<script>alert(1)</script>\n\n"
        '<img src=x onerror="alert(2)">\n\n'
        "<!-- a comment line -->\n\n"
        "Text with <i>tags</i> and [a part](other.md#a-part), [the notebook](../notebooks/01_a.ipynb#Part-one),\n"
        "[home](../README.md) and [a file](../helpers/cli/run.py).\n\n"
        "| Line | Output |\n|---|---|\n| held | `true\\|false` |\n\n"
        "```html\n<b>code</b>\n```\n",
        encoding="utf-8",
    )
    built = build_site(tmp_path / "site", notebooks_dir=source, docs_dir=docs)
    page = (tmp_path / "site" / "docs" / "page.html").read_text(encoding="utf-8")
    tags = {tag for tag, _attrs in _tags(page).tags}
    assert not tags & {"script", "img", "i", "b"}
    assert not any("onerror" in attrs for _tag, attrs in _tags(page).tags)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;i&gt;tags&lt;/i&gt;" in page
    assert "&lt;b&gt;code&lt;/b&gt;" in page
    assert "a comment line" not in page
    assert "<code>true|false</code>" in page
    assert "<title>The &lt;b&gt; page &amp; more</title>" in page
    anchors = _anchors(page)
    assert "other.html#a-part" in anchors
    assert "../01_a.html#Part-one" in anchors
    assert "../index.html" in anchors
    assert "../helpers/cli/run.py" in anchors  # not a page of the site: left as written
    assert 'id="a-part"' in (tmp_path / "site" / "docs" / "other.html").read_text(encoding="utf-8")
    index = built.index.read_text(encoding="utf-8")
    assert 'href="docs/page.html">The &lt;b&gt; page &amp; more</a>' in index
    assert [doc.page.name for doc in built.docs] == ["other.html", "page.html"]


def test_a_reference_page_that_would_load_from_elsewhere_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(source / "01_a.ipynb", [])
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "remote.md").write_text(
        "# Remote\n\n![remote](https://example.invalid/x.png)\n", encoding="utf-8"
    )
    with pytest.raises(BuildError, match=r"would load https://example\.invalid/x\.png"):
        build_site(tmp_path / "site", notebooks_dir=source, docs_dir=docs)
    assert not (tmp_path / "site").exists()


def test_links_between_notebooks_point_at_their_pages(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(
        source / "01_a.ipynb",
        [nbformat.v4.new_markdown_cell("[next](02_b.ipynb#Part-two) and [elsewhere](notes/other.ipynb)")],
    )
    _notebook(source / "02_b.ipynb", [nbformat.v4.new_markdown_cell("## Part two")])
    build_site(tmp_path / "site", notebooks_dir=source)
    page = (tmp_path / "site" / "01_a.html").read_text(encoding="utf-8")
    assert 'href="02_b.html#Part-two"' in page
    assert 'href="notes/other.ipynb"' in page


def test_an_unrun_cell_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(source / "01_unrun.ipynb", [nbformat.v4.new_code_cell("1 + 1")])
    with pytest.raises(BuildError, match=r"cell 1 has not been run.*tasks\.py notebooks 01_unrun\.ipynb"):
        build_site(tmp_path / "site", notebooks_dir=source)
    assert not (tmp_path / "site").exists()


def test_a_page_that_would_load_from_elsewhere_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(
        source / "01_remote.ipynb",
        [nbformat.v4.new_markdown_cell('<img src="https://example.invalid/x.png" alt="remote">')],
    )
    with pytest.raises(BuildError, match=r"would load https://example\.invalid/x\.png"):
        build_site(tmp_path / "site", notebooks_dir=source)


def test_a_foreign_folder_is_never_replaced_but_an_earlier_site_is(tmp_path: Path) -> None:
    source = tmp_path / "notebooks"
    source.mkdir()
    _notebook(source / "01_a.ipynb", [])
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(BuildError, match="is not empty and holds no earlier site"):
        build_site(foreign, notebooks_dir=source)
    assert (foreign / "keep.txt").read_text(encoding="utf-8") == "mine"
    out = tmp_path / "site"
    build_site(out, notebooks_dir=source)
    (out / "stray.html").write_text("old", encoding="utf-8")
    build_site(out, notebooks_dir=source)
    assert sorted(p.name for p in out.iterdir()) == sorted([SITE_MARKER, "01_a.html", "index.html"])


LOOKALIKE_IDS = ("pay\u200broll", "payroll", "caf\u00e9-1", "cafe\u0301-1", "\uff50ayroll", "$x^2$")


def test_look_alike_ids_read_distinctly_on_the_site(tmp_path: Path) -> None:
    """Zero-width, decomposed and full-width IDs show as ⟨U+XXXX⟩ on a static page; none shows raw."""
    case = Case(
        "target-scope",
        "look-alikes",
        "Look-alike IDs",
        {
            "original": ["payroll", "caf\u00e9-1", "$x^2$"],
            "rewritten": ["pay\u200broll", "cafe\u0301-1", "\uff50ayroll"],
        },
        {
            "missing": ["$x^2$", "caf\u00e9-1", "payroll"],
            "added": ["cafe\u0301-1", "pay\u200broll", "\uff50ayroll"],
            "preserved": False,
        },
        "Reject",
        "pay\u200broll is not payroll",
    )
    source = tmp_path / "notebooks"
    source.mkdir()
    blocks = [
        case_html.cases_table([case]),
        case_html.supplied_input(case),
        case_html.worked_answer(case),
    ]
    _notebook(source / "01_lookalikes.ipynb", [_shown(block, i + 1) for i, block in enumerate(blocks)])
    build_site(tmp_path / "site", notebooks_dir=source)
    page = (tmp_path / "site" / "01_lookalikes.html").read_text(encoding="utf-8")
    for raw in ("\u200b", "\u0301", "\uff50"):
        assert raw not in page
    for shown in ("pay⟨U+200B⟩roll", "cafe⟨U+0301⟩-1", "⟨U+FF50⟩ayroll", "café-1", "$x^2$"):
        assert shown in page.replace("<wbr/>", "").replace("<wbr>", "")
    assert "mathjax_ignore" in page
