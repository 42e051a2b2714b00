"""The chat loop: read a line, search or answer or run a command, and always come back to the prompt.

Bad input gets its Dutch message in red; Ctrl-C cancels the line being typed or the search or
answer under way; Ctrl-D and /exit end the session with exit status 0.
"""

import sys
from collections.abc import Callable, Iterator
from typing import Protocol, TextIO

from django.db import DatabaseError, connection

from search.answers import Answer, AnswerPiece, guideline_answer_stream
from search.chat import render
from search.chat.commands import Line, line_parse
from search.chat.console import Console, PipeReader, TerminalReader
from search.health import health_check
from search.pipeline.errors import SearchInputError
from search.pipeline.request import SearchRequest
from search.pipeline.run import SearchOutcome
from search.services import search_perform


class Reader(Protocol):
    def read(self) -> str: ...


def situation_search(query: str) -> SearchOutcome:
    """Search and record like `recommend` does (no user: the terminal has no login)."""
    return search_perform(request=SearchRequest(query=query), user=None)


class ChatSession:
    """One specialist's session: lines in, cards, answers and command output out."""

    def __init__(
        self,
        *,
        console: Console,
        reader: Reader,
        interactive: bool,
        search: Callable[[str], SearchOutcome] = situation_search,
        answer_stream: Callable[[str], Iterator[AnswerPiece | Answer]] = guideline_answer_stream,
    ):
        self.console = console
        self.reader = reader
        self.interactive = interactive
        self.search = search
        self.answer_stream = answer_stream

    @classmethod
    def for_terminal(cls, stdin: TextIO | None = None, stdout: TextIO | None = None) -> "ChatSession":
        """A prompt with history when a person types at a terminal; plain lines when input is piped."""
        stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
        console = Console(stdout)
        if stdin.isatty() and stdout.isatty():
            return cls(console=console, reader=TerminalReader(colour=console.colour), interactive=True)
        return cls(console=console, reader=PipeReader(stdin), interactive=False)

    def run(self) -> None:
        """Serve lines until /exit, Ctrl-D or the end of piped input."""
        if self.interactive:
            self.console.show([("class:titel", render.WELCOME + "\n")])
        while True:
            try:
                raw = self.reader.read()
            except KeyboardInterrupt:
                self.console.show([("class:zacht", render.CANCELLED_LINE + "\n")])
                continue
            except EOFError:
                break
            try:
                if not self.handle(raw):
                    break
            except KeyboardInterrupt:
                self._after_interrupt()
        self.console.show([("class:titel", render.GOODBYE + "\n")])

    def handle(self, raw: str) -> bool:
        """Act on one line; False when the session should end."""
        line = line_parse(raw)
        if line is None:
            return True
        if line.command == "/exit":
            return False
        try:
            self._dispatch(line)
        except SearchInputError as error:
            self.console.show(render.error_fragments(str(error)))
        except DatabaseError:
            _connection_reset()
            self.console.show(render.error_fragments(render.DATABASE_DOWN))
        if line.command != "/clear":
            self.console.show([("", "\n")])  # air between one answer and the next
        return True

    def _dispatch(self, line: Line) -> None:
        if line.command == "":
            if self.interactive:
                self.console.show([("class:zacht", render.SEARCHING + "\n")])
            self.console.show(render.outcome_fragments(self.search(line.text)))
        elif line.command == "/vraag":
            self._answer(line.text)
        elif line.command == "/help":
            self.console.show(render.help_fragments())
        elif line.command == "/health":
            self.console.show(render.health_fragments(health_check()))
        elif line.command == "/clear":
            self.console.clear()
        else:
            self.console.show(render.unknown_command_fragments(line.command))

    def _answer(self, question: str) -> None:
        """Show the answer as it is written, then the sources (or the passages when the summary failed)."""
        if not question:
            self.console.show(render.error_fragments(render.QUESTION_MISSING))
            return
        if self.interactive:
            self.console.show([("class:zacht", render.SEARCHING_GUIDELINES + "\n")])
        stream = self.answer_stream(question)
        streamed: list[str] = []
        try:
            for item in stream:
                if isinstance(item, AnswerPiece):
                    streamed.append(item.text)
                    self.console.piece(item.text)
                else:
                    self.console.show(render.answer_end_fragments(streamed="".join(streamed), answer=item))
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()  # on Ctrl-C: stops the LLM's HTTP stream

    def _after_interrupt(self) -> None:
        _connection_reset()
        self.console.show([("", "\n"), ("class:melding", render.INTERRUPTED + "\n\n")])


def _connection_reset() -> None:
    """Drop the connection so the next line opens a fresh one."""
    # A query stopped half-way may leave the connection unusable; a caller's transaction is not ours to end.
    if not connection.in_atomic_block:
        connection.close()
