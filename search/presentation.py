"""What the specialist pages show: a search's recommendations as cards, built one way for all pages.

A fresh search and a reopened one both render from the stored SearchLog (advice and workplace
sections alike); the fresh search only adds what is not stored (the guideline-only fallback). The booking link is
decided again at render time from the product's current url status, so a reopened search or an
export never hands out a link the url checker has since found broken; the stored `url_shown` is
used only when the product no longer exists.
"""

from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q
from django.utils.formats import number_format

from catalog.models import Product
from guidelines.models import GuidelineChunk
from search.models import Citation, FeedbackVote, Recommendation, SearchLog
from search.pipeline.context import SituationContext
from search.pipeline.links import NOTES_BY_STATUS, DisplayLink, display_link
from search.pipeline.run import SearchOutcome
from search.pipeline.score_criteria import CRITERIA, scores_of
from search.pipeline.types import CitedChunk, passage_sha256
from search.selectors import searches_of_user

HISTORY_PAGE_SIZE = 20
MAIN_CARDS = 3
EMPLOYEE_FALLBACK = "de werknemer"
EMPLOYER_FALLBACK = "de werkgever"
_TIMINGS = (
    ("context", "context"), ("embed", "embedding"), ("stage1", "fase 1"), ("stage2", "fase 2"),
    ("cache", "uit de cache"), ("cached_total", "oorspronkelijk berekend in"), ("total", "totaal"),
)


@dataclass
class VoteState:
    recommendation_id: int
    search_id: int
    value: int | None = None
    comment: str = ""


@dataclass
class Card:
    rank: int
    name: str
    reasoning: str
    link: DisplayLink
    product: Product | None
    citations: list[CitedChunk]
    score_rows: list[tuple[str, str]]
    recommendation_id: int | None = None
    vote: VoteState | None = None  # None for suggestions that were not stored, so cannot be voted on

    @property
    def benefits_employee(self) -> str:
        return self.product.benefits_employee if self.product else ""

    @property
    def benefits_employer(self) -> str:
        return self.product.benefits_employer if self.product else ""


@dataclass
class Results:
    search: SearchLog
    summary: str
    cards: list[Card]
    more: list[Card]
    workplace: list[Card] = field(default_factory=list)
    fallback_guidelines: list[CitedChunk] = field(default_factory=list)
    timings: list[tuple[str, float]] = field(default_factory=list)
    spelling: dict[str, str] = field(default_factory=dict)  # typed word -> the word searched


@dataclass(frozen=True)
class Names:
    """The employee's and company's names as typed, for this render only (never stored or logged)."""

    employee: str = ""
    company: str = ""

    @classmethod
    def from_data(cls, data) -> "Names":
        return cls(employee=(data.get("naam") or "").strip()[:100], company=(data.get("bedrijf") or "").strip()[:100])

    @property
    def employee_label(self) -> str:
        return self.employee or EMPLOYEE_FALLBACK

    @property
    def company_label(self) -> str:
        return self.company or EMPLOYER_FALLBACK


def results_build(*, log: SearchLog, outcome: SearchOutcome | None = None) -> Results:
    """Cards for a stored search (from `search_of_user`), plus the unstored extras of a fresh outcome."""
    recommendations = list(log.recommendations.all())
    cards = [_card_from_recommendation(rec) for rec in recommendations if rec.section == Recommendation.Section.ADVICE]
    workplace = [_card_from_recommendation(rec) for rec in recommendations if rec.section == Recommendation.Section.WORKPLACE]
    context = outcome.context if outcome else _stored_context(log.context)
    return Results(
        search=log,
        summary=context.summary(),
        cards=cards[:MAIN_CARDS],
        more=cards[MAIN_CARDS:],
        workplace=workplace,
        fallback_guidelines=list(outcome.fallback_guidelines) if outcome else [],
        timings=[(label, log.timings_ms[key]) for key, label in _TIMINGS if key in (log.timings_ms or {})],
        spelling=dict((log.retrieval or {}).get("spelling") or {}),
    )


