"""Every command the command line suggests in a message is one that works: each is run here.

Each scenario makes the command line print a message that suggests an option or a command
(``--cooldown 0 issues one now``, ``--force replaces it``, ``--trainer-dir``, ``--max-bytes raises
it``, ``checkout issue``), takes the suggestion from the printed text, applies it to the command
that printed it, and runs that: it must be accepted. A last test reads the source of the command
line and the trainer's modules for every option a message names, so a new suggestion without a
scenario here fails.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from pathlib import Path

import pytest
from signed_checkouts import answer_all

from helpers import cli
from helpers.trainer import commands as trainer_commands
from helpers.trainer.answer_key import load_key
from helpers.trainer.paper import Issued

ROOT = Path(__file__).resolve().parents[2]

#: What a message suggests: an option with its value, or one of the command line's commands.
_OPTION = re.compile(r"(--[a-z][a-z-]*)(?: (0|[A-Z]+))?")
_COMMAND = re.compile(r"\((checkout (?:issue|proctor|grade))\)")

#: Every option a message suggests, and the value a run gives it where the message names none
#: (None: a flag, no value; ``--trainer-dir`` takes the trainer's folder).
_VALUES: dict[str, str | None] = {
    "--cooldown": "0",
    "--force": None,
    "--max-bytes": "64MB",
    "--max-file-mb": "64",
    "--engine": "python",
    "--format": "json",
    "--key-format": "json",
    "--trainer-dir": "DIR",
    "--accept-unproctored": None,
}


class Run:
    """``python -m helpers`` in this process, in ``tmp_path``; Voilà is never started (execve is caught)."""

    def __init__(self, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch) -> None:
        self.tmp = tmp_path
        self.capfd = capfd
        self.served: list[list[str]] = []
        monkeypatch.chdir(tmp_path)
        monkeypatch.setattr(trainer_commands.os, "execve", lambda _p, argv, _env: self.served.append(argv))
        monkeypatch.setattr(trainer_commands.os, "chdir", lambda _path: None)

    def __call__(self, *argv: str) -> tuple[int, str]:
        self.capfd.readouterr()
        code = cli.main(list(argv))
        return code, self.capfd.readouterr().err


def _apply(message: str, argv: tuple[str, ...], option: str, value: str | None = "") -> tuple[str, ...]:
    """``argv`` with the option ``message`` suggests applied (``value`` "" takes :data:`_VALUES`)."""
    assert option in message, (option, message)
    value = _VALUES[option] if value == "" else value
    kept = list(argv)
    if option in kept:  # the suggestion replaces the value given
        at = kept.index(option)
        del kept[at : at + (2 if _VALUES[option] is not None else 1)]
    return (*kept, option, *([value] if value else []))


@pytest.fixture
def run(tmp_path, capfd, monkeypatch) -> Run:
    return Run(tmp_path, capfd, monkeypatch)


def _failed_paper(run: Run, trainer: Path, name: str) -> None:
    """Issue a paper for ``name`` and grade answers that fail it (every next action wrong)."""
    code, err = run(
        "checkout", "issue", "--trainee", name, "-o", f"{name}.json", "--trainer-dir", str(trainer)
    )
    assert code == 0, err
    issued = Issued(json.loads((run.tmp / f"{name}.json").read_text()), load_key(f"{name}.key.json"))
    labels = [case["label"] for case in issued.key["cases"]]
    (run.tmp / f"{name}-answers.json").write_text(json.dumps(answer_all(issued, wrong=labels)))
    code, err = run(
        "checkout",
        "grade",
        f"{name}-answers.json",
        "--key",
        f"{name}.key.json",
        "--trainer-dir",
        str(trainer),
    )
    assert code == 1, err


def _sittings(trainer: Path) -> list[Path]:
    folder = trainer / "proctored"
    return sorted(folder.iterdir()) if folder.exists() else []


def _accepted(run: Run, command: tuple[str, ...]) -> None:
    code, err = run(*command)
    assert code in (0, 1), (command, code, err)  # passed or failed: run, never a usage error
    assert "unrecognized arguments" not in err and "invalid choice" not in err, err


def test_after_a_failed_paper_both_issue_and_proctor_suggest_a_cooldown_that_works(run: Run) -> None:
    trainer = run.tmp / "trainer"
    _failed_paper(run, trainer, "Asha")
    commands = [
        ("checkout", "issue", "--trainee", "Asha", "-o", "again.json", "--trainer-dir", str(trainer)),
        ("checkout", "proctor", "--trainee", "Asha", "--trainer-dir", str(trainer)),
        ("checkout", "proctor", "--trainee", "Asha", "--cooldown", "12", "--trainer-dir", str(trainer)),
    ]
    for argv in commands:
        before = _sittings(trainer)
        code, err = run(*argv)
        assert code == 2 and "--cooldown 0 issues one now" in err, err
        assert _sittings(trainer) == before  # refused: no paper, and no empty sitting left behind
        suggested = _apply(err, argv, "--cooldown", "0")
        assert suggested.count("--cooldown") == 1
        _accepted(run, suggested)
    assert len(run.served) == 2 and all("voila" in " ".join(argv) for argv in run.served)
    (sitting, _other) = sorted((trainer / "proctored").iterdir())
    assert json.loads((sitting / "paper.json").read_text())["proctored"] is True


def test_proctor_keeps_the_cooldown_by_default_and_takes_one_of_its_own(run: Run) -> None:
    trainer = run.tmp / "trainer"
    _failed_paper(run, trainer, "Ben")
    code, err = run(
        "checkout", "proctor", "--trainee", "Ben", "--cooldown", "0.5", "--trainer-dir", str(trainer)
    )
    assert code == 2 and "a 0.5-hour cooldown" in err and not run.served
    code, _err = run(
        "checkout", "proctor", "--cooldown", "0", "--trainee", "Ben", "--trainer-dir", str(trainer)
    )
    assert code == 0 and len(run.served) == 1


def test_a_file_in_the_way_suggests_force_and_force_works(run: Run) -> None:
    trainer = run.tmp / "trainer"
    argv: tuple[str, ...] = (
        "checkout",
        "issue",
        "--trainee",
        "Cy",
        "-o",
        "cy.json",
        "--trainer-dir",
        str(trainer),
    )
    assert run(*argv)[0] == 0
    (run.tmp / "cy.json").unlink()
    (run.tmp / "cy.json").write_text("keep me\n")
    code, err = run(*argv)
    assert code == 2 and "use --force to replace it" in err, err
    suggested = _apply(err, argv, "--force")
    _accepted(run, suggested)

    issued = Issued(json.loads((run.tmp / "cy.json").read_text()), load_key("cy.key.json"))
    (run.tmp / "answers.json").write_text(json.dumps(answer_all(issued)))
    (run.tmp / "notes.csv").write_text("keep me\n")
    argv = ("checkout", "grade", "answers.json", "--key", "cy.key.json", "--csv", "notes.csv")
    argv += ("--trainer-dir", str(trainer))
    code, err = run(*argv)
    assert code == 2 and "(--force replaces it)" in err, err
    suggested = _apply(err, argv, "--force")
    _accepted(run, suggested)
    assert (run.tmp / "notes.csv").read_text().startswith('"trainee"')


def test_a_missing_secret_suggests_checkout_issue_and_trainer_dir_and_both_work(run: Run) -> None:
    trainer = run.tmp / "trainer"
    argv: tuple[str, ...] = (
        "checkout",
        "issue",
        "--trainee",
        "Di",
        "-o",
        "di.json",
        "--trainer-dir",
        str(trainer),
    )
    assert run(*argv)[0] == 0
    issued = Issued(json.loads((run.tmp / "di.json").read_text()), load_key("di.key.json"))
    (run.tmp / "answers.json").write_text(json.dumps(answer_all(issued)))
    empty = run.tmp / "empty"
    for argv in (
        ("checkout", "grade", "answers.json", "--key", "di.key.json", "--trainer-dir", str(empty)),
        ("cohort", str(run.tmp / "di.json"), "--checkouts", "answers.json", "--trainer-dir", str(empty)),
    ):
        code, err = run(*argv)
        assert code == 2 and "issue a paper first (checkout issue)" in err and "--trainer-dir" in err, err
        assert _COMMAND.findall(err) == ["checkout issue"]
        suggested = _apply(err, argv, "--trainer-dir", str(trainer))
        code, err = run(*suggested)
        assert "no trainer's secret" not in err and "unrecognized arguments" not in err, err
    issue = ("checkout", "issue", "--trainee", "Di", "-o", "di2.json", "--trainer-dir", str(empty))
    _accepted(run, issue)  # the command the message names, as a trainer runs it


def test_a_secret_that_cannot_be_made_suggests_a_trainer_dir_that_works(run: Run) -> None:
    blocked = run.tmp / "a-file"
    blocked.write_text("not a folder\n")
    argv = ("checkout", "issue", "--trainee", "Eve", "-o", "eve.json", "--trainer-dir", str(blocked / "sub"))
    code, err = run(*argv)
    assert code == 2 and "with --trainer-dir" in err, err
    suggested = _apply(err, argv, "--trainer-dir", str(run.tmp / "trainer"))
    _accepted(run, suggested)


def test_a_file_over_the_limit_suggests_max_bytes_and_it_works(run: Run) -> None:
    trainer = run.tmp / "trainer"
    assert (
        run("checkout", "issue", "--trainee", "Fay", "-o", "fay.json", "--trainer-dir", str(trainer))[0] == 0
    )
    issued = Issued(json.loads((run.tmp / "fay.json").read_text()), load_key("fay.key.json"))
    (run.tmp / "answers.json").write_text(json.dumps(answer_all(issued)))
    argv: tuple[str, ...] = (
        "checkout",
        "grade",
        "answers.json",
        "--key",
        "fay.key.json",
        "--trainer-dir",
        str(trainer),
    )
    argv += ("--max-bytes", "1KB")
    code, err = run(*argv)
    assert code == 4 and "(--max-bytes raises it)" in err, err
    suggested = _apply(err, argv, "--max-bytes")
    assert suggested.count("--max-bytes") == 1
    _accepted(run, suggested)


def test_a_regraded_paper_suggests_checkout_issue_for_a_retake(run: Run) -> None:
    trainer = run.tmp / "trainer"
    assert (
        run("checkout", "issue", "--trainee", "Gil", "-o", "gil.json", "--trainer-dir", str(trainer))[0] == 0
    )
    issued = Issued(json.loads((run.tmp / "gil.json").read_text()), load_key("gil.key.json"))
    (run.tmp / "a.json").write_text(json.dumps(answer_all(issued)))
    labels = [case["label"] for case in issued.key["cases"]][:1]
    (run.tmp / "b.json").write_text(json.dumps(answer_all(issued, wrong=labels)))
    grade = ("checkout", "grade", "{}", "--key", "gil.key.json", "--trainer-dir", str(trainer))
    assert run(*(a.format("a.json") for a in grade))[0] == 0
    code, err = run(*(a.format("b.json") for a in grade))
    assert code == 4 and "a retake needs a new paper (checkout issue)" in err, err
    assert _COMMAND.findall(err) == ["checkout issue"]
    _accepted(
        run, ("checkout", "issue", "--trainee", "Gil", "-o", "gil2.json", "--trainer-dir", str(trainer))
    )


def test_an_own_machine_pass_suggests_accept_unproctored_and_it_counts_it(run: Run) -> None:
    from signed_checkouts import sit

    from helpers.core.paths import fixtures_dir
    from helpers.trainer.secret import TrainerSecret

    trainer = TrainerSecret.open(run.tmp / "trainer", create=True)
    results = run.tmp / "results"
    results.mkdir()
    (results / "asha.json").write_text(json.dumps(sit(trainer, "Asha", run.tmp / "papers")))
    progress = fixtures_dir() / "sample_progress" / "asha.json"
    cohort = ("cohort", str(progress), "--checkouts", str(results), "--trainer-dir", str(trainer.folder))
    run.capfd.readouterr()
    code = cli.main(list(cohort))
    out = run.capfd.readouterr().out
    assert code in (0, 1) and "(cohort --accept-unproctored counts it)" in out, out
    suggested = [option for option, _value in _OPTION.findall(out) if option == "--accept-unproctored"]
    assert suggested == ["--accept-unproctored"]
    run.capfd.readouterr()
    code = cli.main([*cohort, *suggested])
    out = run.capfd.readouterr().out
    assert code in (0, 1) and "accept-unproctored counts it" not in out, out
    assert "Asha: ready" in out, out


def test_the_checks_suggest_an_engine_a_format_and_a_file_limit_that_work(run: Run) -> None:
    # JSON Lines rewrites have an engine route; sentinel records (two keys a line) have none.
    (run.tmp / "records.jsonl").write_text('{"baseline":{"S1":"R"},"proposed":{"S1":"R"}}\n')
    argv: tuple[str, ...] = ("sentinels", "records.jsonl", "--engine", "duckdb")
    code, err = run(*argv)
    assert code == 2 and "(--engine python or auto)" in err, err
    suggested = _apply(err, argv, "--engine", "python")
    _accepted(run, suggested)

    (run.tmp / "old.key").write_text('{"S1":"R"}')
    (run.tmp / "new.key").write_text('{"S1":"R"}')
    argv = ("sentinels", "--baseline", "old.key", "--proposed", "new.key")
    code, err = run(*argv)
    assert code == 2 and "use --format (or --key-format) json or jsonl" in err, err
    for option in ("--format", "--key-format"):
        suggested = _apply(err, argv, option)
        _accepted(run, suggested)

    (run.tmp / "old.json").write_text(json.dumps({f"S{i}": "R" * 50 for i in range(100)}))
    (run.tmp / "new.json").write_text('{"S1":"R"}')
    argv = ("sentinels", "--baseline", "old.json", "--proposed", "new.json", "--max-file-mb", "0.001")
    code, err = run(*argv)
    assert code == 2 and "(raise the limit with --max-file-mb)" in err, err
    suggested = _apply(err, argv, "--max-file-mb")
    assert suggested.count("--max-file-mb") == 1
    _accepted(run, suggested)


# --- every suggestion in the source has a scenario above --------------------------------------------

#: The modules whose messages reach the command line's standard error.
_MESSAGE_MODULES = [
    *sorted((ROOT / "helpers" / "cli").glob("*.py")),
    *sorted((ROOT / "helpers" / "trainer").glob("*.py")),
    *sorted((ROOT / "helpers" / "trainee" / "progress").glob("*.py")),
]

#: Options a message names as what was given, not as something to run ("--trainee is not UTF-8
#: text"), with the commands that print them; each must be one of those commands' options.
_NAMED_ONLY: dict[str, tuple[str, ...]] = {
    "--trainee": ("checkout issue", "checkout proctor"),
    "--csv": ("cohort", "checkout grade"),
    "--seed": ("practice generate",),
    "--count": ("practice generate",),
    "--carry": ("target-scope",),
    "--baseline": ("sentinels",),
    "--proposed": ("sentinels",),
    "--results": ("target-scope", "sentinels"),
    "--sitting": ("checkout proctor", "checkout grade"),
    "--key": ("checkout grade",),
}

#: The options the scenarios above run as suggested.
_RUN_AS_SUGGESTED = set(_VALUES)


def _message_strings(path: Path) -> list[str]:
    """The string literals of ``path`` that can reach a message: not docstrings, not argparse help."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            skipped.add(id(first.value))  # a docstring
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in {"add_argument", "add_parser"}:
            skipped.update(id(sub) for sub in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            found.append(node.value)
    return found


def test_every_option_a_message_names_is_run_as_suggested_or_belongs_to_its_command() -> None:
    from helpers.cli.run import _parser

    named: dict[str, set[str]] = {}
    for path in _MESSAGE_MODULES:
        if path.name in {"parser.py", "check_parser.py", "trainer_parser.py"}:
            continue
        for text in _message_strings(path):
            for option, _value in _OPTION.findall(text):
                named.setdefault(option, set()).add(path.name)
    assert {"--cooldown", "--force", "--trainer-dir", "--max-bytes"} <= set(named)
    unknown = set(named) - _RUN_AS_SUGGESTED - set(_NAMED_ONLY)
    assert not unknown, f"a message names {sorted(unknown)}: add a scenario that runs it ({named})"
    parser = _parser()
    for option, commands in _NAMED_ONLY.items():
        for command in commands:
            words = command.split()
            sub = parser
            for word in words:
                actions = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
                sub = actions[0].choices[word]
            assert option in sub._option_string_actions, f"{command} has no {option}"
