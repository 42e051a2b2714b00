"""Guideline Q&A: a Dutch question answered from the guideline corpus, always with verifiable citations.

Passages come from search.pipeline.passages (BM25F and vector kNN scored by a fitted linear model, with the evidence
to abstain when the corpus does not answer the question). Offline the answer is
extractive: the most relevant sentences of the best passages, quoted with document and
section. With an LLM configured the answer is generated (and streamed) from those passages only, and
every citation it makes must point at one of them; otherwise we fall back to the extractive answer.
"""

import logging
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.conf import settings

from lexical.terms import prefix_stems
from lexical.thesaurus import expand_for_lexical, legal_expansion_terms
from lexical.typos import spelling_corrected
from search.pipeline.llm_client import LLMError, chat_stream, llm_configured
from search.pipeline.passages import passages_retrieve
from search.pipeline.request import validate_query
from search.pipeline.types import CitedChunk

logger = logging.getLogger(__name__)

# The passages an answer cites (and an LLM is shown). Five, not three: a question that spans two regulations
# ("weigert zijn veiligheidsbril": the employee's duty in the Arbowet, the protective equipment in the Arbobesluit)
# needs both, and the second often stands fourth or fifth behind more passages of the first. Over the 2,065 judged
# law and guideline questions every expected place was among the first three for 1,959 and among the first five
# for 1,983; for the 46 of them that expect two regulations, 28 -> 30 (docs/measurements.md, twenty-fifth session).
PASSAGES = 5
# At most this many paragraphs of one appendix chapter: the UWV framework's chapter 5 has six paragraphs on the
# re-integration report, and four of them filled an answer about the plan of action whose article stands in the
# Regeling procesgang. Over the 3,177 judged law and guideline questions: cited@3 0.937 -> 0.938, cited@5 0.949 ->
# 0.950, none lost; three per chapter changes nothing (docs/measurements.md, twenty-eighth session).
PER_CHAPTER = 2
CITED = 5
MIN_CITATIONS = 2
MAX_ANSWER_CHARS = 4000
NO_ANSWER = "Geen passende richtlijn of wettekst gevonden voor deze vraag."
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z0-9(])")
_STOP = frozenset({"werkgever", "werknemer", "moet", "moeten", "wordt", "worden", "welke", "wanneer", "binnen", "bij", "voor", "door", "deze", "zijn", "heeft", "hebben", "over", "naar"})


@dataclass
class Answer:
    question: str
    answer: str
    citations: list[CitedChunk] = field(default_factory=list)
    generated: bool = False
    fallback_reason: str = ""
    documents_considered: list[dict] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    spelling: dict[str, str] = field(default_factory=dict)  # typed word -> the word searched (lexical.typos)


def _stems(text: str) -> set[str]:
    return prefix_stems(text, ignore=_STOP)


def _best_sentences(passage: str, question_stems: set[str], limit: int = 2) -> str:
    sentences = [s.strip() for s in _SENTENCE.split(passage.replace("\n", " ")) if len(s.strip()) > 20]
    if not sentences:
        return passage[:400]
    ranked = sorted(sentences, key=lambda s: len(_stems(s) & question_stems), reverse=True)[:limit]
    in_order = [s for s in sentences if s in ranked]
    return " ".join(in_order)[:700]


def extractive_answer(question: str, passages: list[CitedChunk]) -> str:
    stems = _stems(" ".join([expand_for_lexical(question), *legal_expansion_terms(question)]))
    lines = ["Volgens de richtlijnen:"]
    for number, passage in enumerate(passages, start=1):
        lines.append(f"[{number}] {passage.document_title}, {passage.section or 'algemeen'}: “{_best_sentences(passage.content, stems)}”")
    return "\n\n".join(lines)


LLM_SYSTEM = (
    "Je beantwoordt vragen van Nederlandse arbeidsdeskundigen en casemanagers uitsluitend op basis van de "
    "meegegeven genummerde passages. Verzin niets; staat het antwoord er niet in, zeg dat dan. Antwoord in het "
    "Nederlands in gewone tekst (geen JSON, geen opmaak), kort en zakelijk, en verwijs na elke bewering naar de "
    "passage waarop zij steunt met haar nummer tussen vierkante haken, zoals [1] of [2]."
)
STREAM_PIECE_WORDS = 6  # the offline answer streams in pieces of a few words, like a generated one
_MARKER = re.compile(r"\[(\d{1,2})\]")


@dataclass
class AnswerPiece:
    """A piece of the answer text as it is written (streamed before the final Answer)."""

    text: str


