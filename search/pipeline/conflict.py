"""Whether a work conflict has escalated past talking, and which products are meant for before that.

A conversation led by a neutral facilitator is for communication that runs stiffly "maar er nog geen
escalatie is" (the catalog's own words). Once lawyers are involved, mediation has failed or both sides
want to part, the judged sets keep such a product out of their top 3: in the 18 judged situations with
a conflict and one of these cues, no writer chose Gespreksbegeleiding first and seven marked it as a
wrong pick, while Mediation stayed a first choice in 14. A heated quarrel ("hoog opgelopen", "praten
niet meer met elkaar") is not escalation by itself: there the writers still accept a facilitated talk.
"""

import re

from catalog.models import Product

ESCALATED_CONFLICT = re.compile(
    r"\b(?:advocaat|advocaten|jurist\s+ingeschakeld|juridische?\s+procedure\w*|rechtszaak|kantonrechter|ontbinding\w*"
    r"|vaststellingsovereenkomst|vso\b|(?:een\s+)?regeling\s+(?:treffen|willen|wil|voorstellen|bespreken)|staat\s+open\s+voor\s+een\s+regeling|exitgesprek|exit\b"
    r"|(?:willen|wil|wensen)\s+(?:\w+\s+){0,2}uit\s+elkaar|uit\s+elkaar\s+(?:willen|gaan)"
    r"|mediation\s+(?:is\s+|werd\s+)?(?:\w+\s+)?(?:mislukt|gestrand|vastgelopen|afgebroken|gestopt)|(?:mislukte|gestrande|vastgelopen)\s+mediation"
    r"|niet\s+meer\s+(?:willen\s+)?samen(?:werken|\s+verder)|onwerkbaar\w*|vertrouwen\s+is\s+(?:helemaal\s+|volledig\s+)?(?:weg|verdwenen|op)"
    r"|contact\s+(?:loopt\s+)?(?:alleen\s+(?:nog\s+)?)?via\s+(?:zijn|haar|de|een)\s+(?:advocaat|jurist|rechtsbijstand))",
    re.IGNORECASE,
)
# A product whose own description says it is for a conflict before it escalates.
BEFORE_ESCALATION = re.compile(r"\b(?:nog\s+geen\s+escalatie|beginnend\s+conflict|voordat\s+(?:het|een)\s+conflict\s+escaleert)\b", re.IGNORECASE)


def conflict_escalated(text: str) -> bool:
    return bool(ESCALATED_CONFLICT.search(text))


def meant_before_escalation(product: Product) -> bool:
    """The product's description or problem areas say it is for a conflict that has not escalated yet."""
    return bool(BEFORE_ESCALATION.search(product.description) or any(BEFORE_ESCALATION.search(area) for area in product.problem_areas))
