"""The curators' insight page: staff only, read only."""

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.views.decorators.http import require_GET

from insight.forms import PeriodForm
from insight.presentation import PERIOD_CHOICES, overview_build
from search.views import specialist_required


def staff_required(view):
    """Anonymous visitors go to the login like on every page; a logged-in user who is not staff gets 403."""

    @specialist_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied("Alleen beheerders zien het inzicht.")
        return view(request, *args, **kwargs)

    return wrapper


@staff_required
@require_GET
def insight_overview(request):
    form = PeriodForm(request.GET)
    overview = overview_build(days=form.days())
    period_error = form.errors["dagen"][0] if "dagen" in form.errors else ""
    context = {"overview": overview, "period_choices": PERIOD_CHOICES, "period_error": period_error}
    return render(request, "insight/overview.html", context)
