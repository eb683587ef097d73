"""Markup is built only through :mod:`helpers.trainee.html`: no module makes HTML from a value by hand.

The guard reads every module under ``helpers/`` (one test per module, so ``-k`` picks some)
and fails on the four ways a value reaches markup unescaped: an f-string whose literal text
holds a tag, a ``+`` or ``%`` with a string holding a tag, ``.format`` called on a string
holding a tag, and ``Html(...)`` called on anything but a string literal (which takes a
string as markup without escaping it). A "tag" is ``<!`` or ``<`` followed by the name of an
HTML element, so text such as ``"<stdin>"`` or ``a < b`` is not one.
"""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "helpers"

#: The builder itself: it defines the one escaping path (``Html``, ``html``, ``html_join``, the
#: escapers and the style sheet), so it is the one module allowed to assemble markup by hand.
BUILDER = "helpers/trainee/html.py"

#: The only functions outside the builder that may call ``Html(...)`` on a non-literal, and why.
HTML_CALL_EXCEPTIONS = {
    # The site's reference pages: mistune's own output, rendered with escape=True.
    ("tools/publish/site.py", "_rendered"),
    # Feedback text already escaped: spans of it, cut at backticks (which no entity holds), are put
    # inside a literal <code> element.
    ("helpers/trainee/views/answer_html.py", "_ticked"),
    # Pygments' highlighted source: Pygments escapes the code it highlights.
    ("helpers/trainee/views/check_source.py", "source_block"),
}

#: Every element name of HTML (the living standard, with the obsolete ones a browser still parses).
HTML_ELEMENTS = frozenset(
    [
        "a",
        "abbr",
        "acronym",
        "address",
        "area",
        "article",
        "aside",
        "audio",
        "b",
        "base",
        "bdi",
        "bdo",
        "big",
        "blockquote",
        "body",
        "br",
        "button",
        "canvas",
        "caption",
        "center",
        "cite",
        "code",
        "col",
        "colgroup",
        "data",
        "datalist",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "fieldset",
        "figcaption",
        "figure",
        "font",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "i",
        "iframe",
        "img",
        "input",
        "ins",
        "kbd",
        "label",
        "legend",
        "li",
        "link",
        "main",
        "map",
        "mark",
        "marquee",
        "math",
        "menu",
        "meta",
        "meter",
        "nav",
        "noscript",
        "object",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "param",
        "picture",
        "pre",
        "progress",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "script",
        "search",
        "section",
        "select",
        "slot",
        "small",
        "source",
        "span",
        "strike",
        "strong",
        "style",
        "sub",
        "summary",
        "sup",
        "svg",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "track",
        "tt",
        "u",
        "ul",
        "var",
        "video",
        "wbr",
    ]
)

_TAG = re.compile(r"<(!|/?([A-Za-z][A-Za-z0-9-]*))")


def holds_tag(text: object) -> bool:
    """True when ``text`` is a string holding an HTML tag (``<p``, ``</td``, ``<!DOCTYPE``)."""
    if not isinstance(text, str):
        return False
    for match in _TAG.finditer(text):
        if match.group(1) == "!" or (match.group(2) or "").lower() in HTML_ELEMENTS:
            return True
    return False


def _tag_constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and holds_tag(node.value)


@dataclass(frozen=True)
class Finding:
    """One place that makes markup by hand: its line, what it is, and the code."""

    line: int
    kind: str
    code: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind}: {self.code[:120]}"


def _f_string_makes_markup(node: ast.JoinedStr) -> bool:
    parts = node.values
    if any(_tag_constant(part) for part in parts):
        return True
    # A tag whose name is the value itself: f"<{tag}>".
    return any(
        isinstance(part, ast.Constant) and isinstance(part.value, str) and part.value.endswith(("<", "</"))
        for part, after in itertools.pairwise(parts)
        if isinstance(after, ast.FormattedValue)
    )


