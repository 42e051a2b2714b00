"""JSON API for integrations: the same objects as `manage.py recommend --json` and `ask --json`.

Authentication: a logged-in session or `Authorization: Bearer <token>` (see `create_api_token`).
The OpenAPI schema is served at /api/openapi.json and browsable at /api/docs, both after logging in.
"""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.utils import timezone
from ninja import NinjaAPI, Schema
from ninja.errors import HttpError, ValidationError
from ninja.security import HttpBearer, django_auth

from search.answers import guideline_answer
from search.models import ApiToken
from search.pipeline.errors import SearchInputError
from search.pipeline.request import MAX_TOP_K, MODES, SearchRequest
from search.ratelimits import RateLimited, rate_limit_check
from search.serializers import answer_json, outcome_json
from search.services import search_perform

# "Last used" to the minute: writing it on every request would cost a commit per API call under load.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str):
        digest = hashlib.sha256(token.encode()).hexdigest()
        api_token = ApiToken.objects.select_related("user").filter(key_hash=digest, user__is_active=True).first()
        if api_token is None:
            return None
        now = timezone.now()
        if api_token.last_used_at is None or now - api_token.last_used_at >= LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=now)
        request.user = api_token.user
        return api_token.user


api = NinjaAPI(
    title="EVI Interventiewijzer API",
    version="1",
    description="Aanbevelingen en richtlijnantwoorden voor integraties. Foutmeldingen zijn Nederlands.",
    auth=[BearerToken(), django_auth],
    urls_namespace="api",
    # The interactive docs and the schema are for logged-in users, not for anyone who finds the host.
    docs_decorator=login_required,
)


@api.exception_handler(RateLimited)
def too_many(request, error: RateLimited):
    response = api.create_response(request, {"detail": error.message}, status=429)
    response["Retry-After"] = str(error.retry_after_s)
    return response


@api.exception_handler(SearchInputError)
def bad_input(request, error: SearchInputError):
    return api.create_response(request, {"detail": str(error)}, status=400)


class RecommendationsIn(Schema):
    """A situation and its optional form fields; numbers may also come as text."""

    query: str = ""
    top_k: int | str | None = None
    mode: str = "two-stage"
    role: str = ""
    sector: str = ""
    duration: str = ""
    budget: str = ""


class QuestionIn(Schema):
    question: str = ""


@api.exception_handler(ValidationError)
def malformed_body(request, error: ValidationError):
    fields = sorted({".".join(str(part) for part in item.get("loc", ())[1:] if part != "payload") or "body" for item in error.errors})
    return api.create_response(
        request, {"detail": f"Ongeldige JSON-invoer ({', '.join(fields)}); stuur een JSON-object, zie /api/docs."}, status=400
    )


@api.exception_handler(HttpError)
def http_error(request, error: HttpError):
    """Ninja's own 400 (a body that is no JSON at all) in Dutch, like every other input error."""
    detail = "Ongeldige JSON-invoer: de body is geen JSON-object; zie /api/docs." if error.status_code == 400 else str(error)
    return api.create_response(request, {"detail": detail}, status=error.status_code)


# Situations and questions are health data: they travel in POST bodies, never in a URL (access logs).
@api.post("/recommendations", summary="Interventie-aanbevelingen voor een situatie")
def recommendations(request, payload: RecommendationsIn):
    rate_limit_check(request, group="search")
    top_k = str(payload.top_k if payload.top_k is not None else settings.SEARCH_TOP_K)
    if payload.mode not in MODES:
        raise SearchInputError(f"Onbekende modus '{payload.mode}'; kies uit {', '.join(MODES)}.")
    # isdigit() also accepts "²" and "①", which int() refuses: only ASCII digits are a number here.
    if not (top_k.isascii() and top_k.isdigit()) or not 1 <= int(top_k) <= MAX_TOP_K:
        raise SearchInputError(f"top_k moet een geheel getal tussen 1 en {MAX_TOP_K} zijn.")
    search = SearchRequest(
        query=payload.query, mode=payload.mode, top_k=int(top_k), role=payload.role, sector=payload.sector,
        duration=payload.duration, budget=payload.budget,
    )
    return outcome_json(search_perform(request=search, user=request.user))


@api.post("/guidelines/answer", summary="Antwoord op een richtlijnvraag, met bronnen")
def guidelines_answer(request, payload: QuestionIn):
    rate_limit_check(request, group="question")
    return answer_json(guideline_answer(payload.question))
