"""The page a locked-out login gets (django-axes calls this instead of its English default)."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    minutes = round(settings.AXES_COOLOFF_TIME * 60)
    html = render_to_string("registration/locked_out.html", {"minutes": minutes}, request=request)
    return HttpResponse(html, status=429)
