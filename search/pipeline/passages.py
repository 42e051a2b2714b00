"""Guideline passages for a question: BM25F and pgvector kNN over chunks, scored together, with the evidence to abstain.

The lexical side is the shared BM25F of lexical.sql over each chunk's tsvector (section path as
heading, weight A; the text, weight B), with compound parts and thesaurus words of the question at
lower weight, and the regulations' own wording for the practice terms it uses ("verzuimdossier" →
"aantekening", lexical/legal_terms.json) lower still. The semantic side is cosine kNN over the chunk embeddings. Both lists are merged
by a linear score fitted on the judged law questions (search.pipeline.passage_scoring: the cosine,
both places, the original text over the team's summary, the judged questions' vote); the original
text of a source goes before the team's own summary of it, and an article the question names
("artikel 2.15") goes first.

Whether the corpus answers the question at all is judged on its subject first. A question naming a
subject the corpus does not cover (holiday pay, notice periods, tax; lexical/outside_topics.json) is
answered only when one of its best passages names that subject too or the model below is nearly sure
(a subject named in passing), and one naming a regulation the corpus does not hold is not answered.
Otherwise a logistic model fitted leave-one-set-out on the judged
questions weighs the evidence (search.pipeline.abstention): how close in meaning and how complete in
words the best passage is, how close the question is to judged answerable and unanswerable ones and
whether those vouch for one of the best passages, its length and practice terms.
The articles that answer the closest judged questions are raised, and join the list when both
retrieval lists missed them (a question about people "already ill before the act" shares no word
with the transitional article that answers it).
"""

import re
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from embeddings.cursor import server_bound_cursor
from embeddings.selectors import COMMON_SIMILARITY, query_embedding
from lexical.sql import TERMS_CTE, FieldWeights, bm25_cte, bm25_params
from lexical.terms import query_terms
from lexical.thesaurus import domain_entries_named, legal_expansion_terms, outside_topics_named
from search.pipeline.abstention import FITTED as FITTED_ABSTENTION
from search.pipeline.abstention import AnswerEvidence
from search.pipeline.fusion import reciprocal_rank_fusion
from search.pipeline.passage_scoring import PassageEvidence, passage_score
from search.pipeline.precedents import WORD, question_precedents, unanswerable_closeness
from search.pipeline.protected_groups import named_groups_first
from search.pipeline.question_votes import MeaningVotes, meaning_votes
from search.pipeline.regulations import regulations_not_held
from search.pipeline.types import CitedChunk

# A word in the section path ("Artikel 5:8 – Nachtdienst") says more than one in the running text.
PASSAGE_FIELDS = FieldWeights(a=2.0, b=1.0)
RETRIEVE_LIMIT = 40
# How far down the list a summary passage may sit and still bring its original article along.
ORIGINALS_LOOKUP = 10
# Passages that get a full BM25F score (the rest only their coverage); measured in README: no loss at 150.
SHORTLIST = 150
# How many of the best passages must stay silent on a subject the corpus does not cover (lexical/outside_topics.json)
# before the question counts as one the corpus cannot answer.
OUTSIDE_TOPIC_PASSAGES = 5
# ... unless the abstention model is this sure the corpus answers it: a subject named in passing ("dreigde met
# een officiële waarschuwing" in a question about stopping work in danger, "via de loonstrook" in one about paying
# for safety shoes). Of the 435 judged questions that name such a subject, the 3 the model is this sure about
# are all answerable; at 0.85 there are 4 answerable and 2 unanswerable (docs/measurements.md, twenty-first session).
OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE = 0.9
PASSAGES_TABLE = "guidelines_guidelinechunk"
# A place the closest judged questions vote for at least this much joins the candidates when neither
# list found it (its passage closest in meaning), as a product the judged situations chose joins stage 2.
QUESTION_PRECEDENT_CANDIDATE_VOTE = 0.5
# The best passages whose place a judged vote may vouch for.
VOUCHED_PASSAGES = 3
# A summary written by the team (plain Dutch, which the embedding model reads well) below this cosine with
# the question shares nothing of its meaning, so the judged questions' votes do not lift it: "jonge moeder na
# bevallingsverlof somber" shares the words of a question on planning parental leave, not its subject, and its
# vote put the postpartum-depression section first (cosine -0.02). The law's own text keeps its votes whatever its
# cosine: the model reads legal wording poorly, and there a floor of 0 cost 4 first citations of 2,065. For
# summaries, floors of 0 and 0.05 cost nothing over the 2,065 judged questions, 0.08 one (docs/measurements.md,
# twenty-fifth session).
SUMMARY_VOTE_MIN_SIMILARITY = 0.0
_ARTICLE_MENTION = re.compile(r"\bartikel\s+([0-9IVX]+[a-z]?(?:[.:][0-9]+[a-z]?)*)", re.IGNORECASE)