def vote_state(*, user, recommendation_id: int) -> VoteState:
    """The user's current vote on a recommendation of their own search.

    Raises Recommendation.DoesNotExist for anyone else's recommendation, so the view answers 404.
    """
    search_id = Recommendation.objects.values_list("search_id", flat=True).get(id=recommendation_id, search__user=user)
    vote = FeedbackVote.objects.filter(user=user, recommendation_id=recommendation_id).only("value", "comment").first()
    return VoteState(recommendation_id, search_id, vote.value if vote else None, vote.comment if vote else "")


def history_page(*, user, page_number) -> Page:
    searches = searches_of_user(user=user).annotate(
        recommendation_count=Count("recommendations", filter=Q(recommendations__section=Recommendation.Section.ADVICE))
    )
    return Paginator(searches, HISTORY_PAGE_SIZE).get_page(page_number)


def sources_of(results: Results) -> list[dict]:
    """Every guideline passage the advice cites, once, with its text: the export's "bronnen"."""
    cited: dict[int, CitedChunk] = {}
    for card in results.cards + results.more + results.workplace:
        for citation in card.citations:
            if citation.chunk_id is not None:
                cited.setdefault(citation.chunk_id, citation)
    texts = dict(GuidelineChunk.objects.filter(id__in=cited).values_list("id", "content"))
    return [
        {
            "chunk_id": chunk_id,
            "document_title": c.document_title,
            "source": c.source,
            "section": c.section,
            "url": c.url,
            "samenvatting": c.is_summary,
            "retrieved_at": c.retrieved_at.isoformat() if c.retrieved_at else None,
            "content_sha256": c.content_sha256 or None,
            "used_in_prompt": c.used_in_prompt,
            # The passage as it reads now; it differs from what was cited when the hash no longer matches.
            "quote": texts.get(chunk_id, ""),
            "changed_since": c.changed_since,
        }
        for chunk_id, c in cited.items()
    ]


def cited_from_stored(citation: Citation) -> CitedChunk:
    """A stored citation as the pipeline's value, with the provenance it was stored with."""
    return CitedChunk(
        citation.chunk_id, citation.document_title, citation.source, citation.section, citation.url, citation.score,
        is_summary=bool(citation.chunk and citation.chunk.document.is_summary),
        retrieved_at=citation.retrieved_at, used_in_prompt=citation.used_in_prompt, content_sha256=citation.content_sha256,
        changed_since=bool(citation.content_sha256 and citation.chunk and passage_sha256(citation.chunk.content) != citation.content_sha256),
    )


def _card_from_recommendation(rec: Recommendation) -> Card:
    votes = getattr(rec, "my_votes", [])
    return Card(
        rank=rec.rank,
        name=rec.product_name,
        reasoning=rec.reasoning,
        link=display_link(rec.product) if rec.product else _stored_link(rec),
        product=rec.product,
        citations=[cited_from_stored(c) for c in rec.citations.all()],
        score_rows=_score_rows(
            scores_of(rec),
            similarity=rec.similarity,
            multiplier=rec.feedback_multiplier,
            relevance=rec.relevance_score,
        ),
        recommendation_id=rec.id,
        vote=VoteState(rec.id, rec.search_id, votes[0].value, votes[0].comment) if votes else VoteState(rec.id, rec.search_id),
    )


def _score_rows(scores: dict, *, similarity: float, multiplier: float, relevance: float) -> list[tuple[str, str]]:
    rows = [
        (f"{criterion.label} (weging {round(criterion.weight * 100)}%)", number_format(scores.get(criterion.key, 0.0), 2))
        for criterion in CRITERIA
    ]
    return rows + [
        ("Similariteit met de situatie", number_format(similarity, 2)),
        ("Feedbackfactor", f"× {number_format(multiplier, 2)}"),
        ("Relevantie (gewogen som × feedbackfactor)", number_format(relevance, 2)),
    ]


def _stored_link(rec: Recommendation) -> DisplayLink:
    note = NOTES_BY_STATUS.get(rec.url_status, "")
    return DisplayLink(rec.url_shown, rec.url_status, note, rec.url_status in ("missing", "broken"))


def _stored_context(data: dict) -> SituationContext:
    known = {f.name for f in dataclass_fields(SituationContext)}
    return SituationContext(**{key: value for key, value in (data or {}).items() if key in known})

