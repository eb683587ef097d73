"""The command line's shared argparse pieces (:mod:`helpers.core.arguments`)."""

from __future__ import annotations

import pytest

from helpers.core import arguments, streams
from helpers.core.differences import help_text


class _Recorder:
    def __init__(self) -> None:
        self.written: list = []

    def write(self, data) -> None:
        self.written.append(data)


@pytest.fixture
def parser_class():
    _, parser = arguments._argparse()
    return parser


def test_the_root_parser_needs_a_command(parser_class, monkeypatch):
    monkeypatch.setattr(streams, "_STDERR", _Recorder())
    root, commands = arguments._root(parser_class)
    commands.add_parser("sentinels")
    assert root.prog == "python -m helpers"
    assert root.parse_args(["sentinels"]).command == "sentinels"
    with pytest.raises(SystemExit) as stopped:
        root.parse_args([])
    assert stopped.value.code == 2
    (message,) = streams._STDERR.written[-1:]
    assert "the following arguments are required: COMMAND" in message


def test_help_puts_the_differences_in_place_of_their_placeholder(parser_class, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    root, _ = arguments._root(parser_class)
    text = root.format_help()
    assert arguments._DIFFERENCES not in text
    assert help_text() in text
    assert "130  interrupted (Ctrl-C); --results FILE is not written" in text


def test_help_goes_to_the_guarded_standard_output_as_utf8(parser_class, monkeypatch):
    recorder = _Recorder()
    monkeypatch.setattr(streams, "_STDOUT", recorder)
    root, _ = arguments._root(parser_class)
    root.description = "Checks for café \udcff pipelines."
    root.epilog = None
    root.print_help()
    (data,) = recorder.written
    assert isinstance(data, bytes) and "café \\udcff pipelines".encode() in data


def _no_terminal(fd: int):
    raise OSError("no terminal")


@pytest.mark.parametrize(("value", "width"), [("60", 58), ("0", 78), ("wide", 78), (None, 78)])
def test_the_help_width_is_columns_else_80_less_2(parser_class, monkeypatch, value, width):
    if value is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", value)
    monkeypatch.setattr("os.get_terminal_size", _no_terminal)
    assert parser_class.plain("prog")._width == width
    assert parser_class.raw("prog")._width == width
