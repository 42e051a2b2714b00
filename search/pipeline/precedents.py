"""What specialists chose for the judged situations most like this one (search.models.ReferenceSituation).

A new situation is compared with every judged one by the character 4- and 5-grams of its words
(tf-idf, cosine): "rugklachten" shares most of its grams with "rug- en nekklachten" and "lage
rugpijn", abbreviations and misspellings still overlap, and no model or stemmer is involved. Words
naming a trade or position ("dakdekker", "kapster") weigh half (TRADE_WEIGHT, lexical.occupations). The
judgements of the closest ones, weighted by how much closer each is than the rest, give each
product a vote: 1 when every close situation judged it ideal, half for "acceptable", and strongly
negative when they keep it out of their top 3 (precedent_forbidden). Stage 2 adds the vote to a
product's topical match (criteria.rank_criteria).

Judged guideline questions (search.models.ReferenceQuestion) work the same way: the articles that
answer the closest ones raise those passages (search.pipeline.passages). The questions judged
unanswerable (no place) form an index of their own: how close the nearest of them is, against the
nearest answered one, helps decide whether the corpus answers a question at all. Likewise the judged
situations without any judged product (a vacancy to post, a laptop virus): a search much closer to one of
those than to any judged situation with products gets no advice (search.pipeline.stage1).

Leave-one-writer-out, two-stage nDCG@3 went from 0.742 to 0.846 on fourteen judged sets, and the
right article among the first three citations from 0.53-0.64 to 0.78-0.82 on three sets of law
questions (README). Each index is built once per process and rebuilt when the cache generation says
the data changed.
"""

import functools
import math
import re
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np
from django.conf import settings

from catalog.models import Product
from lexical.occupations import is_trade
from search.models import (
    ReferenceJudgement,
    ReferenceQuestion,
    ReferenceQuestionPlace,
    ReferenceSituation,
)
from search.pipeline.context import SituationContext, context_extract
from search.pipeline.generation import cache_generation
from search.pipeline.held_places import held_places
from search.pipeline.prerequisites import product_occasions
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.tried_interventions import product_interventions

FEEDBACK_SOURCE = "feedback"  # search.reference_situations: the specialists' votes as judged situations
OUT_OF_DOMAIN_SITUATIONS = "out-of-domain situations"  # the index of judged situations without products

GRAM_SIZES = (4, 5)
# What a word naming a trade or position ("dakdekker", "kapster") weighs among a situation's grams, against 1 for
# the rest: who someone is says less about what they need than what is the matter. Chosen over 33 judged sets
# (1, 0.7, 0.5, 0.35, 0.25): leaving each set out in turn, every fold chose 0.5 (docs/measurements.md).
TRADE_WEIGHT = 0.5
# Cosine favours short judged texts: "directeur overbelast" shares one distinctive word with "medewerker heeft een
# vader die dementeert en raakt overbelast", and its two words make that word nearly its whole vector, so its
# executive coaching outvoted every situation about a parent with dementia. A judged text shorter than the new one
# has its cosine scaled by (its words / the new text's words) to this power; a longer one keeps it. Chosen over 36
# judged sets (0 / 0.08 / 0.15 / 0.2 / 0.3): leaving each set out in turn, every fold chose 0.2; held out 0.8736 ->
# 0.8830, forbidden products in a top 3 38 -> 32; the same power raises the judged questions' votes (cited@1 0.843
# -> 0.852 over 1,020 answerable questions) (docs/measurements.md).
SHORTER_TEXT_EXPONENT = 0.2
WORD = re.compile(r"[^\W_]+")
EXAMPLES_PER_PRODUCT = 2
# A situation that asks for prevention in so many words. Narrower than the context's preventive reading
# (search.pipeline.context.PREVENTIVE_CUES, which also covers "still at work with complaints"): a judged
# situation's "not in the top 3" without these words is about someone ill, and does not carry over.
EXPLICIT_PREVENTION = re.compile(r"\b(?:preventie\w*|preventief\w*|voorkomen|weerbaar\w*)\b", re.IGNORECASE)


