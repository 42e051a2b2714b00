import pytest

from catalog.models import Product
from search.pipeline.conflict import conflict_escalated, conflict_named, meant_before_escalation, missing_conflict
from search.pipeline.context import context_extract
from search.pipeline.ranking.criteria import escalation_mismatch
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

ESCALATION = [
    ("Het contact loopt alleen nog via zijn advocaat", True),
    ("Mediation is vorige maand mislukt, hij staat open voor een regeling", True),
    ("Beide kanten willen eigenlijk uit elkaar", True),
    ("Ze willen niet meer samenwerken", True),
    ("Het vertrouwen is helemaal weg", True),
    # A heated quarrel or a silence is no escalation: a facilitated talk is still the writers' pick there.
    ("Ziek gemeld na een hoog opgelopen ruzie met haar leidinggevende", False),
    ("Ze praten niet meer met elkaar sinds het functioneringsgesprek", False),
    ("Hij wil een regelmatig rooster", False),
]


@pytest.mark.parametrize(("text", "escalated"), ESCALATION)
def test_it_reads_whether_a_conflict_has_escalated(text, escalated):
    assert conflict_escalated(text) is escalated
    assert context_extract(text).conflict_escalated is escalated


@pytest.mark.parametrize(
    ("description", "areas", "meant"),
    [
        ("Gesprekken wanneer de communicatie moeizaam verloopt maar er nog geen escalatie is.", [], True),
        ("Een begeleider helpt.", ["beginnend conflict"], True),
        ("Een mediator begeleidt een arbeidsconflict.", ["arbeidsconflict"], False),
    ],
)
def test_it_damps_a_product_for_early_conflicts_only_where_the_conflict_escalated(description, areas, meant):
    product = Product(name="Gesprek", description=description, problem_areas=areas)
    assert meant_before_escalation(product) is meant
    escalated = context_extract("Mediation is mislukt en de advocaten zijn ingeschakeld")
    calm = context_extract("Ze praten moeizaam met elkaar")
    assert escalation_mismatch(product, escalated, DEFAULT) == (DEFAULT.mismatch_escalated_conflict if meant else 1.0)
    assert escalation_mismatch(product, calm, DEFAULT) == 1.0


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Medewerker van de gemeente ligt al maanden overhoop met zijn teamleider", True),
        ("Ziek gemeld na een hoog opgelopen ruzie met haar leidinggevende", True),
        ("planner 2e jaar ziek, ad rapport zegt passend werk kan, hij zegt nee gaat niet. wie heeft gelijk", True),
        ("Hij vertrouwt de bedrijfsarts niet en de toon over en weer wordt scherper", True),
        ("Ze wil niet terug zolang die teamleider er zit", True),
        ("De BA vindt 20 uur aangepast werk haalbaar, maar hij zegt dat het niet gaat", True),
        ("Pedagogisch medewerker voelt zich gepest door collega's", True),
        ("SAO", True),  # situatieve arbeidsongeschiktheid
        ("Thuiszorgmedewerker zit midden in een scheiding en kan zich niet concentreren", False),
        ("Monteur 6 weken ziek met rugklachten na tillen", False),
        ("Ze overweegt de vertrouwenspersoon te bellen over haar rouw", False),
    ],
)
def test_it_reads_whether_a_situation_names_a_conflict_at_work(text, named):
    assert conflict_named(text) is named
    assert context_extract(text).conflict_named is named


@pytest.mark.parametrize(
    ("product", "named", "missing"),
    [
        ("Mediation Bij Ziekteverzuim", False, True),
        ("Mediation Bij Ziekteverzuim", True, False),
        ("Gespreksbegeleiding", False, False),
        ("Bedrijfsmaatschappelijk werk", False, False),
    ],
)
def test_it_holds_mediation_to_a_conflict_and_nothing_else(product, named, missing):
    assert missing_conflict(product, named) is missing


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "offered"),
    [
        ("Thuiszorgmedewerker zit midden in een scheiding en kan zich op het werk niet meer concentreren.", False),
        ("Medewerker van de gemeente ligt al maanden overhoop met zijn teamleider en de re-integratie zit muurvast.", True),
    ],
)
def test_it_offers_mediation_only_where_the_situation_names_a_conflict(query, offered):
    names = [item.product.name for item in search_run(SearchRequest(query=query, top_k=5)).recommendations]
    assert names
    assert ("Mediation Bij Ziekteverzuim" in names) is offered
