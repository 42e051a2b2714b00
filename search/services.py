"""Writes of the search app: recording searches with their provenance, feedback votes, API tokens
and ranking versions."""

import hashlib
import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from search.cache import search_run_cached
from search.models import (
    ApiToken,
    FeedbackVote,
    RankingParameterSet,
    Recommendation,
)
from search.pipeline.links import display_link
from search.pipeline.request import REPLAYABLE_FIELDS, SearchRequest
from search.pipeline.run import SearchOutcome
from search.pipeline.score_criteria import scores_as_fields
from search.recording import search_rows_insert
from search.reference_situations import reference_situation_from_votes
from search.tuning import TuneReport


def search_perform(*, request: SearchRequest, user=None) -> SearchOutcome:
    """Run a search (or take it from the search cache) and record it (SearchLog, Recommendations, Citations) in one statement."""
    outcome = search_run_cached(request)
    fields = {name: getattr(request, name) for name in REPLAYABLE_FIELDS if getattr(request, name)}
    outcome.search_id = search_log_record(outcome=outcome, user=user, top_k=request.top_k, request_fields=fields)
    return outcome


def search_log_record(*, outcome: SearchOutcome, top_k: int, user=None, request_fields: dict | None = None) -> int:
    """Record a search with its recommendations and their citations; returns the SearchLog id."""
    placed = [
        (section, rank, item)
        for section, items in ((Recommendation.Section.ADVICE, outcome.recommendations), (Recommendation.Section.WORKPLACE, outcome.workplace_suggestions))
        for rank, item in enumerate(items, start=1)
    ]
    return search_rows_insert(
        log={
            "user_id": user.pk if user is not None and user.is_authenticated else None,
            "query": outcome.query,
            "context": outcome.context.as_dict(),
            "mode": outcome.mode,
            "top_k": top_k,
            "ranker": outcome.ranker,
            "fallback_reason": outcome.fallback_reason[:300],
            "candidate_count": outcome.candidate_count,
            "canonical_count": outcome.canonical_count,
            "expanded": outcome.expanded,
            "hyde_used": outcome.hyde_used,
            "note": outcome.note,
            "budget_note": outcome.budget_note,
            "message": outcome.message,
            "timings_ms": outcome.timings_ms,
            "retrieval": outcome.retrieval,
            "request_fields": request_fields or {},
            "ranking_version_id": outcome.ranking_version,
            "created_at": timezone.now(),
        },
        recommendations=[_recommendation_row(section, rank, item) for section, rank, item in placed],
        citations=[
            _citation_row(section, rank, position, citation)
            for section, rank, item in placed
            for position, citation in enumerate(item.citations, start=1)
        ],
    )


def _recommendation_row(section: str, rank: int, item) -> dict:
    link = display_link(item.product)
    return {
        "section": section,
        "product_id": item.product.id,
        "product_name": item.product.name,
        "rank": rank,
        "relevance_score": item.relevance,
        **scores_as_fields(item.scores),
        "similarity": item.similarity,
        "feedback_multiplier": item.feedback_multiplier,
        "reasoning": item.reasoning,
        "url_shown": link.url,
        "url_status": link.status,
    }


def _citation_row(section: str, rank: int, position: int, citation) -> dict:
    return {
        "recommendation_section": section,
        "recommendation_rank": rank,
        "chunk_id": citation.chunk_id,
        "position": position,
        "score": citation.score,
        "document_title": citation.document_title,
        "source": citation.source,
        "section": citation.section,
        "url": citation.url,
        "retrieved_at": citation.retrieved_at,
        "content_sha256": citation.content_sha256,
        "used_in_prompt": citation.used_in_prompt,
    }


class FeedbackError(Exception):
    """A vote that cannot be taken; the message is Dutch and shown to the specialist."""


class FeedbackRateLimited(FeedbackError):
    pass


VOTES_PER_MINUTE = 30


