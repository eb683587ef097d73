"""docs/architecture.md's picture and layout of ``helpers/``, drawn from the code.

``python tools/architecture.py`` prints them; ``--write`` puts them into docs/architecture.md between
its markers, and ``tests/project/test_drift.py`` fails when the page and the code disagree. The picture
takes the audiences and their rooms from the package's folders, and what may import what from the
import-linter contracts in pyproject.toml; the layout takes each module's one-line summary from its
docstring. Kept here rather than in a drawing library: it is 150 lines of text, and a picture made of
text reads the same in a terminal, on GitHub and on the static site.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
BEGIN, END = (
    "<!-- drawn from the code: python tools/architecture.py --write -->",
    "<!-- end of the drawing -->",
)
#: The audiences, top of the picture first, with who each one serves.
AUDIENCES = (
    ("cli", "the command line, over the three packages below"),
    ("trainer", "the trainer's: who is ready, and the proof"),
    ("team", "the team's: its own data, at scale"),
    ("trainee", "the trainee's: what notebooks 01-04 use"),
    ("core", "everyone's: the two checks, standard library only"),
)
WIDTH = 100


def summary(path: Path) -> str:
    """The first sentence of a module's docstring, on one line, cut to fit the layout."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n", 1)[0].split())
    plain = re.sub(r":\w+:`~?([^`]+)`", r"\1", first).replace("``", "").replace("`", "")
    sentence = plain.split(". ", 1)[0].rstrip(".")
    if len(sentence) <= WIDTH - 30:
        return sentence
    return sentence[: WIDTH - 31].rsplit(" ", 1)[0].rstrip(",:;(") + " …"


def _rooms(package: Path) -> list[str]:
    """A package's rooms: its subfolders (``drill/``) and modules (``grading``), sorted."""
    subs = sorted(p.name + "/" for p in package.iterdir() if (p / "__init__.py").is_file())
    mods = sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__")
    return subs + mods


def _contracts() -> list[dict]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["importlinter"]["contracts"]


def _wrap(words: list[str], indent: str) -> list[str]:
    lines, line = [], indent
    for word in words:
        if len(line) + len(word) + 2 > WIDTH and line.strip():
            lines.append(line.rstrip(", ") + ",")
            line = indent
        line += word + ", "
    lines.append(line.rstrip(", "))
    return lines


def picture(root: Path = ROOT) -> str:
    """The audiences as boxes, top to bottom, each with its rooms and what it may import."""
    helpers = root / "helpers"
    out: list[str] = []
    layers = next(c for c in _contracts() if c.get("type") == "layers" and not c.get("containers"))
    order = [layer.replace("helpers.", "") for layer in layers["layers"]]
    out.append("Imports flow down only (the layers contract): " + "  <-  ".join(reversed(order)))
    for name, who in AUDIENCES:
        package = helpers / name
        modules = [
            p for p in package.rglob("*.py") if p.name != "__init__.py" and "app_templates" not in p.parts
        ]
        title = f" helpers.{name} ({len(modules)} modules): {who} "
        out.append("+" + title.center(WIDTH - 2, "-") + "+")
        for line in _wrap(_rooms(package), "|   "):
            out.append(line.ljust(WIDTH - 1) + "|")
        out.append("+" + "-" * (WIDTH - 2) + "+")
    for contract in _contracts():
        if contract.get("type") in ("forbidden", "independence"):
            out.append(f"Also held: {contract['name']}.")
    return "\n".join(out)


def layout(root: Path = ROOT) -> str:
    """Every folder of ``helpers/`` with its docstring's first sentence, and the modules in it, by name."""
    helpers = root / "helpers"
    out: list[str] = []

    def walk(folder: Path, depth: int) -> None:
        pad = "  " * depth
        name = "helpers/" if folder == helpers else folder.name + "/"
        out.append(f"{pad}{name}".ljust(24) + summary(folder / "__init__.py"))
        modules = sorted(p.name for p in folder.glob("*.py") if p.name != "__init__.py")
        if modules:
            out.extend(_wrap(modules, pad + "    "))
        for sub in sorted(p for p in folder.iterdir() if (p / "__init__.py").is_file()):
            walk(sub, depth + 1)

    walk(helpers, 0)
    return "\n".join(out)


def drawing(root: Path = ROOT) -> str:
    """What goes between the page's markers."""
    return f"{BEGIN}\n\n```\n{picture(root)}\n```\n\n```\n{layout(root)}\n```\n\n{END}"


def written(page: str, root: Path = ROOT) -> str:
    """``page`` with its drawing replaced by the code's own."""
    before, rest = page.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    return before + drawing(root) + after


def main(argv: list[str]) -> int:
    """``--write`` updates docs/architecture.md; with no argument, print the drawing."""
    if argv == ["--write"]:
        PAGE.write_text(written(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    print(drawing())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