# A summary that is all the corpus has of its source (a guideline), as opposed to our summary of a law it holds.
_STANDALONE = "(d.is_summary AND NOT EXISTS (SELECT 1 FROM guidelines_guidelinedocument o WHERE o.source = d.source AND NOT o.is_summary)) AS standalone"

_SQL = f"""
WITH
{TERMS_CTE},
{bm25_cte("passage_lexical", table=PASSAGES_TABLE, weights=PASSAGE_FIELDS, shortlist=SHORTLIST)},
lexical AS (SELECT * FROM passage_lexical ORDER BY score DESC LIMIT %(limit)s),
vector AS (
    SELECT id FROM guidelines_guidelinechunk
    WHERE embedding_model = %(model)s
    ORDER BY embedding <=> %(vec)s::vector
    LIMIT %(limit)s
)
SELECT c.id, d.title, d.source, c.section_path, d.url, c.content, c.article, d.is_summary,
       CASE WHEN c.embedding_model = %(model)s THEN {COMMON_SIMILARITY.format(column="c.embedding")} ELSE 0 END AS similarity,
       coalesce(l.score, 0) AS lexical,
       coalesce(l.coverage, 0) AS coverage,
       (SELECT coalesce(sum(qt.weight), 0) FROM query_terms qt WHERE d.topic_vector @@ qt.tq) AS topic_match,
       {_STANDALONE}
FROM (SELECT id FROM lexical UNION SELECT id FROM vector) ids
JOIN guidelines_guidelinechunk c ON c.id = ids.id
JOIN guidelines_guidelinedocument d ON d.id = c.document_id
LEFT JOIN lexical l ON l.id = c.id
"""


_ORIGINALS_SQL = f"""
SELECT DISTINCT ON (d.source, c.article) c.id, d.title, d.source, c.section_path, d.url, c.content, c.article, d.is_summary,
       CASE WHEN c.embedding_model = %(model)s THEN {COMMON_SIMILARITY.format(column="c.embedding")} ELSE 0 END AS similarity
FROM guidelines_guidelinechunk c
JOIN guidelines_guidelinedocument d ON d.id = c.document_id
WHERE NOT d.is_summary AND (d.source, c.article) IN (SELECT * FROM unnest(%(sources)s::text[], %(articles)s::text[]))
ORDER BY d.source, c.article, c.embedding <=> %(vec)s::vector
"""


_VOTED_PLACES_SQL = f"""
SELECT DISTINCT ON (p.title, p.place) c.id, d.title, d.source, c.section_path, d.url, c.content, c.article, d.is_summary,
       CASE WHEN c.embedding_model = %(model)s THEN {COMMON_SIMILARITY.format(column="c.embedding")} ELSE 0 END AS similarity,
       {_STANDALONE}
FROM unnest(%(titles)s::text[], %(places)s::text[], %(chapters)s::text[]) AS p(title, place, chapter)
JOIN guidelines_guidelinedocument d ON d.title = p.title
JOIN guidelines_guidelinechunk c ON c.document_id = d.id
    AND (c.article = p.place OR (c.article = '' AND c.section_path ~ p.chapter))
ORDER BY p.title, p.place, c.embedding <=> %(vec)s::vector
"""


@dataclass(frozen=True)
class QuestionCloseness:
    """Cosine of a question with the closest judged question that has an answer, and with the closest
    one judged unanswerable (0 when none shares a gram)."""

    answered: float = 0.0
    unanswerable: float = 0.0


