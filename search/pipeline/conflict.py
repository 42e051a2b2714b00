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


# Any sign of a conflict or a disagreement in the work relation: a quarrel, broken trust, a dispute about fitness
# for work or suitable work, bullying, a parting. Mediation during absence is for these. Of the 4,040 judged
# situations of 66 sets, 181 grade Mediation Bij Ziekteverzuim and all name one of these cues; of the 129 that keep
# it out of their top 3, 92 name none (a divorce at home, a diagnosis, a team without a clear conflict). Broad on
# purpose: a missed conflict costs a first choice, a missed absence of one only a third place.
WORK_CONFLICT = re.compile(
    r"conflict\w*|ruzie\w*|onenigheid\w*|\bbots\w*|\bbotsing\w*|meningsverschil\w*|verschil\w*\s+van\s+(?:mening|inzicht)|\boneens\b|niet\s+eens\s+met"
    r"|onvrede\w*|spanning\w*|vertrouw(?!enspersoon)\w*|wantrouw\w*|verstoor\w*|verstoord\w*|arbeidsrelatie\w*|arbeidsverhouding\w*|verhouding\w*|geschil\w*|escal\w*"
    r"|\btoon\b[^.;]{0,30}\bscherp\w*|\bboos\b|\bboze\b|woedend|\bkwaad\b|verwijt\w*|beschuldig\w*|samen\s+verder|met\s+elkaar|door\s+één\s+deur|wrijving\w*|frictie\w*|aanvaring\w*|clash\w*"
    r"|mediat\w*|onwerkbaar\w*|\bstroef\w*|slechte?\s+(?:relatie|sfeer)|situatiev\w*|\bsao\b|overhoop|impasse|vastgelopen|\bvast\s+(?:gelopen|zit|zitten)\b|muurvast"
    r"|\b(?:loopt|lopen|liep|liepen)\s+(?:\w+\s+){0,2}?(?:vast|spaak)\b|ligt\s+stil|gelijk\s+heeft|\bwie\s+(?:heeft\s+)?(?:er\s+)?gelijk|houdt\s+vol|weiger\w*|niet\s+passend"
    r"|(?:vindt|vinden|zegt|zeggen)\b[^.;]{0,80}\bmaar\s+(?:hij|zij|ze|de\s+werknemer|de\s+medewerker|werknemer|medewerker|wij|we)\b"
    r"|zolang\s+(?:die|hij|zij|ze|de|deze)(?:\s+\w+)?\s+(?:er\s+)?(?:zit|is|blijft|werkt)\b|op\s+de\s+vingers|gekwetst|onrecht\w*|oneerlijk\w*|ontevreden\w*"
    r"|ontslag\w*|\bvso\b|vaststellingsovereenkomst\w*|advoca\w*|jurist\w*|\bpest\w*|gepest\w*|intimid\w*|treiter\w*|kleiner\w*|onderling\w*|\bkampen\b|wij-zij|gedoe"
    r"|niet\s+(?:meer\s+)?(?:met|naast|onder)\s+(?:zijn|haar|de|die|deze|hem)\b|klacht(?:en)?\s+(?:over|tegen|ingediend)|second\s+opinion|deskundigenoordeel"
    r"|onafhankelijk\w*|neutrale?\b",
    re.IGNORECASE,
)
# A product for a conflict in the work relation, by its name.
FOR_A_CONFLICT = re.compile(r"\bmediation\b", re.IGNORECASE)


def conflict_named(text: str) -> bool:
    """Whether the situation names a conflict or disagreement in the work relation (WORK_CONFLICT)."""
    return bool(WORK_CONFLICT.search(text))


def missing_conflict(product_name: str, named: bool) -> bool:
    """Whether the product is for a work conflict and the situation names none."""
    return not named and bool(FOR_A_CONFLICT.search(product_name))
