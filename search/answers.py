"""Guideline Q&A: a Dutch question answered from the guideline corpus, always with verifiable citations.

Passages come from search.pipeline.passages (BM25F and vector kNN fused by rank, with the evidence
to abstain when the corpus does not answer the question). Offline the answer is
extractive: the most relevant sentences of the best passages, quoted with document and
section. With an LLM configured the answer is generated from those passages only, and every
citation it makes must point at one of them; otherwise we fall back to the extractive answer.
"""

import logging
import re
import time
from dataclasses import dataclass, field

from django.conf import settings

from lexical.terms import prefix_stems
from lexical.thesaurus import expand_for_lexical
from search.pipeline.llm_client import LLMError, chat_json, llm_configured
from search.pipeline.passages import passages_retrieve
from search.pipeline.request import validate_query
from search.pipeline.types import CitedChunk

logger = logging.getLogger(__name__)

PASSAGES = 4
CITED = 3
MIN_CITATIONS = 2
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
    timings_ms: dict[str, float] = field(default_factory=dict)


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
    stems = _stems(expand_for_lexical(question))
    lines = ["Volgens de richtlijnen:"]
    for number, passage in enumerate(passages, start=1):
        lines.append(f"[{number}] {passage.document_title}, {passage.section or 'algemeen'}: “{_best_sentences(passage.content, stems)}”")
    return "\n\n".join(lines)


LLM_SYSTEM = (
    "Je beantwoordt vragen van Nederlandse arbeidsdeskundigen en casemanagers uitsluitend op basis van de "
    "meegegeven genummerde passages. Verzin niets; staat het antwoord er niet in, zeg dat dan. Antwoord in het "
    'Nederlands met JSON: {"answer": "antwoord met verwijzingen als [1]", "citations": [nummers van de gebruikte passages]}.'
)


def guideline_answer(question: str, *, generate: bool | None = None) -> Answer:
    """Answer a guideline question with at least two citations when the corpus allows.

    generate=None uses the LLM when one is configured; False gives the instant extractive answer
    (the web page shows that first and then fetches the generated one).
    """
    started = time.perf_counter()
    question = validate_query(question)
    retrieval = passages_retrieve(question)
    retrieved_ms = round((time.perf_counter() - started) * 1000, 2)
    relevant = retrieval.best(PASSAGES) if retrieval.answers_question else []
    if not relevant:
        return Answer(question, NO_ANSWER, [], timings_ms={"retrieve": retrieved_ms, "total": retrieved_ms})
    answer = Answer(question, extractive_answer(question, relevant[:CITED]), relevant[:CITED])
    wants_generation = llm_configured() if generate is None else generate
    if wants_generation and llm_configured():
        _generate(answer, relevant)
    answer.timings_ms = {"retrieve": retrieved_ms, "total": round((time.perf_counter() - started) * 1000, 2)}
    return answer


def _generate(answer: Answer, passages: list[CitedChunk]) -> None:
    """Replace the extractive answer by a generated one whose citations all point at offered passages."""
    numbered = "\n\n".join(f"[{n}] {p.document_title} — {p.section}\n{p.content}" for n, p in enumerate(passages, start=1))
    try:
        data = chat_json(system=LLM_SYSTEM, user=f"Vraag: {answer.question}\n\nPassages:\n{numbered}", timeout=settings.LLM_TIMEOUT_S)
        text = data.get("answer")
        cited = [int(n) for n in data.get("citations", []) if str(n).isdigit() and 1 <= int(n) <= len(passages)]
    except (LLMError, TypeError, ValueError) as error:
        answer.fallback_reason = f"llm: {error}"
        return
    if not isinstance(text, str) or not text.strip() or not cited:
        answer.fallback_reason = "llm: answer without valid citations"
        return
    citations = [passages[n - 1] for n in dict.fromkeys(cited)]
    for extra in passages:
        if len(citations) >= MIN_CITATIONS:
            break
        if extra not in citations:
            citations.append(extra)
    answer.answer, answer.citations, answer.generated = text.strip()[:4000], citations, True