@dataclass
class Precedents:
    votes: dict = field(default_factory=dict)  # product id (or a question's place) -> vote, 1 when all close ones chose it ideal
    examples: dict = field(default_factory=dict)  # the same keys -> close situations that chose it
    closest: float = 0.0  # cosine with the closest judged situation (or question), whether or not it votes


@dataclass(frozen=True)
class _Row:
    source: str
    text: str
    judgements: tuple[tuple, ...]  # (product id, grade), or ((document title, article), 2) for a question
    # Products kept out of this situation's top 3 because it says they were already tried, with what was
    # tried (search.pipeline.tried_interventions): that judgement holds only where the same was tried.
    tried_repeats: dict = field(default_factory=dict)
    prevention: bool = False  # the situation asks in so many words for prevention ("voorkomen", "preventie")
    # Products made for an occasion (search.pipeline.prerequisites) that this situation keeps out of its top 3
    # without naming their occasion: "partner overleden" keeps carers' support out; a sick partner does not.
    occasion_missing: dict = field(default_factory=dict)
    # Products this situation keeps out of its top 3 while its absence lies outside their window (a second
    # track at 10 weeks), with that window: the judgement is about timing, and holds only outside it.
    out_of_window: dict = field(default_factory=dict)


TEXT_GRAMS_KEPT = 8  # the four indexes (situations in and out of the domain, answered and unanswerable questions), and a changed version of each
_text_grams: dict[tuple, tuple] = {}  # (judged texts, trade weight) -> (word counts, idf, postings), oldest first
_grams_lock = threading.Lock()


