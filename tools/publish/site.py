"""The static documentation site: every notebook as an HTML page, an index, the downloads.

``python3 tasks.py site`` (or ``python -m tools.publish.site [-o DIR]``) renders the
notebooks in ``notebooks/`` with their stored, strict-nbval-validated outputs
(nothing is re-executed) into the git-ignored ``site/`` folder, writes an
``index.html`` that links every page and download, and copies
``notebooks/downloads/`` alongside. The reference pages in ``docs/*.md`` become
``docs/*.html`` beside them (Markdown rendered offline with ``mistune``, which
nbconvert already needs; raw HTML in a page shows as text). Open
``site/index.html`` from disk.

Offline by construction: the nbconvert template used here drops the
require.js, MathJax, mermaid and widget-embed scripts that the stock template
loads from CDNs, shows each widget as its stored text picture, and removes CSS
comments (the only place the stock CSS names URLs). The builder then refuses
any page that would still load something from elsewhere. Outputs are written
as the helpers rendered them, and the helpers escape every string
(:mod:`helpers.trainee.views.case_html`).

Not check logic; it publishes the notebooks, starting with ``01_start_here.ipynb``.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

from helpers.core.errors import BuildError
from helpers.core.paths import project_root
from helpers.trainee.html import Html, html_join
from helpers.trainee.html import html as markup

__all__ = [
    "SitePage",
    "Site",
    "SITE_MARKER",
    "notebook_paths",
    "notebook_title",
    "page_name",
    "external_urls",
    "render_notebook",
    "doc_paths",
    "render_doc",
    "build_site",
    "main",
]

#: A file the builder leaves in its output folder, so a rebuild may replace that folder.
SITE_MARKER = ".built-by-helpers-site"

_TEMPLATE_NAME = "offline.html.j2"

# The stock "lab" template, minus every script it would fetch from the network. A widget output
# shows kernel-free (the ``static_widget`` macro): a note and the widget's stored text picture, escaped.
_TEMPLATE = (
    "{%- extends 'lab/index.html.j2' -%}\n"
    "{%- macro static_widget(output) -%}"
    '<div class="jp-RenderedText jp-OutputArea-output eic-static-widget" data-mime-type="text/plain">'
    '<p class="eic-static-note">'
    "An interactive widget goes here; it needs a running kernel. Work it in the app "
    "(<code>python3 tasks.py app</code>) or in JupyterLab (<code>python3 tasks.py lab</code>). "
    "What it showed when the notebook was last run:"
    "</p>"
    "<pre>{{ output.data.get('text/plain', '') | escape_html }}</pre></div>"
    "{%- endmacro -%}\n"
    "{%- block html_head_js -%}{%- endblock html_head_js -%}\n"
    "{% block jupyter_widgets %}{% endblock jupyter_widgets %}\n"
    "{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}\n"
    "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n"
    '{% block extra_css %}<style type="text/css">\n'
    ".eic-site-nav { padding: 0.5em 1em; border-bottom: 1px solid #ccc; font-family: sans-serif; }\n"
    ".eic-static-widget { border-left: 3px solid #bbb; padding-left: 0.75em; }\n"
    ".eic-static-note { font-family: sans-serif; font-size: 90%; color: #555; margin: 0.25em 0; }\n"
    "a, a:visited, .jp-RenderedHTMLCommon a, .jp-RenderedHTMLCommon a:visited {\n"
    "  color: #0b4f9c !important; text-decoration: underline !important; }\n"
    ".highlight .ow, .highlight .nb, .highlight .bp { color: #6a1fb0 !important; }\n"
    ".highlight .c, .highlight .c1, .highlight .ch, .highlight .cm, .highlight .cs, .highlight .cp {\n"
    "  color: #3d6b3d !important; }\n"
    ".highlight .m, .highlight .mi, .highlight .mf, .highlight .mh, .highlight .mo, .highlight .mb,\n"
    ".highlight .il { color: #0a610a !important; }\n"
    ".jp-InputPrompt, .jp-OutputPrompt, .jp-InputArea-prompt, .jp-OutputArea-prompt {\n"
    "  color: #1f4f82 !important; opacity: 1 !important; }\n"
    ":focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }\n"
    "details { margin: 0.5em 0; }\n"
    "details > summary { cursor: pointer; font-weight: bold; }\n"
    "</style>{% endblock extra_css %}\n"
    "{%- block body_header -%}{{ super() }}\n"
    '<nav class="eic-site-nav"><a href="index.html">All notebooks and downloads</a></nav>\n'
    "{%- endblock body_header -%}\n"
    "{%- block execute_result -%}\n"
    "{%- if 'application/vnd.jupyter.widget-view+json' in output.data -%}{{ static_widget(output) }}{%- else -%}{{ super() }}{%- endif -%}\n"
    "{%- endblock execute_result -%}\n"
    "{%- block display_data -%}\n"
    "{%- if 'application/vnd.jupyter.widget-view+json' in output.data -%}{{ static_widget(output) }}{%- else -%}{{ super() }}{%- endif -%}\n"
    "{%- endblock display_data -%}\n"
    "{%- block data_widget_view scoped %}{{ static_widget(output) }}{%- endblock data_widget_view -%}\n"
    "{%- block data_javascript scoped %}{%- endblock data_javascript -%}\n"
)

_STYLE = re.compile(r"(<style\b[^>]*>)(.*?)(</style>)", re.DOTALL | re.IGNORECASE)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_HREF = re.compile(r'href="([^"#?:/][^"#?:]*?)\.ipynb(#[^"]*)?"')
_EXTERNAL = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
_LOCAL_SCHEMES = ("data:", "about:")
_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]*)""", re.IGNORECASE)
_CSS_IMPORT = re.compile(r"""@import\s+(?:url\()?\s*['"]?([^'")\s;]*)""", re.IGNORECASE)


