"""Guideline-answer quality over judged questions (the format of shared/eval/dev_guideline_questions.jsonl).

A question expects one or more places: a document title and its article numbers, optionally
narrowed to section-path fragments (an appendix has no article numbers, only sections). A
question counts as cited at k when every expected place is among the answer's first k
citations. Questions without `expect` are ones the corpus cannot answer: there the right
outcome is an abstention without citations.
"""

from dataclasses import dataclass, field
from pathlib import Path

from search.answers import guideline_answer
from search.evaluation import judged_lines_read, percentile
from search.pipeline.types import CitedChunk

CUTOFFS = (1, 3, 5)  # an answer cites at most 5 passages (search.answers.CITED)


@dataclass(frozen=True)
class ExpectedPlace:
    document: str
    articles: tuple[str, ...]
    sections: tuple[str, ...] = ()

    def matches(self, citation: CitedChunk) -> bool:
        if citation.document_title != self.document:
            return False
        article_ok = any(
            label in citation.places or (not citation.article and citation.section.startswith(label)) for label in self.articles
        )
        return article_ok and (not self.sections or any(part in citation.section for part in self.sections))


@dataclass
class JudgedQuestion:
    id: str
    query: str
    expect: list[ExpectedPlace] = field(default_factory=list)
    source: str = ""  # the judged set (file stem): its own questions do not vote when it is measured

    @property
    def answerable(self) -> bool:
        return bool(self.expect)


def judged_questions_read(path: Path) -> list[JudgedQuestion]:
    questions = judged_lines_read(path, _question, expected="id, query en expect (doc, art)")
    for question in questions:
        question.source = path.stem
    return questions


def _question(data: dict) -> JudgedQuestion:
    expect = [
        ExpectedPlace(str(e["doc"]), tuple(str(a) for a in e["art"]), tuple(str(s) for s in e.get("section") or ()))
        for e in data.get("expect") or []
    ]
    return JudgedQuestion(str(data["id"]), str(data["query"]), expect)


def first_hit(question: JudgedQuestion, citations: list[CitedChunk]) -> int | None:
    """The smallest k at which every expected place is cited, or None."""
    ranks = []
    for place in question.expect:
        rank = next((i for i, c in enumerate(citations, start=1) if place.matches(c)), None)
        if rank is None:
            return None
        ranks.append(rank)
    return max(ranks)


def evaluate_answers(questions: list[JudgedQuestion], *, details: bool = False) -> dict:
    """Citation hit@k over answerable questions, abstention over the others, and answer latency."""
    guideline_answer("opwarmen van model en verbinding")
    answerable = [q for q in questions if q.answerable]
    unanswerable = [q for q in questions if not q.answerable]
    hits = {k: 0 for k in CUTOFFS}
    wrongly_abstained = wrongly_answered = 0
    latencies, rows = [], []
    for question in questions:
        answer = guideline_answer(question.query, generate=False, held_out_source=question.source)
        latencies.append(answer.timings_ms.get("total", 0.0))
        cited = [(c.document_title, c.article or c.section) for c in answer.citations]
        if question.answerable:
            rank = first_hit(question, answer.citations)
            for k in CUTOFFS:
                hits[k] += rank is not None and rank <= k
            wrongly_abstained += not answer.citations
            ok = rank is not None
        else:
            wrongly_answered += bool(answer.citations)
            ok = not answer.citations
        if details and not ok:
            rows.append({"id": question.id, "query": question.query, "cited": cited})
    count = max(len(answerable), 1)
    result = {
        "answerable": len(answerable),
        **{f"cited@{k}": round(hits[k] / count, 3) for k in CUTOFFS},
        "abstained_wrongly": wrongly_abstained,
        "unanswerable": len(unanswerable),
        "abstention_rate": round((len(unanswerable) - wrongly_answered) / len(unanswerable), 3) if unanswerable else None,
        "p50_ms": percentile(latencies, 50),
        "p95_ms": percentile(latencies, 95),
    }
    return {**result, "misses": rows} if details else result