@dataclass
class PassageRetrieval:
    """Passages best first, and how well the best of them covers the question by words and by meaning."""

    passages: list[CitedChunk] = field(default_factory=list)
    best_coverage: float = 0.0
    best_similarity: float = 0.0
    documents_considered: list[dict] = field(default_factory=list)  # best first; `chosen` ones were searched first
    uncovered_topics: list[str] = field(default_factory=list)  # subjects the question names and no best passage does
    unheld_regulations: list[str] = field(default_factory=list)  # regulations the question names that the corpus does not hold
    covered_topics: list[str] = field(default_factory=list)  # subjects outside the corpus the question names and the best passage names too
    closeness: QuestionCloseness = field(default_factory=QuestionCloseness)  # to the closest judged questions
    vouched: float = 0.0  # the judged questions' highest vote for the place of one of the best passages
    question_words: int = 0
    practice_terms: int = 0  # entries of lexical/legal_terms.json the question names
    domain_terms: int = 0  # entries of lexical/thesaurus.json (health and work in everyday words) the question names
    answered_vote: float | None = None  # how much the judged questions closest in meaning were answered (question_votes)

    @property
    def answers_question(self) -> bool:
        """Whether anything in the corpus is about this question (otherwise the answer abstains)."""
        if not self.passages or self.unheld_regulations:
            return False
        confidence = FITTED_ABSTENTION.confidence(self.answer_evidence())
        if self.uncovered_topics:
            return confidence >= max(OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE, settings.ANSWER_MIN_CONFIDENCE)
        return confidence >= settings.ANSWER_MIN_CONFIDENCE

    def answer_evidence(self) -> AnswerEvidence:
        """What the abstention model weighs (search.pipeline.abstention)."""
        return AnswerEvidence(
            coverage=self.best_coverage,
            similarity=self.best_similarity,
            answered_closeness=self.closeness.answered,
            unanswerable_closeness=self.closeness.unanswerable,
            vouched=self.vouched,
            first_similarity=self.passages[0].score if self.passages else 0.0,
            words=self.question_words,
            practice_terms=self.practice_terms,
            covered_topic=bool(self.covered_topics),
            domain_terms=self.domain_terms,
            answered_vote=self.answered_vote,
        )

    def best(self, count: int, *, per_chapter: int | None = None) -> list[CitedChunk]:
        """The best passages, one per section, so an answer draws on more than one place.

        With `per_chapter`, at most that many from one chapter of an appendix (search.pipeline.passages.chapter).
        """
        chosen: list[CitedChunk] = []
        seen: set[tuple[str, str]] = set()
        chapters: dict[tuple[str, str], int] = {}
        for passage in self.passages:
            place = (passage.document_title, passage.section)
            if place in seen:
                continue
            key = (passage.document_title, chapter(passage))
            if per_chapter is not None and chapters.get(key, 0) >= per_chapter:
                continue
            seen.add(place)
            chapters[key] = chapters.get(key, 0) + 1
            chosen.append(passage)
            if len(chosen) == count:
                break
        return chosen


def chapter(passage: CitedChunk) -> str:
    """The article a passage belongs to, or for an appendix without article numbers its numbered chapter
    ("Bijlage – Kader … > 5 – Beoordeling re-integratieverslag"), whose paragraphs are separate sections."""
    if passage.article:
        return passage.article
    return " > ".join(passage.section.split(" > ")[:2])


def passages_retrieve(question: str, *, limit: int = RETRIEVE_LIMIT, documents: int | None = None, held_out_source: str = "") -> PassageRetrieval:
    """Chunks ordered by their fitted score (search.pipeline.passage_scoring), an article the question names first.

    Hierarchical with `documents` > 0 (default GUIDELINE_DOCUMENTS): the regulations and guidelines
    are ranked first, and the passages of the best `documents` of them go before all others.
    """
    documents = settings.GUIDELINE_DOCUMENTS if documents is None else documents
    embedding = query_embedding(question).params()
    candidates = passage_candidates(question, embedding=embedding, limit=limit, held_out_source=held_out_source)
    if not candidates.chunks:
        return PassageRetrieval()
    scores = {chunk_id: passage_score(evidence) for chunk_id, evidence in candidates.evidence.items()}
    in_order = [candidates.chunks[i] for i in sorted(scores, key=scores.get, reverse=True)]
    considered = documents_rank(in_order, candidates.topic_match)
    if documents > 0:
        chosen = {entry["document_title"] for entry in considered[:documents]}
        for entry in considered:
            entry["chosen"] = entry["document_title"] in chosen
        in_order = [p for p in in_order if p.document_title in chosen] + [p for p in in_order if p.document_title not in chosen]
    passages = named_groups_first(_originals_before_summaries(in_order, embedding), question)
    topics = outside_topics_named(question)
    retrieval = PassageRetrieval(
        passages=passages,
        best_coverage=candidates.best_coverage,
        best_similarity=candidates.best_similarity,
        documents_considered=considered,
        uncovered_topics=_uncovered_topics(topics, passages[:OUTSIDE_TOPIC_PASSAGES]),
        unheld_regulations=regulations_not_held(question, [f"{p.section} {p.content}" for p in passages[:OUTSIDE_TOPIC_PASSAGES]]),
        covered_topics=_covered_topics(question, topics, passages[0] if passages else None),
        closeness=QuestionCloseness(candidates.closest_answered, unanswerable_closeness(question, held_out_source=held_out_source)),
        question_words=len(WORD.findall(question)),
        practice_terms=len(legal_expansion_terms(question)),
        domain_terms=domain_entries_named(question),
        answered_vote=candidates.meaning.answered,
    )
    retrieval.vouched = max((_place_vote(candidates.votes, p) for p in retrieval.best(VOUCHED_PASSAGES)), default=0.0)
    return retrieval