class PrecedentIndex:
    """The active judged situations as normalised tf-idf vectors of character n-grams, with an inverted index."""

    def __init__(self, rows: list[_Row], *, trade_weight: float = 1.0, shorter_text_exponent: float = SHORTER_TEXT_EXPONENT):
        self.rows = rows
        self.trade_weight = trade_weight
        self.shorter_text_exponent = shorter_text_exponent
        self._count = len(rows)
        # The grams depend on the texts alone. After a data change that leaves the judged texts as they are (a product
        # saved, a vote, a demo reload) the index is rebuilt with the same texts: reuse their grams (4 of 5 s).
        key = (tuple(row.text for row in rows), trade_weight)
        with _grams_lock:
            shared = _text_grams.get(key)
        if shared is None:
            shared = self._text_grams_build(rows)
            with _grams_lock:
                _text_grams[key] = shared
                while len(_text_grams) > TEXT_GRAMS_KEPT:
                    del _text_grams[next(iter(_text_grams))]
        self.word_counts, self.idf, self.postings = shared

    def _text_grams_build(self, rows: list[_Row]) -> tuple:
        word_counts = np.array([max(len(WORD.findall(row.text)), 1) for row in rows], dtype=float)
        grams = [self._grams(row.text) for row in rows]
        document_frequency = Counter(gram for counts in grams for gram in counts)
        self.idf = {gram: self._idf(df) for gram, df in document_frequency.items()}
        postings: dict[str, tuple[list[int], list[float]]] = defaultdict(lambda: ([], []))
        for index, counts in enumerate(grams):
            for gram, weight in self._vector(counts).items():
                members, member_weights = postings[gram]
                members.append(index)
                member_weights.append(weight)
        # As arrays, so a query's cosines are one bincount over the postings of its grams, not a Python loop.
        return word_counts, self.idf, {gram: (np.array(members, dtype=np.int32), np.array(ws)) for gram, (members, ws) in postings.items()}

    def _idf(self, document_frequency: int) -> float:
        # Smoothed (+1), so a gram every judged situation shares still counts a little and a handful of
        # judged situations (a new installation) can vote at all.
        return math.log((self._count + 1) / (document_frequency + 1)) + 1.0

    def _grams(self, text: str) -> dict[str, float]:
        """Each gram with its weight before idf: 1 + log tf, times `trade_weight` where only words naming a trade
        or position have it (lexical.occupations)."""
        counts: Counter = Counter()
        trade: set[str] = set()
        other: set[str] = set()
        for word in WORD.findall(text.lower()):
            grams = _word_grams(word)
            counts.update(grams)
            (trade if self.trade_weight != 1.0 and is_trade(word) else other).update(grams)
        trade_only = trade - other
        return {gram: (1 + math.log(tf)) * (self.trade_weight if gram in trade_only else 1.0) for gram, tf in counts.items()}

    def _vector(self, grams: dict[str, float]) -> dict[str, float]:
        weights = {gram: weight * self.idf.get(gram, self._idf(0)) for gram, weight in grams.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {gram: w / norm for gram, w in weights.items()}

    def similarities(self, text: str, *, held_out_source: str = "", longer_text_exponent: float = 0.0) -> dict[int, float]:
        """Cosine of the text with every judged situation that shares a gram, except those of `held_out_source`.

        With `longer_text_exponent`, a judged text longer than this one has its cosine scaled by (this text's
        words / its words) to that power too."""
        found = [(self.postings[gram], weight) for gram, weight in self._vector(self._grams(text)).items() if gram in self.postings]
        if not found:
            return {}
        rows = np.concatenate([postings[0] for postings, _ in found])
        weights = np.concatenate([postings[1] * weight for postings, weight in found])
        cosines = np.bincount(rows, weights=weights, minlength=self._count)
        words = max(len(WORD.findall(text)), 1)
        if self.shorter_text_exponent:
            cosines = cosines * (np.minimum(self.word_counts, words) / words) ** self.shorter_text_exponent
        if longer_text_exponent:
            cosines = cosines * (words / np.maximum(self.word_counts, words)) ** longer_text_exponent
        return {
            int(index): float(cosines[index])
            for index in np.flatnonzero(cosines)
            if not held_out_source or self.rows[index].source != held_out_source
        }

    def precedents(self, text: str, *, held_out_source: str = "", p: RankingParameters = DEFAULT, context: SituationContext | None = None) -> Precedents:
        """`context`: the situation as read (search.pipeline.context), for what it says was tried, the
        occasions it names and how long the absence lasts."""
        scores = self.similarities(text, held_out_source=held_out_source)
        closest = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[: int(p.precedent_neighbours)]
        if not closest or closest[0][1] < p.precedent_min_similarity:
            return Precedents(closest=closest[0][1] if closest else 0.0)
        best = closest[0][1]
        temperature = p.precedent_temperature_short if len(WORD.findall(text)) <= p.precedent_short_words else p.precedent_temperature
        asks_prevention = bool(EXPLICIT_PREVENTION.search(text))
        context = context or SituationContext()
        tried, occasions, weeks = set(context.tried_interventions), set(context.occasions), context.absence_weeks
        votes: dict[int, float] = defaultdict(float)
        examples: dict[int, list[str]] = defaultdict(list)
        total = 0.0
        for index, similarity in closest:
            # A situation much less alike than the closest one counts for little.
            weight = math.exp((similarity - best) / temperature)
            total += weight
            row = self.rows[index]
            for product_id, grade in row.judgements:
                if grade < 0 and product_id in row.tried_repeats and not row.tried_repeats[product_id] & tried:
                    continue  # "the AD report is in" keeps the AD report out there, not where it is still to come
                if grade < 0 and asks_prevention and not row.prevention:
                    continue  # kept out where someone is ill ("burn-out": no prevention workshop), not where prevention is asked
                if grade < 0 and row.occasion_missing.get(product_id, frozenset()) & occasions:
                    continue  # kept out for want of its occasion, which this situation names
                if grade < 0 and product_id in row.out_of_window and _within(weeks, row.out_of_window[product_id]):
                    continue  # kept out at another time of the absence than this one's
                votes[product_id] += weight * (grade / 2 if grade > 0 else -p.precedent_forbidden)
                if grade > 0 and len(examples[product_id]) < EXAMPLES_PER_PRODUCT:
                    examples[product_id].append(row.text)
        # Situations far less alike than the closest add nothing that survives rounding: no vote.
        rounded = {pid: round(vote / total, 4) for pid, vote in votes.items()}
        return Precedents({pid: vote for pid, vote in rounded.items() if vote}, dict(examples), best)


def same_text(a: str, b: str) -> bool:
    """Whether two situations read the same, ignoring case, spacing and punctuation (a judged
    situation typed again is no example to show the specialist)."""
    return WORD.findall(a.lower()) == WORD.findall(b.lower())


def _word_grams(word: str) -> list[str]:
    """The character grams of one lower-case word, marked at both ends ("<rug", "rug>")."""
    marked = f"<{word}>"
    return [marked[i : i + size] for size in GRAM_SIZES for i in range(len(marked) - size + 1)]


def precedents_for(
    text: str, *, held_out_source: str = "", p: RankingParameters = DEFAULT, context: SituationContext | None = None
) -> Precedents:
    """The votes of the judged situations closest to `text` (read as `context`); none when no judged situation is close."""
    if p.precedent_weight <= 0:
        return Precedents()
    return precedent_index("situations").precedents(text, held_out_source=held_out_source, p=p, context=context)


def precedent_closeness(text: str, *, held_out_source: str = "", kind: str = "situations", longer_text_exponent: float = 0.0) -> float:
    """How close the closest judged situation is (cosine of character n-grams); with `kind` "out-of-domain
    situations", the closest of those judged to need no advice. `longer_text_exponent`: see similarities."""
    similarities = precedent_index(kind).similarities(text, held_out_source=held_out_source, longer_text_exponent=longer_text_exponent)
    return max(similarities.values(), default=0.0)


_lock = threading.Lock()
_cached: dict[str, tuple[int, PrecedentIndex]] = {}


def precedent_index(kind: str = "situations") -> PrecedentIndex:
    """The index of this process (a key of _BUILDERS), rebuilt after any committed change to
    the data a search depends on."""
    generation = cache_generation()
    cached = _cached.get(kind)
    if cached is not None and cached[0] == generation:
        return cached[1]
    with _lock:
        cached = _cached.get(kind)
        if cached is None or cached[0] != generation:
            cached = _cached[kind] = (generation, _BUILDERS[kind]())
        return cached[1]


def _situations_build() -> PrecedentIndex:
    judgements: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for situation_id, product_id, grade in ReferenceJudgement.objects.filter(
        situation__is_active=True, product__is_active=True
    ).values_list("situation_id", "product_id", "grade"):
        judgements[situation_id].append((product_id, grade))
    situations = ReferenceSituation.objects.filter(is_active=True)
    if not settings.FEEDBACK_LEARNING_ENABLED:
        situations = situations.exclude(source=FEEDBACK_SOURCE)  # the votes' own situations follow the votes' switch
    names = dict(Product.objects.values_list("id", "name"))
    windows = {pid: (low, high) for pid, low, high in Product.objects.values_list("id", "absence_weeks_min", "absence_weeks_max")}
    rows = [
        _Row(
            source,
            text,
            tuple(judgements[situation_id]),
            _tried_repeats(_reading(text).tried_interventions, judgements[situation_id], names),
            bool(EXPLICIT_PREVENTION.search(text)),
            _occasion_missing(_reading(text).occasions, judgements[situation_id], names),
            _out_of_window(_reading(text).absence_weeks, judgements[situation_id], windows),
        )
        for situation_id, source, text in situations.order_by("id").values_list("id", "source", "text")
        if judgements[situation_id]
    ]
    return PrecedentIndex(rows, trade_weight=TRADE_WEIGHT)


@functools.lru_cache(maxsize=8192)
def _reading(text: str) -> SituationContext:
    """A judged situation as the context reads it (read-only). Cached: the index is rebuilt in the first search
    after every committed data change, and reading ~1,850 texts again would double that rebuild (1 of 2 s)."""
    return context_extract(text)


def _tried_repeats(tried_interventions: list[str], judgements: list[tuple[int, int]], names: dict[int, str]) -> dict[int, frozenset[str]]:
    """The products a judged situation keeps out because it says they were tried, with what was tried."""
    tried = set(tried_interventions)
    if not tried:
        return {}
    repeats = {product_id: frozenset(product_interventions(names.get(product_id, ""))) & tried for product_id, grade in judgements if grade < 0}
    return {product_id: interventions for product_id, interventions in repeats.items() if interventions}


def _occasion_missing(occasions: list[str], judgements: list[tuple[int, int]], names: dict[int, str]) -> dict[int, frozenset[str]]:
    """The products a judged situation keeps out whose occasion it does not name (`occasions` are those it names)."""
    named = set(occasions)
    missing = {product_id: frozenset(product_occasions(names.get(product_id, ""))) - named for product_id, grade in judgements if grade < 0}
    return {product_id: labels for product_id, labels in missing.items() if labels}


def _out_of_window(weeks: float | None, judgements: list[tuple[int, int]], windows: dict) -> dict[int, tuple]:
    """The products a judged situation keeps out while its absence (`weeks`) lies outside their window, or at
    its end: "104 wk ziek, IVA toegekend" keeps the second track (26-104 weeks) out because it is over."""
    if weeks is None:
        return {}
    return {
        product_id: windows[product_id]
        for product_id, grade in judgements
        if grade < 0 and product_id in windows and windows[product_id] != (None, None) and not _within(weeks, windows[product_id], closed=False)
    }


def _within(weeks: float | None, window: tuple, *, closed: bool = True) -> bool:
    low, high = window
    return weeks is not None and (low is None or weeks >= low) and (high is None or (weeks <= high if closed else weeks < high))


def _questions_build(*, answered: bool = True) -> PrecedentIndex:
    """Judged guideline questions with a place, each place voting as "ideal"; with `answered` false,
    those judged unanswerable (no place), which vote for nothing and only say how close they are.

    Only places the corpus holds count (search.pipeline.held_places): a law question where only the demo
    guidelines are loaded ("werken op hoogte") is no evidence that this corpus answers it, nor that it does not."""
    held = held_places()
    places: dict[int, list[tuple[tuple[str, str], int]]] = defaultdict(list)
    judged: set[int] = set()
    for question_id, title, article in ReferenceQuestionPlace.objects.filter(question__is_active=True).values_list(
        "question_id", "document_title", "article"
    ):
        judged.add(question_id)
        if held.holds(title, article):
            places[question_id].append(((title, article), 2))
    rows = [
        _Row(source, text, tuple(places[question_id]))
        for question_id, source, text in ReferenceQuestion.objects.filter(is_active=True).order_by("id").values_list("id", "source", "text")
        if (bool(places[question_id]) if answered else question_id not in judged)
    ]
    return PrecedentIndex(rows)


def _out_of_domain_build() -> PrecedentIndex:
    """Judged situations without any judged product: lines a specialist judged to need no advice at all (a
    vacancy to post, a laptop virus). Votes on a search always judge a product, so these come from judged sets."""
    situations = ReferenceSituation.objects.filter(is_active=True, judgements__isnull=True).exclude(source=FEEDBACK_SOURCE)
    rows = [_Row(source, text, ()) for source, text in situations.order_by("id").values_list("source", "text")]
    return PrecedentIndex(rows, trade_weight=TRADE_WEIGHT)


_BUILDERS = {
    "situations": _situations_build,
    OUT_OF_DOMAIN_SITUATIONS: _out_of_domain_build,
    "questions": _questions_build,
    "unanswerable questions": lambda: _questions_build(answered=False),
}


def question_precedents(text: str, *, held_out_source: str = "") -> Precedents:
    """The places (document title, article) that answer the judged questions closest to `text`."""
    return precedent_index("questions").precedents(text, held_out_source=held_out_source)


def unanswerable_closeness(text: str, *, held_out_source: str = "") -> float:
    """Cosine of a question with the closest judged question the corpus cannot answer (0 when none shares a gram)."""
    return max(precedent_index("unanswerable questions").similarities(text, held_out_source=held_out_source).values(), default=0.0)