def guideline_answer(question: str, *, generate: bool | None = None, held_out_source: str = "") -> Answer:
    """Answer a guideline question with at least two citations when the corpus allows.

    generate=None uses the LLM when one is configured; False gives the instant extractive answer.
    `held_out_source` (evaluation only): the judged question set being measured, whose questions do not vote.
    """
    *_, answer = guideline_answer_stream(question, generate=generate, held_out_source=held_out_source)
    return answer


def guideline_answer_stream(question: str, *, generate: bool | None = None, held_out_source: str = "") -> Iterator[AnswerPiece | Answer]:
    """The answer as it is written: text pieces, then the final, validated Answer (always the last item).

    The question is checked and the passages retrieved before this returns, so bad input raises
    SearchInputError here and not halfway through a stream. The pieces of a generated answer are
    shown as they come; the final Answer is what counts: its text has only citation markers that
    point at a passage it cites, or it is the extractive answer when the LLM failed on the way.
    """
    started = time.perf_counter()
    typed = validate_query(question)
    question, corrections = spelling_corrected(typed)
    retrieval = passages_retrieve(question, held_out_source=held_out_source)
    retrieved_ms = round((time.perf_counter() - started) * 1000, 2)
    relevant = retrieval.best(PASSAGES, per_chapter=PER_CHAPTER) if retrieval.answers_question else []
    considered = retrieval.documents_considered
    if not relevant:
        answer = Answer(
            typed, NO_ANSWER, [], documents_considered=considered, timings_ms={"retrieve": retrieved_ms, "total": retrieved_ms}, spelling=corrections
        )
        return iter([AnswerPiece(NO_ANSWER), answer])
    answer = Answer(typed, extractive_answer(question, relevant[:CITED]), relevant[:CITED], documents_considered=considered, spelling=corrections)
    wants_generation = llm_configured() if generate is None else generate
    pieces = _generated(answer, relevant) if wants_generation and llm_configured() else _extractive_pieces(answer)
    return _timed(pieces, answer, started, retrieved_ms)


def _timed(pieces: Iterator[AnswerPiece], answer: Answer, started: float, retrieved_ms: float) -> Iterator[AnswerPiece | Answer]:
    yield from pieces
    answer.timings_ms = {"retrieve": retrieved_ms, "total": round((time.perf_counter() - started) * 1000, 2)}
    yield answer


def _extractive_pieces(answer: Answer) -> Iterator[AnswerPiece]:
    words = re.split(r"(\s+)", answer.answer)
    step = STREAM_PIECE_WORDS * 2  # words and the whitespace between them
    for start in range(0, len(words), step):
        yield AnswerPiece("".join(words[start : start + step]))


def _generated(answer: Answer, passages: list[CitedChunk]) -> Iterator[AnswerPiece]:
    """Stream a generated answer, then keep it only when its citations all point at offered passages."""
    numbered = "\n\n".join(f"[{n}] {p.document_title} — {p.section}\n{p.content}" for n, p in enumerate(passages, start=1))
    written: list[str] = []
    try:
        for piece in chat_stream(
            system=LLM_SYSTEM, user=f"Vraag: {answer.question}\n\nPassages:\n{numbered}", timeout=settings.LLM_TIMEOUT_S, use="answers"
        ):
            written.append(piece)
            if sum(map(len, written)) > MAX_ANSWER_CHARS:
                raise LLMError(f"answer longer than {MAX_ANSWER_CHARS} characters")
            yield AnswerPiece(piece)
    except LLMError as error:
        answer.fallback_reason = f"llm: {error}"
        return
    text, cited = renumbered("".join(written), len(passages))
    if not text or not cited:
        answer.fallback_reason = "llm: answer without valid citations"
        return
    citations = [passages[n - 1] for n in cited]
    for extra in passages:
        if len(citations) >= MIN_CITATIONS:
            break
        if extra not in citations:
            citations.append(extra)
    for passage in passages:
        passage.used_in_prompt = True
    answer.answer, answer.citations, answer.generated = text, citations, True


def renumbered(text: str, offered: int) -> tuple[str, list[int]]:
    """The text with its markers renumbered in order of first use, markers to passages not offered
    removed, and the offered passage numbers it cites in that order."""
    cited: list[int] = []

    def replace(match: re.Match) -> str:
        number = int(match[1])
        if not 1 <= number <= offered:
            return ""
        if number not in cited:
            cited.append(number)
        return f"[{cited.index(number) + 1}]"

    cleaned = _MARKER.sub(replace, text.strip())
    return re.sub(r"[ \t]+([.,;:])", r"\1", cleaned).strip(), cited