@dataclass
class PassageCandidates:
    """The passages either list found (and those the judged questions vote for), with their evidence."""

    chunks: dict[int, CitedChunk] = field(default_factory=dict)
    evidence: dict[int, PassageEvidence] = field(default_factory=dict)
    best_coverage: float = 0.0
    best_similarity: float = 0.0  # of what retrieval found, before any vote
    topic_match: dict[str, float] = field(default_factory=dict)  # per document title
    votes: dict = field(default_factory=dict)  # (document title, place) -> the closest judged questions' vote
    standalone: set[int] = field(default_factory=set)  # passages of a summary that is all the corpus has of its source
    closest_answered: float = 0.0
    meaning: MeaningVotes = field(default_factory=MeaningVotes)  # the judged questions closest in meaning


def passage_candidates(question: str, *, embedding: dict, limit: int = RETRIEVE_LIMIT, held_out_source: str = "") -> PassageCandidates:
    """One query for both lists, then the judged questions' votes (also `manage.py tune_passages` reads these)."""
    terms = query_terms(question, legal=True)
    params = {**terms.params(), **embedding, "limit": limit, **bm25_params("passage_lexical", terms=terms, table=PASSAGES_TABLE)}
    with transaction.atomic(), server_bound_cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # see search.pipeline.evidence: HNSW beats detoasting
        cursor.execute(_SQL, params)
        rows = cursor.fetchall()
    if not rows:
        return PassageCandidates()
    read_at = timezone.now()
    chunks = {row[0]: _cited(row, read_at) for row in rows}
    lexical = {row[0]: float(row[9]) for row in rows}
    best_lexical = max(lexical.values()) or 1.0
    by_vector = sorted(chunks, key=lambda i: chunks[i].score, reverse=True)
    by_lexical = sorted((i for i in chunks if lexical[i] > 0), key=lexical.get, reverse=True)
    vector_rank = {chunk_id: rank for rank, chunk_id in enumerate(by_vector, start=1)}
    lexical_rank = {chunk_id: rank for rank, chunk_id in enumerate(by_lexical, start=1)}
    precedents = question_precedents(question, held_out_source=held_out_source)
    candidates = PassageCandidates(
        chunks=chunks,
        best_coverage=max(float(row[10]) for row in rows),
        best_similarity=max(chunk.score for chunk in chunks.values()),
        topic_match={row[1]: float(row[11]) for row in rows},
        standalone={row[0] for row in rows if row[12]},
        votes=precedents.votes,
        closest_answered=precedents.closest,
        meaning=meaning_votes(embedding, held_out_source=held_out_source),
    )
    _with_voted_places(candidates, embedding)
    mentioned = {m.group(1).lower() for m in _ARTICLE_MENTION.finditer(question)}
    candidates.evidence = {
        chunk_id: PassageEvidence(
            similarity=chunk.score,
            vector_rank=vector_rank.get(chunk_id),
            lexical_rank=lexical_rank.get(chunk_id),
            lexical_share=lexical.get(chunk_id, 0.0) / best_lexical,
            original=not chunk.is_summary,
            standalone=chunk_id in candidates.standalone,
            named=bool(chunk.article) and chunk.article.lower() in mentioned,
            vote=_place_vote(candidates.votes, chunk),
            meaning_vote=_place_vote(candidates.meaning.places, chunk),
        )
        for chunk_id, chunk in chunks.items()
    }
    return candidates


def _with_voted_places(candidates: PassageCandidates, embedding: dict) -> None:
    """Add the places the closest judged questions clearly agree on that neither list found: a question
    in other words than its article's ("al ziek vóór de wet" for a transitional article) still gets it,
    on its cosine and the vote alone."""
    found = {(chunk.document_title, place) for chunk in candidates.chunks.values() for place in chunk.places}
    wanted = [place for place, vote in candidates.votes.items() if vote >= QUESTION_PRECEDENT_CANDIDATE_VOTE and place not in found]
    if not wanted:
        return
    titles, places = (list(column) for column in zip(*wanted))
    chapters = [rf"(^| > ){re.escape(place)}( – | > |$| [[:upper:]])" for place in places]  # as CitedChunk.places reads them
    with connection.cursor() as cursor:
        cursor.execute(_VOTED_PLACES_SQL, {"titles": titles, "places": places, "chapters": chapters, **embedding})
        rows = cursor.fetchall()
    read_at = timezone.now()
    for row in rows:
        if row[0] not in candidates.chunks:
            candidates.chunks[row[0]] = _cited(row, read_at)
            if row[9]:
                candidates.standalone.add(row[0])


