"""The specialist pages. Every view: access check → form → service/selector → render.

A page asked for by htmx gets its partial (`_something.html`); the same URL without htmx gets the
full page, so every page also works without JavaScript.
"""

import json
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from guidelines.models import GuidelineChunk
from search.answer_streams import answer_events, answer_stream_open, answer_stream_take
from search.answers import guideline_answer
from search.exports import search_markdown
from search.forms import QuestionForm, SearchForm, VoteForm
from search.models import Recommendation, SearchLog
from search.pipeline.errors import SearchInputError
from search.pipeline.request import validate_query
from search.presentation import (
    Names,
    history_page,
    results_build,
    sources_of,
    vote_state,
)
from search.ratelimits import RateLimited, rate_limit_check
from search.selectors import chunk_with_document, search_of_user
from search.serializers import stored_search_json
from search.services import (
    FeedbackError,
    FeedbackRateLimited,
    feedback_vote_cast,
    search_perform,
)

INVALID = 422  # htmx is configured (base.html) to swap 422 and 429 so the Dutch message is shown


def specialist_required(view):
    """Like login_required, but an htmx request whose session expired reloads the page into the login form.

    A plain redirect would make htmx swap the login page into a card. Every answer says it varies
    with HX-Request (these views answer htmx with a fragment), so no cache serves a fragment as a page.
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.user.is_authenticated:
            response = view(request, *args, **kwargs)
        elif request.htmx:
            response = HttpResponseClientRedirect(redirect_to_login(request.htmx.current_url_abs_path or "/").url)
        else:
            response = redirect_to_login(request.get_full_path())
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def _render(request, page: str, partial: str, context: dict, status: int = 200) -> HttpResponse:
    wants_partial = request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request
    return render(request, partial if wants_partial else page, context, status=status)


def _own_search(request, search_id: int) -> SearchLog:
    try:
        return search_of_user(user=request.user, search_id=search_id)
    except SearchLog.DoesNotExist:
        raise Http404("Deze zoekvraag bestaat niet of is niet van u.") from None


@specialist_required
@require_http_methods(["GET", "POST"])
def search_new(request):
    form = SearchForm(request.POST if request.method == "POST" else None)
    context = {"form": form}
    limited = None
    if form.is_valid():
        try:
            rate_limit_check(request, group="search")
            outcome = search_perform(request=form.search_request(), user=request.user)
        except RateLimited as error:
            limited = error
            form.add_error("situatie", error.message)
        except SearchInputError as error:
            form.add_error("situatie", str(error))
        else:
            log = _own_search(request, outcome.search_id)
            context.update(results=results_build(log=log, outcome=outcome), names=Names.from_data(form.cleaned_data))
    status = 429 if limited else INVALID if form.errors else 200
    return _with_retry_after(_render(request, "search/new.html", "search/_search_area.html", context, status=status), limited)


@specialist_required
@require_GET
def search_detail(request, search_id: int):
    results = results_build(log=_own_search(request, search_id))
    return _render(request, "search/detail.html", "search/_results.html", {"results": results, "names": Names()})


@specialist_required
@require_GET
def search_history(request):
    page = history_page(user=request.user, page_number=request.GET.get("page"))
    return _render(request, "search/history.html", "search/_history.html", {"page": page})


@specialist_required
@require_http_methods(["GET", "POST"])
def search_export_markdown(request, search_id: int):
    """The advice as Markdown. Names are only taken from a POST (the results page's form), so they never
    travel in a URL or an access log; a plain GET downloads it with the neutral wording."""
    results = results_build(log=_own_search(request, search_id))
    names = Names.from_data(request.POST if request.method == "POST" else {})
    response = HttpResponse(search_markdown(results, names=names), content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="interventieadvies-{search_id}.md"'
    return response


@specialist_required
@require_GET
def search_export_json(request, search_id: int):
    log = _own_search(request, search_id)
    data = {**stored_search_json(log), "bronnen": sources_of(results_build(log=log))}
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="interventieadvies-{search_id}.json"'
    return response


@specialist_required
@require_POST
def recommendation_vote(request, recommendation_id: int):
    try:
        state = vote_state(user=request.user, recommendation_id=recommendation_id)
    except Recommendation.DoesNotExist:
        raise Http404("Deze aanbeveling bestaat niet of is niet van u.") from None
    form = VoteForm(request.POST)
    error, status = "", 200
    if not form.is_valid():
        error, status = next(iter(form.errors.values()))[0], INVALID
    else:
        try:
            vote = feedback_vote_cast(user=request.user, recommendation_id=recommendation_id, **form.cleaned_data)
        except FeedbackRateLimited as problem:
            error, status = str(problem), 429
        except FeedbackError as problem:
            error, status = str(problem), INVALID
        else:
            state.value, state.comment = vote.value, vote.comment
    if request.htmx:
        return render(request, "search/_vote.html", {"state": state, "error": error, "saved": not error}, status=status)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, "Dank u, uw stem is opgeslagen.")
    return redirect(f"{reverse('search:detail', args=[state.search_id])}#aanbeveling-{recommendation_id}")


@specialist_required
@require_http_methods(["GET", "POST"])
def guidelines_ask(request):
    """A guideline question. The page (htmx) gets a panel that streams the answer from `guidelines_stream`;
    without JavaScript the whole answer comes back at once."""
    form = QuestionForm(request.POST if request.method == "POST" else None)
    context = {"form": form, "answer": None, "stream_url": ""}
    limited = None
    if form.is_valid():
        try:
            rate_limit_check(request, group="question")
            question = validate_query(form.cleaned_data["q"])
            if request.htmx:
                token = answer_stream_open(request.session, question)
                context.update(question=question, stream_url=reverse("search:guidelines_stream", args=[token]))
            else:
                context["answer"] = guideline_answer(question)
        except RateLimited as error:
            limited = error
            form.add_error("q", error.message)
        except SearchInputError as error:
            form.add_error("q", str(error))
    status = 429 if limited else INVALID if form.errors else 200
    return _with_retry_after(_render(request, "search/guidelines.html", "search/_guidelines_area.html", context, status=status), limited)


@specialist_required
@require_GET
def guidelines_stream(request, token: str):
    """The answer to a question parked by `guidelines_ask`, as text/event-stream (once per question)."""
    question = answer_stream_take(request.session, token)
    response = StreamingHttpResponse(answer_events(question, request=request), content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy such as nginx must pass each event on at once
    return response


def _with_retry_after(response: HttpResponse, limited: RateLimited | None) -> HttpResponse:
    if limited:
        response["Retry-After"] = str(limited.retry_after_s)
    return response


@specialist_required
@require_GET
def chunk_detail(request, chunk_id: int):
    try:
        chunk = chunk_with_document(chunk_id=chunk_id)
    except GuidelineChunk.DoesNotExist:
        raise Http404("Deze richtlijnpassage bestaat niet (meer).") from None
    return _render(request, "search/chunk.html", "search/_chunk.html", {"chunk": chunk})
