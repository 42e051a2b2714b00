"""JSON API for integrations: the same objects as `manage.py recommend --json` and `ask --json`.

Authentication: a logged-in session or `Authorization: Bearer <token>` (see `create_api_token`).
The OpenAPI schema is served at /api/openapi.json and browsable at /api/docs.
"""

import hashlib

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from ninja import NinjaAPI
from ninja.security import HttpBearer, django_auth

from search.answers import guideline_answer
from search.models import ApiToken
from search.pipeline.run import MAX_TOP_K, MODES, SearchInputError, SearchRequest
from search.serializers import answer_json, outcome_json
from search.services import search_perform


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str):
        digest = hashlib.sha256(token.encode()).hexdigest()
        api_token = ApiToken.objects.select_related("user").filter(key_hash=digest, user__is_active=True).first()
        if api_token is None:
            return None
        ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=timezone.now())
        request.user = api_token.user
        return api_token.user


api = NinjaAPI(
    title="EVI Interventiewijzer API",
    version="1",
    description="Aanbevelingen en richtlijnantwoorden voor integraties. Foutmeldingen zijn Nederlands.",
    auth=[BearerToken(), django_auth],
    urls_namespace="api",
)


@api.exception_handler(SearchInputError)
def bad_input(request, error: SearchInputError):
    return api.create_response(request, {"detail": str(error)}, status=400)


@api.get("/recommendations", summary="Interventie-aanbevelingen voor een situatie")
def recommendations(request, q: str = "", top_k: str = "", mode: str = "two-stage"):
    top_k = top_k or str(settings.SEARCH_TOP_K)
    if mode not in MODES:
        raise SearchInputError(f"Onbekende modus '{mode}'; kies uit {', '.join(MODES)}.")
    # isdigit() also accepts "²" and "①", which int() refuses: only ASCII digits are a number here.
    if not (top_k.isascii() and top_k.isdigit()) or not 1 <= int(top_k) <= MAX_TOP_K:
        raise SearchInputError(f"top_k moet een geheel getal tussen 1 en {MAX_TOP_K} zijn.")
    outcome = search_perform(request=SearchRequest(query=q, mode=mode, top_k=int(top_k)), user=request.user)
    return outcome_json(outcome)


@api.get("/guidelines/answer", summary="Antwoord op een richtlijnvraag, met bronnen")
def guidelines_answer(request, q: str = ""):
    return answer_json(guideline_answer(q))
