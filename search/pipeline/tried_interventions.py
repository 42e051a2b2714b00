"""Interventions the situation says were already done or tried without result, and the products they rule out.

Specialists write what has been tried: "Fysiotherapie en pijnstillers hebben weinig opgeleverd", "het
neuropsychologisch onderzoek is al gedaan", "AD-rapport is binnen", "heeft al fysio en een psycholoog
gehad", "herstelcoaching is afgerond". Offering the same again is what twelve judged sets by different
writers mark "not in the top 3": after failed physiotherapy a multidisciplinary approach, after the
labour expert's report the second track. A product whose name names such an intervention keeps a
fraction of its impact (RankingParameters.already_tried).

Only a mention in the same clause as a completion cue counts, and only before that cue ("fysio is
afgerond, nu wil hij een werkplekonderzoek" marks physiotherapy, not the workplace assessment), or
between "al" and "gehad"; "nog geen fysio gehad" and "geen actuele RI&E" mark nothing.
"""

import functools
import re

# (the intervention as the context shows it, how a situation names it, how a product's name does)
INTERVENTIONS: tuple[tuple[str, re.Pattern, re.Pattern], ...] = tuple(
    (label, re.compile(mention, re.IGNORECASE), re.compile(product, re.IGNORECASE))
    for label, mention, product in (
        ("fysiotherapie", r"\b(?:bedrijfs)?fysio\w*", r"fysiotherap"),
        # "het vroegconsult psycholoog is geweest" is the early consult, not a psychologist's treatment.
        ("psycholoog", r"(?<!vroegconsult )\bpsycholo(?:og|ge|gen)\b|\bpsychotherap\w*|(?<!POH-)(?<!POH )(?-i:\bGGZ\b)", r"\bpsycholoog\b"),
        ("vroegconsult", r"\bvroegconsult\w*", r"\bvroegconsult\b"),
        # The GP's mental-health nurse: after her talks an early consult repeats them; a psychologist does not.
        ("POH-GGZ", r"(?-i:\bPOH\b)(?:-GGZ)?|\bpraktijkondersteuner\w*", r"\bvroegconsult psycholoog\b"),
        ("neuropsychologisch onderzoek", r"\bneuropsycholog\w*", r"neuropsycholog"),
        ("arbeidsdeskundig onderzoek", r"\barbeidsdeskundig\w*|(?-i:\bAD\b)(?:[- ]?(?:rapport\w*|onderzoek|advies))?", r"arbeidsdeskundig"),
        ("tweede spoor", r"\b(?:2e|tweede)[- ]spoor\b|\bspoor[- ](?:2|twee)\b", r"\b2e spoor\b"),
        ("herstelcoaching", r"\bherstelcoach\w*", r"herstelcoach"),
        ("mediation", r"\bmediation\w*|\bmediator\w*", r"\bmediation\b"),
        ("multidisciplinair traject", r"\bmultidisciplina\w*", r"multidisciplina"),
        ("jobcoaching", r"\bjobcoach\w*", r"\bjobcoach"),
        ("werkplekonderzoek", r"\bwerkplek(?:onderzoek|analyse)\w*", r"werkplekonderzoek"),
        ("RI&E", r"\bRI&E\b|\brisico-?inventarisatie\w*", r"\bRI&E\b"),
        ("gespreksbegeleiding", r"\bgespreksbegelei\w*", r"\bgespreksbegeleiding\b"),
        ("traumaverwerking", r"(?-i:\bEMDR\b)|\btraumaverwerking\w*|\btraumabehandeling\w*|\btraumatherap\w*", r"\btraumaverwerking\b"),
        ("energiemeting", r"\benergiemeting\w*", r"\benergiemeting\b"),
        ("lekencontrole", r"\blekencontrole\w*|\bhuisbezoek\w*|\bcontrolebezoek\w*", r"\blekencontrole\b"),
    )
)

