"""The terminal side of the chat: styled output (plain when piped or NO_COLOR is set) and line input,
with arrow-key history at a terminal and plain lines from a pipe so the chat is scriptable."""

import os
from typing import TextIO

from prompt_toolkit import PromptSession, print_formatted_text
from prompt_toolkit.formatted_text import FormattedText, to_plain_text
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.styles import Style

from search.chat.render import Fragments

STYLE = Style.from_dict({
    "prompt": "ansicyan bold",
    "titel": "bold",
    "kop": "bold",
    "zacht": "ansibrightblack",
    "link": "ansiblue underline",
    "bron": "",
    "melding": "ansiyellow",
    "fout": "ansired bold",
    "goed": "ansigreen",
})
PROMPT = "evi> "


def colour_wanted(stream: TextIO) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


class Console:
    """Writes fragments to one stream, styled or as plain text."""

    def __init__(self, stream: TextIO, *, colour: bool | None = None):
        self.stream = stream
        self.colour = colour_wanted(stream) if colour is None else colour

    def show(self, fragments: Fragments) -> None:
        if self.colour:
            print_formatted_text(FormattedText(fragments), style=STYLE, file=self.stream, end="")
        else:
            self.stream.write(to_plain_text(fragments))
        self.stream.flush()

    def piece(self, text: str) -> None:
        """A piece of a streamed answer, shown at once."""
        self.stream.write(text)
        self.stream.flush()

    def clear(self) -> None:
        if self.stream.isatty():
            self.stream.write("\x1b[2J\x1b[H")  # erase the screen, cursor home
            self.stream.flush()


class TerminalReader:
    """Lines typed at a terminal, with history in memory only: situations may hold health data."""

    def __init__(self, *, colour: bool):
        self.session: PromptSession[str] = PromptSession(history=InMemoryHistory(), style=STYLE if colour else None)
        self.message = FormattedText([("class:prompt", PROMPT)]) if colour else PROMPT

    def read(self) -> str:
        """The next line; KeyboardInterrupt on Ctrl-C, EOFError on Ctrl-D."""
        return self.session.prompt(self.message)


class PipeReader:
    """Lines from a pipe or file, without prompt or history."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def read(self) -> str:
        line = self.stream.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")