def feedback_vote_cast(*, user, recommendation_id: int, value: int, comment: str = "") -> FeedbackVote:
    """Record or change the user's vote on a recommendation from one of their own searches.

    One vote per user and recommendation is enforced by the database; a second vote changes the
    first. Raises Recommendation.DoesNotExist for someone else's search (the view answers 404).
    """

    if value not in (1, -1):
        raise FeedbackError("Kies 'bruikbaar' of 'niet bruikbaar'.")
    comment = (comment or "").strip()
    if len(comment) > 1000:
        raise FeedbackError("De toelichting is te lang; gebruik maximaal 1000 tekens.")
    recommendation = Recommendation.objects.get(id=recommendation_id, search__user=user)
    recent = FeedbackVote.objects.filter(user=user, updated_at__gte=timezone.now() - timedelta(minutes=1)).count()
    if recent >= VOTES_PER_MINUTE:
        raise FeedbackRateLimited("U heeft veel stemmen in korte tijd uitgebracht. Probeer het over een minuut opnieuw.")
    defaults = {"value": value, "comment": comment}
    with transaction.atomic():  # the vote and the judged situation it makes of the search, together
        try:
            with transaction.atomic():
                vote, _ = FeedbackVote.objects.update_or_create(user=user, recommendation=recommendation, defaults=defaults)
        except IntegrityError:
            # Two requests raced to create the same vote; the row exists now, so this one becomes the update.
            FeedbackVote.objects.filter(user=user, recommendation=recommendation).update(**defaults, updated_at=timezone.now())
            vote = FeedbackVote.objects.get(user=user, recommendation=recommendation)
        reference_situation_from_votes(search_id=recommendation.search_id)
    return vote


def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Create a token for the user; returns the row and the token, which is never stored or shown again."""
    token = secrets.token_urlsafe(32)
    api_token = ApiToken.objects.create(
        user=user, name=name.strip() or "integratie", prefix=token[:8], key_hash=hashlib.sha256(token.encode()).hexdigest()
    )
    return api_token, token


def ranking_version_save(*, report: TuneReport, based_on_id: int | None) -> RankingParameterSet:
    """Store a fitted parameter set with its training counts and held-out figures, and make it the
    one that ranks; refuses a set `report.adopt` rejects (it would lower held-out nDCG@3 or win nothing)."""
    if not report.adopt:
        raise RankingVersionRefused(
            "Niet opgeslagen: de gefitte parameters winnen niets op niet-gebruikte situaties of stemmen, "
            f"of verlagen nDCG@3 ({report.fitted_held_out} tegen {report.current_held_out})."
        )
    with transaction.atomic():
        version = RankingParameterSet.objects.create(
            values=report.tunable_values(),
            judged_situations=report.queries,
            vote_pairs=report.vote_pairs,
            vote_searches=report.vote_searches,
            held_out_ndcg=report.fitted_held_out,
            baseline_ndcg=report.current_held_out,
            held_out_pair_agreement=report.fitted_held_out_pair_agreement,
            baseline_pair_agreement=report.current_pair_agreement,
            trials=report.trials,
            folds=report.folds,
            based_on_id=based_on_id,
        )
        ranking_version_activate(version_id=version.id)
    version.refresh_from_db()
    return version


def ranking_version_activate(*, version_id: int | None) -> None:
    """Let this version rank from the next search on (None: the built-in parameters); the way back is
    the same call with an earlier version."""
    with transaction.atomic():
        # Lock the active row first, so two activations queue instead of both clearing and setting.
        list(RankingParameterSet.objects.select_for_update().filter(is_active=True))
        RankingParameterSet.objects.filter(is_active=True).exclude(id=version_id).update(is_active=False)
        if version_id is not None:
            updated = RankingParameterSet.objects.filter(id=version_id).update(is_active=True, activated_at=timezone.now())
            if not updated:
                raise RankingParameterSet.DoesNotExist(f"no ranking version {version_id}")


class RankingVersionRefused(Exception):
    """A fitted parameter set that may not become a version; the message is Dutch."""