# A completion cue after the mention: done, finished, in, or tried without result.
_DONE_AFTER = re.compile(
    # "mediation is vorige maand mislukt": a few words may stand between, none of them a negation ("is nog niet gedaan")
    r"\b(?:is|zijn|werd|werden|was|waren)\s+(?:(?!niet\b|nog\b|geen\b|nooit\b)\w+\s+){0,3}?(?:gedaan|afgerond|uitgevoerd|geweest|binnen|klaar|afgenomen|doorlopen|gevolgd|geprobeerd|gestopt|mislukt|beëindigd|stopgezet)\b"
    # A note without its verb: "lekencontrole al gedaan", "fysio al gehad".
    r"|\b(?:al|reeds|inmiddels)\s+(?:gedaan|gehad|geweest|geprobeerd|afgerond|gevolgd|uitgevoerd)\b"
    # Tried and it went wrong: "een gesprek onder leiding van een gespreksbegeleider liep uit op een ruzie".
    r"|\b(?:liep|liepen|eindigde|eindigden)\s+(?:\w+\s+){0,2}?(?:uit\s+op|in)\s+(?:een\s+)?(?:ruzie|niets|niks|fiasco|escalatie)\b"
    r"|\b(?:strandde|strandden)\b|\b(?:liep|liepen)\s+(?:\w+\s+){0,3}?vast\b"
    r"|\bgestopt\s+na\b|\b(?:schiet|schieten|schoot|schoten)\s+(?:\w+\s+)?niet\s+op\b"
    # A result shown: "een energiemeting liet vorige maand al zien dat hij nauwelijks herstelt".
    r"|\b(?:liet|lieten)\s+(?:\w+\s+){0,3}?zien\b|\b(?:toonde|toonden)\b"
    r"|\b(?:heeft|hebben|had|hadden|leverde|leverden)\b[^.;!?]{0,25}?\b(?:niets|niks|weinig|onvoldoende|nauwelijks\s+iets|geen\s+(?:resultaat|verbetering|effect))\b[^.;!?]{0,10}?\bop(?:geleverd)?\b"
    r"|\b(?:heeft|hebben|had|hadden)\s+(?:al\s+|ook\s+)*(?:niet|nauwelijks|weinig|onvoldoende)\s+(?:geholpen|gewerkt)\b"
    r"|\b(?:hielp|hielpen|werkte|werkten)\s+(?:ook\s+)?(?:niet|nauwelijks|onvoldoende)\b"
    # "de arbeidsdeskundige heeft vastgesteld dat …", "heeft al eerder onderzocht"; not "heeft nog niet onderzocht"
    r"|\b(?:heeft|hebben|had|hadden)\s+(?:(?!niet\b|nog\b|geen\b|nooit\b)\w+\s+){0,3}?(?:vastgesteld|geconcludeerd|geadviseerd|onderzocht)\b"
    r"|\b(?:adviseert|adviseerde|adviseren|concludeert|concludeerde)\b"
    # A report or expert that says something has been there: "AD-rapport zegt: ander werk intern niet mogelijk".
    r"|\b(?:zegt|zeggen|zei|stelt|stelde|meldt|beschrijft|noemt)\b"
    # "AD-rapport: eigen werk niet haalbaar": what a report says follows it, so the report is there
    r"|(?:(?<=rapport)|(?<=advies))\s*:"
    # "het AD-rapport ligt er", "ligt klaar": it exists; "ligt er nog niet" is no cue
    r"|\b(?:is|zijn|ligt|liggen)\s+er\s+(?:al|inmiddels|reeds)\b|\b(?:ligt|liggen)\s+(?:er|klaar)\b(?!\s+(?:nog\s+)?(?:niet|geen)\b)|\b(?:heeft|hebben)\s+(?:al\s+|inmiddels\s+|reeds\s+)?plaatsgevonden\b"
    # Under way: "een jobcoach begeleidt hem al", "fysiotherapie loopt al", "mediation is al gestart".
    r"|\b(?:begeleidt|begeleiden|behandelt|behandelen|ondersteunt|ondersteunen|coacht|coachen)\s+(?:hem\s+|haar\s+|hen\s+|ze\s+)?(?:al|inmiddels|reeds)\b"
    r"|\b(?:loopt|lopen)\s+(?:al|inmiddels|reeds)\b(?!\s+(?:\d+|een|twee|drie|vier|vijf|zes|enkele|ruim|bijna|sinds|maanden|weken|jaren)\b)"
    r"|\b(?:is|zijn|werd|werden)\s+(?:al|inmiddels|reeds)\s+(?:gestart|begonnen|ingezet|ingeschakeld|betrokken|aangevraagd)\b",
    re.IGNORECASE,
)
# "is al in behandeling bij een psycholoog", "heeft al een tijd gesprekken bij de bedrijfsmaatschappelijk
# werker", "gaat inmiddels naar een fysiotherapeut": the mention right after an ongoing treatment.
_UNDER_WAY_WITH = re.compile(
    r"\b(?:al|inmiddels|reeds)\b[^.;!?]{0,40}?\b(?:behandeling|gesprekken|sessies|begeleiding|afspraken|loopt|lopen|gaat|gaan)\s+(?:bij|van|met|naar)\s+(?:een\s+|de\s+|het\s+|haar\s+|zijn\s+)?$"
    # "is in (onder) behandeling bij de GGZ": treatment under way, with or without "al"
    r"|\b(?:in|onder)\s+behandeling\s+(?:bij|van)\s+(?:een\s+|de\s+|het\s+)?$"
    # "loopt al bij een psycholoog", "gaat inmiddels een tijdje naar de fysio"
    r"|\b(?:loopt|lopen|gaat|gaan)\s+(?:al|inmiddels|reeds)\s+(?:\w+\s+){0,3}?(?:bij|naar)\s+(?:een\s+|de\s+|het\s+|haar\s+|zijn\s+)?$"
    # "er is al een gesprek geweest onder leiding van een onafhankelijke gespreksbegeleider"
    r"|\b(?:al|inmiddels|reeds)\b[^.;!?]{0,40}?\bonder\s+leiding\s+van\s+(?:een\s+|de\s+)?(?:\w+\s+)?$",
    re.IGNORECASE,
)
# "heeft al fysio en een psycholoog gehad": the mentions between "heeft" and "gehad".
# "heeft een volledig herstelcoachingstraject gehad", "heeft een paar maanden bij een psycholoog gelopen".
_HAD_ALREADY = re.compile(r"\b(?:heeft|hebben|had|hadden)\b([^.;!?]{1,80}?)\b(?:gehad|gedaan|gevolgd|geprobeerd|gelopen)\b", re.IGNORECASE)
# "na het AD-onderzoek", "uit het AD-rapport blijkt": the intervention lies behind.
_AFTER_IT = re.compile(r"\b(?:na|uit)\s+(?:het|de|een)\s+$", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:geen|nog\s+niet|niet|nooit)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
_CLAUSES = re.compile(r"[.;!?\n]+")
# Between a mention and its cue: a new subject or a wish starts ("wil een AD-onderzoek, de bedrijfsarts
# heeft al geadviseerd …"), so the cue is about something else.
_BREAK = re.compile(r",\s*(?:de|het|een|nu|maar|hij|zij|ze|we|wij|men|er)\b|\b(?:wil|willen|wilt|zoekt|zoeken|vraagt|overweegt|gaat|gaan)\b", re.IGNORECASE)


