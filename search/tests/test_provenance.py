"""Every cited source carries its provenance, and a search keeps both its sections and its retrieval story:
in the stored search, `recommend --json`, `ask --json`, the JSON API and both exports."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from catalog.models import Product
from guidelines.models import GuidelineChunk
from search.models import Citation, SearchLog
from search.pipeline.multi_query import broadest_facet, facet_queries
from search.pipeline.request import SearchRequest
from search.pipeline.types import passage_sha256
from search.services import search_perform

pytestmark = pytest.mark.django_db

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
PROVENANCE = {"chunk_id", "document_title", "source", "section", "url", "retrieved_at", "content_sha256", "used_in_prompt"}


def _run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_it_gives_every_citation_of_recommend_json_its_provenance_and_the_retrieval_block():
    data = json.loads(_run("recommend", SITUATION, "--json"))
    citations = [c for rec in data["recommendations"] + data["workplace_suggestions"] for c in rec["guidelines"]]
    assert citations and all(PROVENANCE <= set(c) for c in citations)
    first = citations[0]
    assert first["retrieved_at"] and len(first["content_sha256"]) == 64 and first["used_in_prompt"] is False
    assert first["content_sha256"] == passage_sha256(GuidelineChunk.objects.get(id=first["chunk_id"]).content)
    retrieval = data["retrieval"]
    assert set(retrieval) >= {"queries", "rewrites", "graded", "hyde_used", "expanded"}
    assert retrieval["queries"][0] == SITUATION and retrieval["graded"]["by"] == "drempels" and retrieval["graded"]["passed"] >= 3
    assert SearchLog.objects.get(id=data["search_id"]).retrieval == retrieval


def test_it_gives_ask_json_the_provenance_and_the_documents_it_considered():
    data = json.loads(_run("ask", "Wanneer moet het plan van aanpak klaar zijn?", "--json"))
    assert all(PROVENANCE <= set(c) and c["content_sha256"] == passage_sha256(c["quote"]) for c in data["citations"])
    considered = data["documents_considered"]
    assert considered and {"document_title", "source", "score", "chosen"} <= set(considered[0])
    assert data["citations"][0]["document_title"] in [d["document_title"] for d in considered]


def test_it_stores_the_workplace_section_and_reopens_and_exports_it(owner_client, owner):
    outcome = search_perform(request=SearchRequest(query="Team met hoge werkdruk en conflicten, meerdere medewerkers dreigen uit te vallen"), user=owner)
    assert outcome.workplace_suggestions, "this situation should bring preventive/workplace suggestions"
    workplace = [item.product.name for item in outcome.workplace_suggestions]
    reopened = owner_client.get(reverse("search:detail", args=[outcome.search_id])).content.decode()
    assert all(name in reopened for name in workplace)
    exported = owner_client.get(reverse("search:export_json", args=[outcome.search_id])).json()
    assert [w["name"] for w in exported["workplace_suggestions"]] == workplace
    markdown = owner_client.get(reverse("search:export_markdown", args=[outcome.search_id])).content.decode()
    assert "## Preventieve/Werkplek Oplossingen" in markdown and all(name in markdown for name in workplace)


def test_it_gives_the_same_booking_link_in_both_exports_after_the_link_broke(owner_client, owner):
    outcome = search_perform(request=SearchRequest(query=SITUATION), user=owner)
    first = outcome.recommendations[0].product
    Product.objects.filter(id=first.id).update(url_status="broken")
    exported = owner_client.get(reverse("search:export_json", args=[outcome.search_id])).json()
    link = exported["recommendations"][0]["url"]
    assert link != first.url and exported["recommendations"][0]["url_shown_at_search"] == first.url
    markdown = owner_client.get(reverse("search:export_markdown", args=[outcome.search_id])).content.decode()
    assert f"**Details & Boekingsinformatie:** {link}" in markdown


def test_it_exports_the_provenance_and_shows_when_a_cited_passage_changed_since(owner_client, owner):
    outcome = search_perform(request=SearchRequest(query=SITUATION), user=owner)
    stored = Citation.objects.filter(recommendation__search_id=outcome.search_id).select_related("chunk").first()
    assert stored.retrieved_at and stored.content_sha256 == passage_sha256(stored.chunk.content)
    markdown = owner_client.get(reverse("search:export_markdown", args=[outcome.search_id])).content.decode()
    assert f"sha256 {stored.content_sha256}" in markdown and "aan taalmodel getoond: nee" in markdown
    GuidelineChunk.objects.filter(id=stored.chunk_id).update(content=stored.chunk.content + " Gewijzigd door een beheerder.")
    exported = owner_client.get(reverse("search:export_json", args=[outcome.search_id])).json()
    source = next(s for s in exported["bronnen"] if s["chunk_id"] == stored.chunk_id)
    assert source["content_sha256"] == stored.content_sha256 and source["changed_since"] is True
    guideline = exported["recommendations"][0]["guidelines"][0]
    assert PROVENANCE <= set(guideline)


def test_it_splits_a_situation_into_its_facets():
    facets = facet_queries(SITUATION)
    assert [(q.text, q.facet) for q in facets] == [
        ("Werknemer met burn-out klachten", "klacht"), ("6 maanden verzuim", "fase"), ("management functie", "werk"),
    ]
    assert broadest_facet(facets).text == "Werknemer met burn-out klachten"
    assert facet_queries("rugklachten") == [] and facet_queries("Burn-out klachten") == []
    assert facet_queries("Ons team heeft veel conflicten. Medewerker heeft slaapproblemen")[0].facet == "organisatie"


def test_it_fuses_the_sub_queries_into_the_candidates_when_asked():
    single = search_perform(request=SearchRequest(query=SITUATION, multi_query=False))
    multi = search_perform(request=SearchRequest(query=SITUATION, multi_query=True))
    assert single.retrieval["queries"] == [SITUATION]
    assert multi.retrieval["queries"][1:] == [q.text for q in facet_queries(SITUATION)]
    assert multi.retrieval["facets"] == ["situatie", "klacht", "fase", "werk"]
    assert multi.recommendations


def test_it_rewrites_a_weak_query_at_most_twice(settings, no_reference_situations):
    settings.SEARCH_SIMILARITY_FLOOR = 0.95  # almost nothing passes the grade
    settings.SEARCH_WEAK_FLOOR = 0.95
    settings.SEARCH_LEXICAL_FLOOR = 1000.0
    outcome = search_perform(request=SearchRequest(query="Medewerker met rugklachten, werkt in een magazijn, al 3 weken thuis"))
    retrieval = outcome.retrieval
    assert retrieval["graded"]["passed"] < 3 and retrieval["graded"]["failed"] > 0
    assert retrieval["rewrites"] == 2 and retrieval["expanded"]  # the wijzer, then the broadest facet (no LLM)
    assert outcome.note or outcome.message


def test_it_shows_where_a_cited_passage_was_read_and_warns_when_it_changed_since(owner_client, owner):
    outcome = search_perform(request=SearchRequest(query=SITUATION), user=owner)
    stored = Citation.objects.filter(recommendation__search_id=outcome.search_id, recommendation__rank=1).select_related("chunk").first()
    page = owner_client.get(reverse("search:detail", args=[outcome.search_id])).content.decode()
    assert "vingerafdruk <code" in page and stored.content_sha256[:12] in page
    assert "gewijzigd sinds dit advies" not in page
    GuidelineChunk.objects.filter(id=stored.chunk_id).update(content=stored.chunk.content + " Aangepast.")
    page = owner_client.get(reverse("search:detail", args=[outcome.search_id])).content.decode()
    assert "gewijzigd sinds dit advies" in page and "badge-changed" in page