@dataclass(frozen=True)
class SitePage:
    """One rendered notebook: where it came from, its page, its title and its outbound links."""

    notebook: Path
    page: Path
    title: str
    external_links: tuple[str, ...] = ()


@dataclass(frozen=True)
class Site:
    """What :func:`build_site` wrote."""

    folder: Path
    index: Path
    pages: tuple[SitePage, ...]
    downloads: tuple[Path, ...] = field(default=())
    docs: tuple[SitePage, ...] = field(default=())


def notebook_paths(folder: Path) -> list[Path]:
    """The teaching notebooks in ``folder``: ``NN_name.ipynb``, in order."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def page_name(notebook: Path | str) -> str:
    """The page a notebook becomes, e.g. ``02_target_scope.html``."""
    return Path(notebook).with_suffix(".html").name


def notebook_title(nb: Any, fallback: str) -> str:
    """The notebook's first ``# `` heading as plain text, or ``fallback``."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("# "):
                return line[2:].strip().replace("`", "")
    return fallback


class _Resources(HTMLParser):
    """Collects the URLs a page would load and the URLs its anchors point to."""

    _LOADING_ATTRS: ClassVar[frozenset[str]] = frozenset(
        {"src", "srcset", "data", "poster", "background", "xlink:href", "formaction", "action"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.loaded: list[str] = []
        self.anchors: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_style = tag == "style"
        for name, value in attrs:
            if value is None:
                continue
            if name == "href":
                (self.anchors if tag == "a" else self.loaded).append(value)
            elif name in self._LOADING_ATTRS:
                urls = (
                    [part.strip().split(" ")[0] for part in value.split(",")] if name == "srcset" else [value]
                )
                self.loaded.extend(urls)
            elif name == "style":
                self.loaded.extend(_CSS_URL.findall(value))

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.loaded.extend(_CSS_URL.findall(data))
            self.loaded.extend(_CSS_IMPORT.findall(data))


def _is_external(url: str) -> bool:
    return bool(_EXTERNAL.match(url)) and not url.strip().lower().startswith(_LOCAL_SCHEMES)


def external_urls(page: str) -> tuple[list[str], list[str]]:
    """``(loaded, linked)``: external URLs the page would load, and those its anchors name.

    External means with a scheme (``http:``, ``https:``, ``file:``…) or
    scheme-relative (``//host``); ``data:`` URLs are inline and not external.
    """
    parser = _Resources()
    parser.feed(page)
    parser.close()
    return (
        [url for url in parser.loaded if _is_external(url)],
        [url for url in parser.anchors if _is_external(url)],
    )


def _exporter() -> Any:
    import jinja2
    from nbconvert import HTMLExporter

    return HTMLExporter(
        extra_loaders=[jinja2.DictLoader({_TEMPLATE_NAME: _TEMPLATE})],
        template_file=_TEMPLATE_NAME,
        sanitize_html=False,  # the helpers escape every string; sanitizing would drop <details>
    )


def _require_executed(nb: Any, path: Path) -> None:
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell.source.strip() and cell.get("execution_count") is None:
            raise BuildError(
                f"cell {index} has not been run, so the page would lack its output; "
                f"run python3 tasks.py notebooks {path.name}",
                path=str(path),
            )


def _postprocess(page: str, pages: set[str]) -> str:
    def strip_comments(match: re.Match[str]) -> str:
        return match.group(1) + _CSS_COMMENT.sub("", match.group(2)) + match.group(3)

    def to_page(match: re.Match[str]) -> str:
        target = match.group(1) + ".ipynb"
        if Path(target).name not in pages:
            return match.group(0)
        return f'href="{match.group(1)}.html{match.group(2) or ""}"'

    page = _STYLE.sub(strip_comments, page)
    return _HREF.sub(to_page, page)


def render_notebook(path: Path, *, notebooks: Sequence[Path] = (), exporter: Any = None) -> tuple[str, str]:
    """Render one executed notebook to an offline HTML page; returns ``(title, html)``.

    Links to the other ``notebooks`` (``NN_name.ipynb``) point at their pages.
    Raises :class:`~helpers.core.errors.BuildError` for an unrun cell, or for a page
    that would load anything from another site.
    """
    import nbformat

    nb = nbformat.read(path, as_version=4)
    _require_executed(nb, path)
    nb.metadata.pop("widgets", None)  # stored widget state would ask for the CDN widget manager
    title = notebook_title(nb, path.stem)
    nb.metadata["title"] = title
    body, _resources = (exporter or _exporter()).from_notebook_node(
        nb, resources={"metadata": {"name": path.stem}}
    )
    body = _postprocess(body, {p.name for p in notebooks} | {path.name})
    loaded, _links = external_urls(body)
    if loaded:
        raise BuildError(
            f"the page would load {', '.join(sorted(set(loaded)))} from elsewhere; "
            "a static page must work offline",
            path=str(path),
        )
    return title, body


_DOC_LINK = re.compile(r"^(?P<path>[^#?:]*?)(?P<fragment>#.*)?$")
_HTML_COMMENT_LINE = re.compile(r"^<!--.*-->[ \t]*$", re.MULTILINE)
_TABLE_CELL = re.compile(r"(<t[dh][^>]*>)(.*?)(</t[dh]>)", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")

_DOC_CSS = Html(
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.5;color:#1f1f1f}"
    "code,pre{font-size:90%}pre{background:#f4f4f4;padding:0.75em;overflow-x:auto}"
    "pre:focus-visible,.eic-doc-table:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}"
    ".eic-doc-table{overflow-x:auto}table{border-collapse:collapse}"
    "th,td{border:1px solid #bbb;padding:0.3em 0.5em;text-align:left;vertical-align:top}"
    "a,a:visited{color:#0b4f9c;text-decoration:underline}img{max-width:100%}"
    ".eic-site-nav{padding-bottom:0.5em;border-bottom:1px solid #ccc}"
)


def doc_paths(folder: Path) -> list[Path]:
    """The reference pages in ``folder`` (``docs/*.md``), by name."""
    return sorted(folder.glob("*.md")) if folder.is_dir() else []


def _slug(heading_html: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = html.unescape(_TAG.sub("", heading_html)).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _doc_renderer(docs: set[str], notebooks: set[str]) -> Any:
    import mistune

    class Renderer(mistune.HTMLRenderer):
        """Headings get GitHub's anchors; links to other pages point at their HTML."""

        def heading(self, text: str, level: int, **attrs: Any) -> str:
            return markup('<h{} id="{}">{}</h{}>\n', level, _slug(text), _rendered(text), level)

        def link(self, text: str, url: str, title: str | None = None) -> str:
            return super().link(text, _doc_url(url, docs, notebooks), title)

        def block_code(self, code: str, info: str | None = None) -> str:
            # Text content needs only &, < and > escaped; quotes stay as written, as mistune leaves them.
            shown = _rendered(html.escape(code, quote=False))
            return markup('<pre tabindex="0"><code>{}</code></pre>\n', shown)

        def table(self, text: str) -> str:
            return markup(
                '<div class="eic-doc-table" role="region" tabindex="0"><table>\n{}</table></div>\n',
                _rendered(text),
            )

    return mistune.create_markdown(escape=True, renderer=Renderer(escape=True), plugins=["table"])


def _rendered(text: str) -> Html:
    """Markup mistune rendered with ``escape=True`` (raw HTML in a page escaped), taken as it is.

    The one place the site takes a string as markup: mistune escapes every text and
    attribute it writes, and :func:`render_doc` checks the whole page for anything
    loaded from elsewhere.
    """
    return Html(text)  # markup-guard: allowed, mistune's own escaped output


def _doc_url(url: str, docs: set[str], notebooks: set[str]) -> str:
    """A link as it reads from ``site/docs/``: a page's ``.md`` or ``.ipynb`` becomes its ``.html``."""
    match = _DOC_LINK.match(url)
    if not match or _is_external(url):
        return url
    path, fragment = match.group("path"), match.group("fragment") or ""
    if path in docs:
        return path[: -len(".md")] + ".html" + fragment
    if path.startswith("../notebooks/") and Path(path).name in notebooks:
        return "../" + page_name(path) + fragment
    if path == "../README.md":
        return "../index.html" + fragment
    return url


def render_doc(path: Path, *, docs: Sequence[Path] = (), notebooks: Sequence[Path] = ()) -> tuple[str, str]:
    """Render one reference page (Markdown) to an offline HTML page; returns ``(title, html)``.

    Raw HTML in the page is escaped and shown as text, except whole-line comments,
    which are dropped. Links to the other ``docs`` and to the ``notebooks`` point at
    their pages. Raises :class:`~helpers.core.errors.BuildError` for a page that would
    load anything from another site.
    """
    text = path.read_text(encoding="utf-8")
    title = next(
        (line[2:].strip().replace("`", "") for line in text.splitlines() if line.startswith("# ")), path.stem
    )
    markdown = _doc_renderer({p.name for p in docs} | {path.name}, {p.name for p in notebooks})
    body = str(markdown(_HTML_COMMENT_LINE.sub("", text)))
    body = _TABLE_CELL.sub(lambda m: m.group(1) + m.group(2).replace("\\|", "|") + m.group(3), body)
    page = markup(
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>{}</title><style>{}</style></head><body>"
        '<nav class="eic-site-nav"><a href="../index.html">All notebooks and downloads</a></nav>'
        "<main>{}</main></body></html>\n",
        title,
        _DOC_CSS,
        _rendered(body),
    )
    loaded, _links = external_urls(page)
    if loaded:
        raise BuildError(
            f"the page would load {', '.join(sorted(set(loaded)))} from elsewhere; "
            "a static page must work offline",
            path=str(path),
        )
    return title, page


def _index_html(
    pages: Sequence[SitePage], downloads: Sequence[tuple[str, str]], docs: Sequence[SitePage] = ()
) -> Html:
    items = html_join(
        markup('<li><a href="{}">{}</a> <code>{}</code></li>', page.page.name, page.title, page.notebook.name)
        for page in pages
    )
    files = html_join(
        markup('<li><a href="downloads/{}">{}</a>: {}</li>', name, name, label) for name, label in downloads
    )
    download_part = (
        markup('<h2>Downloads</h2><ul class="eic-site-downloads">{}</ul>', files) if downloads else Html("")
    )
    references = html_join(
        markup(
            '<li><a href="docs/{}">{}</a> <code>{}</code></li>', doc.page.name, doc.title, doc.notebook.name
        )
        for doc in docs
    )
    docs_part = (
        markup('<h2>Reference</h2><ul class="eic-site-docs">{}</ul>', references) if docs else Html("")
    )
    return markup(
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Evaluation-integrity checks: the notebooks</title>"
        "<style>body{{font-family:sans-serif;max-width:48em;margin:2em auto;padding:0 1em;"
        "line-height:1.5;color:#1f1f1f}}code{{font-size:90%}}li{{margin:0.3em 0}}"
        "a,a:visited{{color:#0b4f9c;text-decoration:underline}}</style></head>"
        "<body><main>"
        "<h1>Evaluation-integrity checks</h1>"
        "<p>The teaching notebooks as static pages, with the outputs they gave when they were "
        "last run and validated. Each worked answer sits in a collapsed "
        "<b>Show the worked answer</b> block: open it once you have an answer of your own. "
        "The widgets need a running kernel: to work the cases yourself, start the app "
        "(<code>python3 tasks.py app</code>) or JupyterLab (<code>python3 tasks.py lab</code>).</p>"
        '<h2>Notebooks</h2><ol class="eic-site-notebooks">{}</ol>'
        "{}{}"
        "</main></body></html>\n",
        items,
        download_part,
        docs_part,
    )


def _download_labels(folder: Path) -> list[tuple[str, str]]:
    from tools.publish.downloads import downloads

    known = [(item.filename, item.label) for item in downloads()]
    order = {name: index for index, (name, _label) in enumerate(known)}
    labels = dict(known)
    if not folder.is_dir():
        return []
    files = sorted(
        (p for p in folder.iterdir() if p.is_file()),
        key=lambda p: (order.get(p.name, len(order)), p.name),
    )
    return [(path.name, labels.get(path.name, "a download")) for path in files]


def _prepare(out_dir: Path) -> None:
    if out_dir.exists():
        if not out_dir.is_dir():
            raise BuildError("is not a folder", path=str(out_dir))
        if any(out_dir.iterdir()):
            if not (out_dir / SITE_MARKER).is_file():
                raise BuildError(
                    "is not empty and holds no earlier site; choose an empty or new folder",
                    path=str(out_dir),
                )
            shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)


def build_site(out_dir: Path, *, notebooks_dir: Path | None = None, docs_dir: Path | None = None) -> Site:
    """Render every notebook in ``notebooks_dir`` into ``out_dir``, with an index and downloads.

    ``out_dir`` must be new, empty, or an earlier site (it is replaced).
    The notebooks' ``downloads/`` folder is copied alongside, and the reference
    pages of ``docs_dir`` (default: the ``docs/`` beside the notebooks' folder)
    become ``docs/*.html``, with the folder's ``screenshots/``.
    """
    source = notebooks_dir or project_root() / "notebooks"
    notebooks = notebook_paths(source)
    if not notebooks:
        raise BuildError("holds no NN_name.ipynb notebooks", path=str(source))
    docs_source = docs_dir or source.parent / "docs"
    docs = doc_paths(docs_source)
    exporter = _exporter()
    rendered = [(path, *render_notebook(path, notebooks=notebooks, exporter=exporter)) for path in notebooks]
    rendered_docs = [(path, *render_doc(path, docs=docs, notebooks=notebooks)) for path in docs]
    _prepare(out_dir)
    pages = []
    for path, title, body in rendered:
        page = out_dir / page_name(path)
        page.write_text(body, encoding="utf-8")
        _loaded, links = external_urls(body)
        pages.append(SitePage(path, page, title, tuple(links)))
    copied: list[Path] = []
    downloads = source / "downloads"
    if downloads.is_dir():
        shutil.copytree(downloads, out_dir / "downloads")
        copied = sorted((out_dir / "downloads").iterdir())
    doc_pages = []
    if rendered_docs:
        (out_dir / "docs").mkdir()
        if (docs_source / "screenshots").is_dir():
            shutil.copytree(docs_source / "screenshots", out_dir / "docs" / "screenshots")
    for path, title, body in rendered_docs:
        page = out_dir / "docs" / path.with_suffix(".html").name
        page.write_text(body, encoding="utf-8")
        _loaded, links = external_urls(body)
        doc_pages.append(SitePage(path, page, title, tuple(links)))
    index = out_dir / "index.html"
    index.write_text(_index_html(pages, _download_labels(downloads), doc_pages), encoding="utf-8")
    (out_dir / SITE_MARKER).write_text("python -m tools.publish.site\n", encoding="utf-8")
    return Site(out_dir, index, tuple(pages), tuple(copied), tuple(doc_pages))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tools.publish.site [-o DIR]``: build the site (default ``site/``)."""
    from tools.publish.downloads import REGENERATE_COMMAND, stale_downloads

    parser = argparse.ArgumentParser(
        prog="python -m tools.publish.site",
        description="Render the validated notebooks to a static, offline HTML site.",
    )
    parser.add_argument("-o", "--output", metavar="DIR", help="output folder (default: site/)")
    args = parser.parse_args(argv)
    stale = stale_downloads()
    if stale:
        print(
            f"python -m tools.publish.site: stale downloads ({', '.join(stale)}); "
            f"regenerate with {REGENERATE_COMMAND}",
            file=sys.stderr,
        )
        return 1
    out_dir = Path(args.output) if args.output else project_root() / "site"
    try:
        site = build_site(out_dir)
    except BuildError as exc:
        print(f"python -m tools.publish.site: {exc}", file=sys.stderr)
        return 1
    print(
        f"wrote {len(site.pages)} pages, {len(site.docs)} reference pages, an index and "
        f"{len(site.downloads)} downloads to {out_dir}; "
        f"open {site.index}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
