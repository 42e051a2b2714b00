"""Guideline Q&A: a Dutch question answered from the guideline corpus, always with verifiable citations.

Retrieval is hybrid over chunks (pgvector kNN + IDF-weighted Dutch full-text, fused with RRF),
with a boost for an article the question names ("artikel 2.15"). Offline the answer is
extractive: the most relevant sentences of the best passages, quoted with document and
section. With an LLM configured the answer is generated from those passages only, and every
citation it makes must point at one of them; otherwise we fall back to the extractive answer.
"""

import logging
import re
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction

from embeddings.encoder import embed_query
from search.pipeline.llm_client import LLMError, chat_json, llm_configured
from search.pipeline.retrieval import RRF_K, vector_literal
from search.pipeline.run import validate_query
from lexical.thesaurus import expand_for_lexical
from search.pipeline.types import CitedChunk

logger = logging.getLogger(__name__)

PASSAGES = 4
ORIGINAL_SOURCE_BOOST = 1.25
MIN_CITATIONS = 2
NO_ANSWER = "Geen passende richtlijn of wettekst gevonden voor deze vraag."
_ARTICLE_MENTION = re.compile(r"\bartikel\s+([0-9IVX]+[a-z]?(?:[.:][0-9]+[a-z]?)*)", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+(?=[A-Z0-9(])")
_STOP = {"werkgever", "werknemer", "moet", "moeten", "wordt", "worden", "welke", "wanneer", "binnen", "bij", "voor", "door", "deze", "zijn", "heeft", "hebben", "over", "naar"}

_SQL = """
WITH
qlex AS (SELECT DISTINCT lexeme FROM unnest(to_tsvector('dutch', %(text)s)) WHERE length(lexeme) >= 3),
terms AS (SELECT lexeme, to_tsquery('simple', quote_literal(lexeme) || ':*') AS tq FROM qlex),
total AS MATERIALIZED (SELECT greatest(count(*), 1)::float AS n FROM guidelines_guidelinechunk),
df AS MATERIALIZED (
    SELECT t.lexeme, t.tq, (SELECT count(*) FROM guidelines_guidelinechunk c WHERE c.search_vector @@ t.tq) AS df
    FROM terms t
),
lexical AS (
    SELECT c.id, sum(ln(1 + (total.n - df.df + 0.5) / (df.df + 0.5)) * ts_rank(c.search_vector, df.tq, 1)) AS score
    FROM df JOIN guidelines_guidelinechunk c ON c.search_vector @@ df.tq CROSS JOIN total
    WHERE df.df > 0
    GROUP BY c.id
    ORDER BY score DESC
    LIMIT %(limit)s
),
vector AS (
    SELECT id, embedding <=> %(vec)s::vector AS distance
    FROM guidelines_guidelinechunk
    ORDER BY embedding <=> %(vec)s::vector
    LIMIT %(limit)s
)
SELECT c.id, 1 - (c.embedding <=> %(vec)s::vector), coalesce(l.score, 0),
       d.title, d.source, c.section_path, d.url, c.content, c.article, d.is_summary
FROM (SELECT id FROM lexical UNION SELECT id FROM vector) ids
JOIN guidelines_guidelinechunk c ON c.id = ids.id
JOIN guidelines_guidelinedocument d ON d.id = c.document_id
LEFT JOIN lexical l ON l.id = c.id
"""


@dataclass
class Answer:
    question: str
    answer: str
    citations: list[CitedChunk] = field(default_factory=list)
    generated: bool = False
    fallback_reason: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)


def passages_retrieve(question: str, *, limit: int = 40) -> list[CitedChunk]:
    """Chunks ordered by RRF over vector and lexical rank, with an article the question names first."""
    vector = embed_query(question)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # see search.pipeline.evidence: HNSW beats detoasting
        cursor.execute(_SQL, {"text": expand_for_lexical(question), "vec": vector_literal(vector), "limit": limit})
        rows = cursor.fetchall()
    chunks = {
        row[0]: (CitedChunk(row[0], row[3], row[4], row[5], row[6], round(float(row[1]), 4), row[7], row[8], row[9]), float(row[2]))
        for row in rows
    }
    fused = {chunk_id: 0.0 for chunk_id in chunks}
    by_vector = sorted(chunks, key=lambda i: chunks[i][0].score, reverse=True)
    by_lexical = sorted((i for i in chunks if chunks[i][1] > 0), key=lambda i: chunks[i][1], reverse=True)
    for ordered in (by_vector, by_lexical):
        for rank, chunk_id in enumerate(ordered, start=1):
            fused[chunk_id] += 1.0 / (RRF_K + rank)
    mentioned = {m.group(1).lower() for m in _ARTICLE_MENTION.finditer(question)}
    for chunk_id, (chunk, _) in chunks.items():
        if not chunk.is_summary:
            fused[chunk_id] *= ORIGINAL_SOURCE_BOOST  # the law itself before our summary of it
        if chunk.article and chunk.article.lower() in mentioned:
            fused[chunk_id] += 1.0
    return [chunks[i][0] for i in sorted(fused, key=fused.get, reverse=True)]


def _diverse(passages: list[CitedChunk], count: int) -> list[CitedChunk]:
    """The best passages, one per section, so the answer draws on more than one place."""
    chosen: list[CitedChunk] = []
    for passage in passages:
        if sum(1 for c in chosen if (c.document_title, c.section) == (passage.document_title, passage.section)) >= 1:
            continue
        chosen.append(passage)
        if len(chosen) == count:
            break
    return chosen


def _stems(text: str) -> set[str]:
    return {w[:6] for w in re.findall(r"\w+", text.lower()) if len(w) >= 4 and w not in _STOP}


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
    retrieved = passages_retrieve(question)
    retrieved_ms = round((time.perf_counter() - started) * 1000, 2)
    # Law text often matches a question by its words more than by embedding, so the gate asks whether
    # anything retrieved is about this at all (calibrated: real questions >= 0.37, unrelated <= 0.15),
    # and the answer then uses the best-fused passages whatever their own cosine.
    on_topic = bool(retrieved) and max(p.score for p in retrieved) >= settings.ANSWER_MIN_SIMILARITY
    relevant = _diverse(retrieved, PASSAGES) if on_topic else []
    if not relevant:
        return Answer(question, NO_ANSWER, [], timings_ms={"retrieve": retrieved_ms, "total": retrieved_ms})
    answer = Answer(question, extractive_answer(question, relevant[:3]), relevant[:3])
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