def _place_vote(votes: dict, passage: CitedChunk) -> float:
    """The judged questions' vote for where this passage stands (its article, or its appendix chapter); none for
    a summary that shares nothing of the question's meaning (SUMMARY_VOTE_MIN_SIMILARITY)."""
    if passage.is_summary and passage.score < SUMMARY_VOTE_MIN_SIMILARITY:
        return 0.0
    return max((votes.get((passage.document_title, place), 0.0) for place in passage.places), default=0.0)


def _uncovered_topics(topics: list[tuple[str, re.Pattern]], best: list[CitedChunk]) -> list[str]:
    """Subjects outside the corpus (holiday pay, notice periods, tax) that the question names and none
    of its best passages do: those passages then share the question's other words, not its subject."""
    return [
        topic for topic, pattern in topics
        if not any(pattern.search(f"{p.section} {p.content}") for p in best)
    ]


def _covered_topics(question: str, topics: list[tuple[str, re.Pattern]], best: CitedChunk | None) -> list[str]:
    """Subjects outside the corpus that the question names and the best passage names in the same words
    ("ouderschapsverlof" in the pregnancy guideline; not "vrije ruimte" of a workplace for the tax term)."""
    if best is None:
        return []
    text = f"{best.section} {best.content}".lower()
    return [
        topic for topic, pattern in topics
        if {m.lower() for m in pattern.findall(question)} <= {m.lower() for m in pattern.findall(text)}
    ]


def documents_rank(passages: list[CitedChunk], topic_match: dict[str, float]) -> list[dict]:
    """The documents the passages come from, best first: by reciprocal rank over their best passage and
    over how much of the question their title and summary name (the general → specific step)."""
    best: dict[str, CitedChunk] = {}
    for passage in passages:  # best first, so the first passage of a document is its best
        best.setdefault(passage.document_title, passage)
    by_passage = list(best)
    by_topic = sorted((t for t in best if topic_match.get(t, 0) > 0), key=lambda t: topic_match[t], reverse=True)
    score = reciprocal_rank_fusion([by_passage, by_topic])
    return [
        {
            "document_title": title,
            "source": best[title].source,
            "score": round(score[title], 5),
            "best_passage": best[title].chunk_id,
            "title_summary_match": round(topic_match.get(title, 0.0), 3),  # query-term weight its title and summary name
            "chosen": True,
        }
        for title in sorted(score, key=score.get, reverse=True)
    ]


def _originals_before_summaries(passages: list[CitedChunk], embedding: dict) -> list[CitedChunk]:
    """Put the article itself right before a summary passage about it (same source, same article number).

    Our summaries name the article they explain ("Artikel 14 – De bedrijfsarts"); a specialist should
    be able to verify the law's own words, so the original article is cited first, also when its
    wording matched the question less well than our summary did.
    """
    wanted = {(p.source, p.article) for p in passages[:ORIGINALS_LOOKUP] if p.is_summary and p.article}
    if not wanted:
        return passages
    sources, articles = (list(column) for column in zip(*wanted))
    with connection.cursor() as cursor:
        cursor.execute(_ORIGINALS_SQL, {"sources": sources, "articles": articles, **embedding})
        rows = cursor.fetchall()
    read_at = timezone.now()
    originals = {(r[2], r[6]): _cited(r, read_at) for r in rows}
    result: list[CitedChunk] = []
    placed: set[int] = set()
    for passage in passages:
        original = originals.get((passage.source, passage.article)) if passage.is_summary else None
        if original is not None and original.chunk_id not in placed:
            result.append(original)
            placed.add(original.chunk_id)
        if passage.chunk_id not in placed:
            result.append(passage)
            placed.add(passage.chunk_id)
    return result


def _cited(row: tuple, read_at) -> CitedChunk:
    """A passage from a row of (id, title, source, section path, url, content, article, is_summary, similarity)."""
    return CitedChunk(row[0], row[1], row[2], row[3], row[4], round(float(row[8]), 4), row[5], row[6], row[7], retrieved_at=read_at)