class _Guard(ast.NodeVisitor):
    def __init__(self, module: str) -> None:
        self.module = module
        self.function: list[str] = []
        self.findings: list[Finding] = []

    def _add(self, node: ast.expr, kind: str) -> None:
        self.findings.append(Finding(node.lineno, kind, ast.unparse(node)))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.function.append(node.name)
        self.generic_visit(node)
        self.function.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_FormattedValue(self, node: ast.FormattedValue) -> None:
        # A format spec (the ``<`` of ``f"{name:<{width}}"`` aligns left) is no markup; values inside it are.
        self.visit(node.value)
        if isinstance(node.format_spec, ast.JoinedStr):
            for part in node.format_spec.values:
                self.visit(part)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        if _f_string_makes_markup(node):
            self._add(node, "f-string makes markup")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Add | ast.Mod) and (_tag_constant(node.left) or _tag_constant(node.right)):
            self._add(node, f"{'+' if isinstance(node.op, ast.Add) else '%'} makes markup")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format" and _tag_constant(func.value):
            self._add(node, ".format makes markup")
        named = (isinstance(func, ast.Name) and func.id == "Html") or (
            isinstance(func, ast.Attribute) and func.attr == "Html"
        )
        if named and self.module != BUILDER:
            # Html() is the empty markup; Html("...") a literal written in the code.
            literal = not node.args and not node.keywords
            literal = literal or (
                len(node.args) == 1
                and not node.keywords
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            )
            allowed = (self.module, self.function[-1] if self.function else "") in HTML_CALL_EXCEPTIONS
            if not literal and not allowed:
                self._add(node, "Html(...) on a non-literal takes a string as markup unescaped")
        self.generic_visit(node)


def findings(source: str, module: str = "helpers/example.py") -> list[Finding]:
    """Every place in ``source`` (the module ``module``) that makes markup by hand."""
    if module == BUILDER:
        return []
    guard = _Guard(module)
    guard.visit(ast.parse(source))
    return guard.findings


MODULES = sorted(path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("module", MODULES)
def test_no_module_makes_markup_by_hand(module: str) -> None:
    found = findings((ROOT / module).read_text(encoding="utf-8"), module)
    assert not found, f"{module} makes markup by hand; use html()/html_join():\n" + "\n".join(map(str, found))


def test_every_listed_exception_is_still_a_function_that_calls_html() -> None:
    for module, function in HTML_CALL_EXCEPTIONS:
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        defined = [
            node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == function
        ]
        assert len(defined) == 1, (module, function)
        calls = [
            node
            for node in ast.walk(defined[0])
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Html"
        ]
        assert calls, f"{module}:{function} no longer calls Html(): drop it from the exceptions"


@pytest.mark.parametrize(
    "source",
    [
        'x = f"<p>{value}</p>"',
        'x = f"</td>{value}"',
        "x = f'<!DOCTYPE html>{title}'",
        'x = f"<{tag}>"',
        'x = f"<{tag} class=\\"a\\">"',
        'x = "<b>" + value',
        'x = value + "</b>"',
        'x = "<li>%s</li>" % value',
        'x = "<td>{}</td>".format(value)',
        'x = "<TD>{}</TD>".format(value)',
        "x = Html(value)",
        "x = markup.Html(value)",
        'x = Html(f"<b>{value}</b>")',
        'x = Html("<b>" + value + "</b>")',
        'x = Html("a", "b")',
        "def view_markup(value):\n    return Html(value)",
        'x = f"{a}<br>{b}"',
        'x = "<p>a</p>" "<p>b</p>" + value',
        'x = f"{name:<{width}}<br>"',
        "x = f\"{name:{f'<b>{v}'}}\"",
    ],
)
def test_the_guard_finds_markup_made_by_hand(source: str) -> None:
    assert findings(source), source


@pytest.mark.parametrize(
    "source",
    [
        'source = "<stdin>"',
        'what = f"reading {name} from <stdin>"',
        'x = "<stdin>" + suffix',
        'msg = f"{a} < {b}"',
        'msg = f"n<3 for {value}"',
        'msg = "header query-id<TAB>corpus-id" + tail',
        'msg = "%s <differences from the reference>" % name',
        'msg = "<version>.tgz".format()',
        "ok = a < b",
        'x = html("<p>{}</p>", value)',
        'x = html_join(html("<li>{}</li>", v) for v in values)',
        'x = Html("<b>literal</b>")',
        "x = Html('')",
        "x = Html()",
        'text = f"{value}"',
        'line = f"{name:<{width}} {count:>5}"',
        'line = f"{name:<22}|"',
        'x = "".join(parts)',
    ],
)
def test_the_guard_lets_text_and_the_builder_pass(source: str) -> None:
    assert not findings(source), findings(source)


def test_the_exceptions_hold_only_in_their_module_and_function() -> None:
    source = "def _rendered(value):\n    return Html(value)\n"
    assert not findings(source, "tools/publish/site.py")
    assert findings(source, "helpers/trainer/widgets/checkout.py")
    assert findings("def other(value):\n    return Html(value)\n", "tools/publish/site.py")
    assert findings("x = Html(value)\n", "tools/publish/site.py")


def test_the_builder_module_may_assemble_markup() -> None:
    assert not findings('STYLE = Html("<style>" + colour + "</style>")', BUILDER)
