import pytest

from catalog.models import Product
from search.pipeline.conflict import conflict_escalated, meant_before_escalation
from search.pipeline.context import context_extract
from search.pipeline.ranking.criteria import escalation_mismatch
from search.pipeline.ranking.parameters import DEFAULT

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
