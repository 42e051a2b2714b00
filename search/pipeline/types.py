"""Values passed between pipeline stages."""

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime

from catalog.models import Product
from search.pipeline.score_criteria import WEIGHTS

# A numbered chapter in a section path: "9 – Re-integratieverplichtingen …", a guideline's "3.2 Contact in de
# eerste weken" (a number, then a capitalised title), or a bare "7.4".
_NUMBERED_PART = re.compile(r"^(\d+(?:\.\d+)*)(?:\s+–\s|\s+(?=[A-ZÀ-Ý])|$)")


def relevance_of(scores: dict[str, float]) -> float:
    """The weighted sum, always computed here (an LLM's arithmetic is never trusted)."""
    return round(sum(WEIGHTS[key] * clamp(scores.get(key, 0.0)) for key in WEIGHTS), 4)


def clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return low
    if number != number:  # NaN
        return low
    return max(low, min(high, number))


@dataclass
class CitedChunk:
    chunk_id: int
    document_title: str
    source: str
    section: str
    url: str
    score: float
    content: str = ""
    article: str = ""
    is_summary: bool = False
    retrieved_at: datetime | None = None  # when this search read the passage
    used_in_prompt: bool = False  # whether an LLM was shown the passage for this answer or ranking
    content_sha256: str = ""  # of the text as cited; computed from `content` when not given (stored citations)
    changed_since: bool = False  # a stored citation whose passage now reads differently

    def __post_init__(self) -> None:
        if self.content and not self.content_sha256:
            self.content_sha256 = passage_sha256(self.content)

    @property
    def places(self) -> tuple[str, ...]:
        """How a specialist names where this passage stands: its article, or, in an appendix without
        article numbers (the UWV assessment framework), its numbered chapters ("9", "7.4")."""
        if self.article:
            return (self.article,)
        return tuple(m.group(1) for part in self.section.split(" > ") if (m := _NUMBERED_PART.match(part.strip())))


def passage_sha256(text: str) -> str:
    """The fingerprint of a passage as cited: a later edit of the passage gives a different one."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Scored:
    """A candidate product on its way through stage 2."""

    product: Product
    similarity: float
    topical: float
    matched_terms: list[str] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)
    reasoning: str = ""
    citations: list[CitedChunk] = field(default_factory=list)
    feedback_multiplier: float = 1.0
    relevance: float = 0.0
    within_budget: bool | None = None
    precedent: float = 0.0  # the vote of the closest judged situations (search.pipeline.precedents)
    precedent_examples: list[str] = field(default_factory=list)

    def finalise(self) -> None:
        self.relevance = round(relevance_of(self.scores) * self.feedback_multiplier, 4)