def interventions_tried(text: str) -> list[str]:
    """The interventions (labels of INTERVENTIONS, in table order) the text says were done or tried."""
    tried: set[str] = set()
    for clause in _CLAUSES.split(text):
        cue = _DONE_AFTER.search(clause)
        had = [m.span(1) for m in _HAD_ALREADY.finditer(clause)]
        for label, mention, _ in INTERVENTIONS:
            for match in mention.finditer(clause):
                before = clause[: match.start()]
                if _NEGATED.search(before):
                    continue
                before_cue = cue and match.end() <= cue.start() and not _BREAK.search(clause[match.end() : cue.start()])
                after_cue = _AFTER_IT.search(before) or _UNDER_WAY_WITH.search(before)
                if before_cue or after_cue or any(s <= match.start() < e for s, e in had):
                    tried.add(label)
    return [label for label, _, _ in INTERVENTIONS if label in tried]


@functools.lru_cache(maxsize=4096)
def product_interventions(name: str) -> tuple[str, ...]:
    """The interventions a product's name names ("Vroegconsult fysiotherapie": physiotherapy)."""
    return tuple(label for label, _, product in INTERVENTIONS if product.search(name))


def repeats_tried(product_name: str, tried: list[str]) -> bool:
    """Whether the product is an intervention the situation says was already done or tried."""
    return bool(tried) and bool(set(product_interventions(product_name)) & set(tried))
