"""Template filters for the specialist pages."""

import re
from urllib.parse import urlsplit

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

_REFERENCE = re.compile(r"\[(\d{1,2})\]")


@register.filter
def http_url(url: str) -> str:
    """The url when it is http(s), else "": imported data must never yield a javascript: link."""
    return url if url and urlsplit(url).scheme in ("http", "https") else ""


@register.filter
def with_references(text: str, prefix: str = "bron") -> str:
    """Escaped text in paragraphs, with "[2]" turned into a link to the citation with id "<prefix>-2"."""
    paragraphs = [p for p in re.split(r"\n\s*\n", str(text or "")) if p.strip()]
    html = []
    for paragraph in paragraphs:
        escaped = str(conditional_escape(paragraph.strip())).replace("\n", "<br>")
        linked = _REFERENCE.sub(lambda m: str(format_html('<a href="#{}-{}">[{}]</a>', prefix, m[1], m[1])), escaped)
        html.append(f"<p>{linked}</p>")
    return mark_safe("".join(html))
