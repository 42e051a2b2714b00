"""Stage 0: read the situation from Dutch free text plus optional form fields.

Rule tables rather than a model: the phrasings specialists use for durations, roles and intent
are few and stable, the rules are explainable in the reasoning shown to the user, and they cost
microseconds. Form fields always win over what the free text suggests.
"""

import re
from dataclasses import asdict, dataclass, field

from search.pipeline.absence_duration import (
    ABSENCE_CUES,
    NEGATED_ABSENCE,
    absence_duration,
    absence_week,
    format_weeks,
    parse_duration_field,
)
from search.pipeline.body_regions import body_regions_named
from search.pipeline.budget import budget_from_field, budget_from_text, format_eur
from search.pipeline.conflict import conflict_escalated, conflict_named
from search.pipeline.prerequisites import RELATIVES, occasions_named
from search.pipeline.roles import ROLE_PATTERNS, SECTOR_PATTERNS, tags_named
from search.pipeline.tried_interventions import interventions_tried

WORKING_CUES = re.compile(
    r"\b(werkt nog(?!\s+(?:niets|niet|geen|helemaal niet)\b)|nog aan het werk|nog aan 't werk|aan het werk|werkt (?:door|met pijn|nog maar)|nog niet (?:ziek|uitgevallen|zm)|niet ziek|geen zm"
    r"|(?:nog )?niemand (?:is )?(?:nog )?(?:ziek|uitgevallen)|(?:nog )?geen (?:verzuim|ziekteverzuim|ziekmelding|uitval)\b|dreigt uit te vallen|dreigend\w* (?:verzuim|uitval|ziekteverzuim)"
    r"|werkt (?:(?:hij|ze|zij) )?(?:weer|gewoon|nog steeds)|blijven werken|is\b[^.;?!]{0,15}?\bterug (?:op|in|bij|aan)"
    r"|loopt op zijn tandvlees|loopt op haar tandvlees)\b",
    re.IGNORECASE,
)
# Fully back at work after an absence ("sinds 3 weken weer volledig aan het werk", "werkt sinds kort weer
# volledig", "is na negen maanden verzuim weer volledig aan het werk"): the absence it names is over; the question is about staying at work.
BACK_AT_WORK = re.compile(
    r"\b(?:is|zijn|sinds\b[^.;?!]{0,15}?|inmiddels|nu(?:\s+(?:al\s+)?\w+\s+(?:dagen|weken|wkn|wk|maanden|maand|mnd))?|alweer|(?:is|zijn)\s+na\b[^.;?!]{0,50}?)\s+(?:weer|terug)\s+(?:volledig\s+|helemaal\s+|fulltime\s+|voltijds?\s+|100\s?%\s+|voor (?:de )?volle? 100\s?%\s+)?(?:aan het werk|aan 't werk|op het werk)\b"
    r"|\bwerkt\b[^.;?!]{0,50}?\bweer\s+(?:volledig|helemaal|fulltime|voltijds?|al zijn uren|al haar uren|100\s?%)|\b(?:hersteld|beter)\s*gemeld\b"
    # a file note's word for it, now: "sinds 3 wk volledig hervat in eigen functie" (not "vorig jaar … en volledig hervat")
    r"|\b(?:sinds\b[^.;?!]{0,15}?|is|zijn|inmiddels|nu)\s+(?:volledig|helemaal|fulltime|voltijds?|100\s?%)\s+(?:werk\s+)?hervat\b"
    # just back: "is net terug na drie weken griep", "is sinds kort terug van zijn ziekteverlof"
    r"|\b(?:is|zijn)\s+(?:net|pas|sinds kort|onlangs|kortgeleden)\s+(?:weer\s+)?terug\s+(?:na|van|op|in|aan|bij)\b",
    re.IGNORECASE,
)
# Working at home is no absence at home: "ik werk sinds twee jaar vrijwel volledig thuis aan de keukentafel".
WORKING_FROM_HOME = re.compile(
    r"(?:\bik\s+werk|\bwerk(?:t|en))\s+(?:(?!ziek|of\b|en\b)\w+\s+){0,5}?thuis\b(?!\s+(?:door|met|vanwege|wegens|ziek))|\bthuis\s+(?:aan\s+(?:de|het|mijn|zijn|haar)\s+\w*tafel|achter\s+(?:de|mijn|zijn|haar)\s+(?:laptop|computer|pc))\b",
    re.IGNORECASE,
)
# A relative's illness is not the employee's absence: "zieke partner", "zijn vrouw is ernstig ziek".
RELATIVE_ILLNESS = re.compile(
    rf"\b(?:(?:ernstig|terminaal|chronisch|ongeneeslijk)\s+)?zieke\s+(?:\w+\s+)?{RELATIVES}\b"
    rf"|\b(?:zijn|haar|hun|de)\s+{RELATIVES}\s+(?:is|werd|wordt|raakte)\s+(?:\w+\s+)?ziek\b",
    re.IGNORECASE,
)
# A share of the hours is a partial return; 100 % is all of them.
PARTIAL_RETURN = re.compile(r"\b(gedeeltelijk\w*|deels|halve dagen|parttime|opbouw\w*|therapeutisch\w*|\d+\s*(?:uur|uren)|(?!100\b)\d+\s*%)", re.IGNORECASE)
# Absence as part of a group's picture: several colleagues off sick, "de derde dit jaar", a trade in the
# plural with much absence. The question is then about the team or the organisation, not about one absent
# employee (a work-pressure analysis, team coaching); so are several incidents or reports. "Twee collega's
# hebben ruzie, een van hen is ziek" is one absent employee.
# Trades whose plural does not end like the ones above ("twee koks overspannen thuis").
TRADE_PLURALS = r"koks|obers|juffen|elektriciens|caissi[eè]res|secretaresses|timmerlieden|agenten|artsen|coassistenten"
GROUP_ABSENCE = re.compile(
    r"\b(?:twee|drie|vier|vijf|zes|\d+|meerdere|verschillende|steeds meer|een paar|enkele)\s+(?:\w+\s+)?"
    r"(?:mensen|medewerkers|werknemers|mdw|mdws|collega's|\w{3,}(?:ers|eurs|ors|isten|kundigen|nten|krachten|enden)|" + TRADE_PLURALS + r")\b(?:(?!een van)[^.;?!]){0,40}?"
    r"\b(?:ziek\w*|thuis|uitgevallen|verzuim\w*|overspannen)"
    r"|\bde (?:tweede|derde|vierde|vijfde|zoveelste)\b[^.;?!]{0,20}?\b(?:dit jaar|binnen|in korte tijd|op rij)"
    r"|\b(?:zitten|zijn|waren|vielen)\s+er\s+(?:al\s+|nu\s+|inmiddels\s+)?(?:\d+|twee|drie|vier|vijf)\s+(?:thuis|ziek\w*|uitgevallen|uit)\b"
    r"|\b(?:twee|drie|vier|vijf|\d+|meerdere|verschillende|steeds meer)\s+(?:\w+\s+)?(?:incidenten|ongevallen|meldingen)\b"
    r"|\b(?:mensen|medewerkers|werknemers|\w{3,}(?:ers|eurs|ors|isten|kundigen|nten|krachten|enden))\s+(?:\w+\s+){0,4}?(?:veel|vaak|meer)\s+(?:\w+\s+){0,3}?(?:verzuim|ziek\w*)",
    re.IGNORECASE,
)
# "Hoe krijgen we hem weer aan het werk?" names the goal, not the present: such a person is absent.
BACK_TO_WORK_GOAL = re.compile(
    r"\b(?:(?:weer |terug )?aan het werk\s+(?:te\s+)?(?:krijgen|helpen|begeleiden)|(?:krijgen|helpen|begeleiden)\b[^.;?!]{0,30}?\baan het werk"
    # a wish: "wil rustig weer aan het werk", "wil graag terug aan het werk"
    r"|(?:wil|wilt|willen|hoopt|hopen)\s+(?:\w+\s+){0,2}?(?:weer|terug)\s+(?:\w+\s+)?aan het werk)\b",
    re.IGNORECASE,
)
# "Dreigen" is preventive only about health or absence ("dreigt uit te vallen", "dreigend verzuim"), not
# in "de werknemer dreigt een deskundigenoordeel aan te vragen".
PREVENTIVE_CUES = re.compile(
    r"\b(voorkomen|preventie\w*|preventief|voorkomen dat|risico\w*|vitaliteit|fitter|gezonder|bewustwording|ri&e|beleid|opbrandt|opbranden"
    r"|weerbaar\w*|voor(?:te)?bereiden|(?:leren|leert)\s+(?:mee\s+)?omgaan"
    r"|dreigt (?:uit te vallen|ziek te worden|te verzuimen|overspannen te raken|op te branden|vast te lopen)"
    r"|dreigend\w* (?:verzuim|uitval|ziekteverzuim|burn-?out|overspanning)"
    # "wil leren haar grenzen aan te geven voordat ze net als haar collega een burn-out krijgt"
    r"|voordat\s+(?:ze|zij|hij|het|ik|we|iemand)\b[^.;?!]{0,40}?\b(?:burn-?out|overspannen|uitval\w*|uitvalt|ziek wordt|ziek worden|instort\w*|omvalt))\b",
    re.IGNORECASE,
)
SHORT_CUES = re.compile(
    r"\b(net ziek\w*|pas ziek\w*|kort verzuim|kortdurend\w*|korte termijn|sinds kort ziek|vandaag ziek\w*|sinds gisteren ziek\w*|eerste ziektedag|zojuist ziek\w*|net uitgevallen)\b",
    re.IGNORECASE,
)
LONG_CUES = re.compile(r"\b(langdurig\w*|langdurend\w*|lange termijn|langere termijn|lang verzuim|lange tijd ziek|lang ziek|chronisch)\b", re.IGNORECASE)
# Milestones of the Wet verbetering poortwachter date an absence the text gives no duration for: the
# first-year evaluation is around week 52, the re-integration report and WIA application around week
# 91, an imposed wage sanction or a WGA/Ziektewet own-risk question comes after week 104. First match wins.
MILESTONE_WEEKS = (
    (re.compile(r"\b(eerstejaarsevaluatie|eerste ziektejaar|opschudmoment|(?:2e|tweede|3e|derde) spoor|spoor (?:2|twee|3|drie))\b", re.IGNORECASE), 52.0),
    (
        re.compile(
            r"\b(re-?integratieverslag|reïntegratieverslag|wia-?aanvraag|wia aan(?:te)?vragen|tweede ziektejaar"
            r"|einde (?:van )?de wachttijd|loonsanctie dreigt|dreigende loonsanctie|(?:vrezen|riskeren) (?:een )?loonsanctie)\b",
            re.IGNORECASE,
        ),
        91.0,
    ),
    (re.compile(r"\b(loonsanctie|derde ziektejaar|wga\w*|eigenrisicodrager\w*|wia-?uitkering|iva-?uitkering)\b", re.IGNORECASE), 104.0),
)
# Frequent short absences are a pattern of their own (the company doctor's consultation hour, a talk
# about the pattern), not one long absence.
FREQUENT_CUES = re.compile(
    r"\b(frequent\w*\s+(?:kort\s+)?(?:verzuim|ziek\w*|afwezig\w*)|(?<!niet )(?<!zelden )(?:vaak|vaker|regelmatig|telkens|steeds weer) (?:\w+ ){0,3}?ziek\w*"
    r"|(?:tweede|derde|vierde|vijfde|zesde|zoveelste|\d+e) keer (?:\w+ ){0,4}?ziek\w*|\w+ keer per (?:maand|kwartaal|jaar) ziek\w*"
    r"|(?:drie|vier|vijf|zes|zeven|acht|negen|tien|[3-9]|\d{2}) keer (?:\w+ ){0,3}?ziek\w*"
    r"|steeds (?:weer )?ziek\w*|veel kort verzuim|(?:vaak|regelmatig) kort verzuim\w*|vaak afwezig"
    # "alweer 5e ziekmelding dit jaar", "steeds op maandag": the count or the weekday makes the pattern
    r"|(?:tweede|derde|vierde|vijfde|zesde|zevende|zoveelste|\d+e)\s+(?:ziekmelding|verzuimmelding|zm)\w*|(?:steeds|vaak|telkens|elke|iedere)\s+(?:op\s+)?(?:maandag|vrijdag)(?:en)?|maandag(?:verzuim|ziekte)\w*|vrijdagverzuim\w*"
    # a claim note counts the spells: "7 ZM in 12 mnd", "6x kortverzuim in 9 mnd"
    r"|(?:[3-9]|\d{2})\s*(?:x\s*|keer\s+)?(?:kort\w*\s+)?(?:zm|ziekmelding\w*|verzuimmelding\w*|kort\s*verzuim\w*)\s+(?:in|per|dit|afgelopen)\b)\b",
    re.IGNORECASE,
)
# With many short absences a duration of days is the length of each spell ("steeds een of twee dagen").
FREQUENT_SPELL_WEEKS = 1.0
# Relapse, the fear of it, or being back at work after an absence: what relapse prevention is for.
RELAPSE_CUES = re.compile(
    r"\b(terugval\w*|teruggevallen|valt terug|weer uitgevallen|opnieuw uitgevallen|(?:weer|opnieuw) uit te vallen|recidief|herhaling"
    r"|(?:weer|terug) (?:volledig |helemaal |gedeeltelijk |\d+\s?% )?aan het werk|(?:is|komt)\b[^.;?!]{0,15}?\bterug (?:op|in|bij|aan|na)\b)\b",
    re.IGNORECASE,
)
# Help must come to the workplace: the specialist asks for someone to look on site, or the employee cannot
# use a screen (visually impaired). Nine judged situations by six writers keep an online workplace check
# out of their top 3 then.
ON_SITE_CUES = re.compile(
    r"\b(ter plekke|op locatie|op de werkplek (?:zelf )?(?:bekijken|beoordelen|kijken)|komt kijken|komen kijken|langskomen"
    r"|slechtziend\w*|blind\w*|visueel beperkt\w*|visuele beperking\w*|(?:zijn|haar) scherm niet (?:meer )?(?:goed )?(?:kan )?(?:lezen|zien)"
    # an eye disease, or a screen that cannot be read: "maculadegeneratie", "kan de schermen niet meer goed lezen"
    r"|maculadegeneratie|retinopathie|glaucoom|gezichtsvermogen|\bziet\s+(?:steeds\s+)?(?:slecht|slechter|weinig)\b|\bslecht\s+zien\b"
    r"|schermen?\b[^.;?!]{0,30}?\bniet\s+(?:meer\s+)?(?:goed\s+)?(?:lezen|zien)\b)",
    re.IGNORECASE,
)
URGENT_CUES = re.compile(r"\b(crisis\w*|acuut|acute|incident\w*|calamiteit\w*|noodsituatie|spoed\w*|direct hulp|meteen hulp)\b", re.IGNORECASE)
# "Uitval voorkomen" asks for prevention; the absence words in it do not mean someone is absent.
PREVENTING_ABSENCE = re.compile(
    r"\b(?:voorkomen\b[^.;?!]{0,25}?\b(?:uitval|verzuim|ziekte\w*)|(?:uitval|verzuim)\s+voorkomen)\b", re.IGNORECASE
)
SEVERITY_HIGH = re.compile(r"\b(ernstig\w*|zwaar|zware|volledig uitgevallen|crisis|suïcid\w*|instort\w*|helemaal op|totaal op|kan niet meer)\b", re.IGNORECASE)
SEVERITY_LOW = re.compile(r"\b(licht\w*|beginnend\w*|af en toe|soms|milde?)\b", re.IGNORECASE)

# "Jurist bij de afdeling Ruimte" names where one person works, not the department as the subject.
TEAM_SUBJECT = re.compile(
    r"(\bons (?:hele |voltallige |gehele )?team|\bhet (?:hele |voltallige |gehele )?team|\bteams\b|\b[a-zà-ÿ]{3,}teams?\b|(?<!\w bij de )(?<!\w van de )\bafdeling|(?<!zijn )(?<!haar )(?<!hun )collega's|medewerkers\b|\bpersoneel|werknemers\b|\b(?:zijn|haar|mijn|onze) mensen\b"
    # a group named by its trade in the plural: "Controleurs in het ov worden …", "onze buschauffeurs"
    r"|^\s*(?!anders\b)[a-zà-ÿ]{3,}(?:ers|eurs|ors|isten|kundigen|nten|krachten|enden)\b|\b(?:onze|alle|veel|de meeste)\s+[a-zà-ÿ]{3,}(?:ers|eurs|ors|isten|kundigen|nten|krachten|enden)\b)",
    re.IGNORECASE,
)
# Absence as a figure of the organisation ("stijgend verzuim", "regie op verzuim", "verzuim 8%"): a
# question about policy, not about someone who is absent.
ORGANISATION_ABSENCE = re.compile(
    r"\b(?:(?:regie|grip|zicht|sturing)\s+op\s+(?:het\s+)?verzuim|(?:hoog|hoge|stijgend\w*|oplopend\w*|groeiend\w*)\s+(?:\w+\s+)?verzuim"
    r"|verzuim(?:percentage|cijfers?)|verzuim\s+(?:van\s+|is\s+|ligt\s+op\s+)?\d+(?:[.,]\d+)?\s?%"
    r"|\d+(?:[.,]\d+)?\s?(?:%|procent)\s+(?:\w+\s+)?(?:ziekte)?verzuim"
    # with what kind of absence it is: "het kortdurend verzuim stijgt" is no one's short absence
    r"|(?:\b(?:kort|lang|psychisch|frequent)\w*\s+)?\bverzuim\b[^.;?!]{0,40}?\b(?:oplopen|oploopt|stijgen|stijgt|toenemen|toeneemt|groeien|groeit)\b"
    # the separable verbs in a main clause: "langdurig verzuim loopt op", "het verzuim neemt sterk toe"
    r"|\bverzuim\s+(?:loopt|liep|neemt|nam|gaat|ging)\s+(?:\w+\s+){0,2}?(?:op|toe|omhoog)\b"
    # the verb first: "bij onze distributiecentra stijgt het kortdurend verzuim al een jaar"
    r"|\b(?:stijgt|steeg|groeit|groeide|toeneemt)\s+(?:het\s+)?(?:\w+\s+)?(?:ziekte)?verzuim\b"
    # "we zien steeds meer langdurig verzuim door …": more absence is a trend, not one absence
    r"|\b(?:steeds\s+meer|(?:veel\s+)?meer|toenemend\w*)\s+(?:\w+\s+)?(?:ziekte)?verzuim\b"
    r"|\b(?:een|elke|iedere)\s+zieke\s+\w+|\b(?:over|bij|rond)\s+(?:het\s+|hoe\s+)?ziekmeld\w*|\b(?:veel|steeds meer|meer)\s+ziekmeldingen\b"
    r"|verzuim\s+in\s+(?:ons|onze|de|het|alle)\s+(?:\w+\s+)?(?:bedrijf|organisatie|vestiging\w*|afdeling\w*|teams?|verpleeghuis|school|winkel\w*))",
    re.IGNORECASE,
)
ORGANISATION_SUBJECT = re.compile(
    r"\b(ri&e|risico-inventarisatie|verzuimbeleid|beleid|werkgever wil|onze organisatie|het bedrijf|bhv|arbobeleid"
    r"|\d+\s+(?:vaste\s+|flexibele\s+)?(?:man|fte|medewerkers|werknemers|mdw|krachten|personeelsleden)\b(?!\s+(?:ziek|thuis|uitgevallen)))\b",
    re.IGNORECASE,
)
INDIVIDUAL_CUES = re.compile(
    r"(medewerk|werknemer|collega|\b(hij|zij|ze|haar|zijn|hem|ik|mijn|man|vrouw|vader|moeder)\b|\w+(ster|er)\b\s+(heeft|is|wil|kan|met|zit)"
    r"|\b(?:piekert|slaapt|huilt|voelt zich|klaagt over|mdwr?|mw)\b)",
    re.IGNORECASE,
)
# A legal or procedural question is the employer's, also while an employee is absent: an objection to a
# wage sanction, a settlement, dismissal, stopping pay, recovering costs from a liable third party.
EMPLOYER_QUESTION = re.compile(
    r"\b(bezwaar\w*|in beroep|beroep aantekenen|vaststellingsovereenkomst|transitievergoeding|ontslag\w*|arbeidsrecht\w*"
    r"|juridisch\w*|advocaat|(?:moeten|moet)\s+(?:we|wij|ik)\s+(?:dit|dat|het)\s+(?:melden|rapporteren)|\bdirectie\s+(?:wil|vraagt|ziet)|slapend dienstverband|aansprakelijk\w*|regres|loon\s+(?:stop\s*zetten|stopzetten|opschorten|stoppen)"
    r"|loonsanctie\b[^.;?!]{0,40}?\bopgelegd|(?:legt|leggen)\b[^.;?!]{0,80}?\bloonsanctie\b[^.;?!]{0,30}?\bop\b)",
    re.IGNORECASE,
)
# A manager named as someone else's ("haar teamleider", "conflict met zijn leidinggevende", "door de
# manager") is the other party, not the employee's role; "onze teamleider" is still the subject.
THIRD_PARTY_MANAGER = re.compile(
    r"\b(?:zijn|haar|hun|mijn|jouw|(?:met|tegen|door|bij|over|aan)\s+(?:de|zijn|haar|hun|een))\s+(?:nieuwe\s+|directe\s+|eigen\s+)?"
    r"(?:leidinggevende|teamleider|teamleidster|manager|afdelingshoofd|supervisor|baas|chef|directeur|directie|eigenaar|bestuurder)\b",
    re.IGNORECASE,
)
# The manager who asks, worries or notices is not whose situation it is: "Bedrijfsleider wil weten wat er aan de
# lijn moet veranderen", "Leidinggevende maakt zich zorgen" (unless the manager is the one to learn).
REPORTING_MANAGER = re.compile(
    r"\b(?:leidinggevende|teamleider|teamleidster|manager|bedrijfsleider|afdelingshoofd|directeur|directie|eigenaar|(?-i:LG|TL))\s+"
    r"(?:wil\s+(?:graag\s+|nu\s+|vooral\s+)?(?:weten|advies|hulp)|vraagt|vroeg|maakt\s+zich\s+(?:\w+\s+)?zorgen|belt|belde|merkt|signaleert|twijfelt"
    r"|zoekt\s+(?:advies|hulp)|heeft\s+(?:het\s+|een\s+)?vermoeden|vermoedt)\b",
    re.IGNORECASE,
)
MANAGER_AS_LEARNER = re.compile(
    r"\b(leidinggevende|teamleider|manager|leiding)\w*\s+(?:moet|wil|kan|zou)\s+(?:leren|weten(?!\s+(?:waar|wat|of|welke|wie|hoeveel))|beter)|\b(?:training|cursus)\s+(?:voor\s+)?(?:leidinggevende|managers?)",
    re.IGNORECASE,
)


@dataclass
class SituationContext:
    role: str = ""
    sector: str = ""
    absence_weeks: float | None = None
    absence_status: str = "onbekend"  # "verzuim", "aan het werk" or "onbekend"
    severity: str = "gemiddeld"  # "licht", "gemiddeld", "ernstig"
    preventive: bool = False
    subject: str = "werknemer"  # "werknemer", "leidinggevende", "team", "organisatie", or "onbekend"
    roles: list[str] = field(default_factory=list)
    urgent: bool = False  # a crisis or an incident: help that can start at once counts more
    absence_pattern: str = ""  # "frequent" (many short absences) or "terugval" (relapse), else ""
    budget_eur: int | None = None
    body_regions: list[str] = field(default_factory=list)  # search.pipeline.body_regions
    tried_interventions: list[str] = field(default_factory=list)  # search.pipeline.tried_interventions
    on_site_needed: bool = False  # help must come to the workplace (ON_SITE_CUES): online-only products fit badly
    occasions: list[str] = field(default_factory=list)  # a pregnancy, an accident, a language barrier (search.pipeline.prerequisites)
    conflict_escalated: bool = False  # lawyers, a failed mediation, both sides want to part (search.pipeline.conflict)
    conflict_named: bool = False  # any conflict or disagreement in the work relation (search.pipeline.conflict)

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def is_absent(self) -> bool:
        return self.absence_status == "verzuim"

    @property
    def names_a_matter(self) -> bool:
        """Whether the reading found anything of health, absence or work: an absence or a return, a body
        region, an occasion, a pattern of absences, a tried intervention, an escalated conflict, prevention,
        urgency or a severity."""
        return bool(
            self.absence_status != "onbekend"
            or self.body_regions
            or self.occasions
            or self.absence_pattern
            or self.tried_interventions
            or self.conflict_escalated
            or self.preventive
            or self.urgent
            or self.severity != "gemiddeld"
        )

    def summary(self) -> str:
        """Dutch one-liner for the reasoning and the UI."""
        parts = []
        if self.absence_weeks is not None:
            parts.append(f"{format_weeks(self.absence_weeks)} verzuim")
        elif self.absence_status == "aan het werk":
            parts.append("weer aan het werk" if self.absence_pattern == "terugval" else "nog aan het werk")
        elif self.absence_status == "verzuim":
            parts.append("verzuim (duur onbekend)")
        if self.role:
            parts.append(self.role)
        if self.sector:
            parts.append(f"sector {self.sector}")
        if self.preventive:
            parts.append("preventieve vraag")
        if self.severity != "gemiddeld":
            parts.append(f"ernst: {self.severity}")
        if self.urgent:
            parts.append("acuut")
        if self.absence_pattern == "frequent":
            parts.append("frequent verzuim")
        elif self.absence_pattern == "terugval" and self.absence_status != "aan het werk":
            parts.append("terugval")
        if self.budget_eur is not None:
            parts.append(f"budget {format_eur(self.budget_eur)}")
        if self.tried_interventions:
            parts.append(f"al ingezet: {', '.join(self.tried_interventions)}")
        return ", ".join(parts)


def context_extract(text: str, *, role: str = "", sector: str = "", duration: str = "", budget: str = "") -> SituationContext:
    """Parse the situation; explicit form fields (functie, sector, verzuimduur, budget) override the text."""
    context = SituationContext(budget_eur=budget_from_field(budget))
    if context.budget_eur is None:
        context.budget_eur = budget_from_text(text)
    about_others = THIRD_PARTY_MANAGER.sub(" ", text)
    if not MANAGER_AS_LEARNER.search(text):
        about_others = REPORTING_MANAGER.sub(" ", about_others)
    roles = tags_named(ROLE_PATTERNS, f"{role} {about_others}")
    if WORKING_FROM_HOME.search(text) and "thuiswerker" not in roles:
        roles.append("thuiswerker")  # "werkt deels thuis aan de keukentafel" (the pattern's phrasing is beyond a role pattern)
    context.roles = roles
    context.role = role.strip().lower() or (roles[0] if roles else "")
    sectors = tags_named(SECTOR_PATTERNS, f"{sector} {text}")
    context.sector = sector.strip().lower() or (sectors[0] if sectors else "")

    present = BACK_TO_WORK_GOAL.sub(" ", text)  # without the goal "weer aan het werk krijgen"
    preventing_absence = bool(PREVENTING_ABSENCE.search(text))
    # The organisation's absence figures, read once: no one's absence, no occasion to check on someone.
    without_organisation_absence = ORGANISATION_ABSENCE.sub(" ", text)
    organisation_absence = without_organisation_absence != text
    group_absence = bool(GROUP_ABSENCE.search(text))
    back_at_work = bool(BACK_AT_WORK.search(present)) and not PARTIAL_RETURN.search(text)
    with_negations = RELATIVE_ILLNESS.sub(" ", PREVENTING_ABSENCE.sub(" ", WORKING_FROM_HOME.sub(" ", without_organisation_absence)))
    absence_text = NEGATED_ABSENCE.sub(" ", with_negations)
    if FREQUENT_CUES.search(text):
        context.absence_pattern = "frequent"
    elif RELAPSE_CUES.search(present):
        context.absence_pattern = "terugval"
    context.urgent = bool(URGENT_CUES.search(text))
    context.body_regions = body_regions_named(text)
    context.tried_interventions = interventions_tried(text)
    context.on_site_needed = bool(ON_SITE_CUES.search(text))
    context.occasions = occasions_named(without_organisation_absence)
    context.conflict_escalated = conflict_escalated(text)
    context.conflict_named = conflict_named(text)
    weeks = parse_duration_field(duration) if duration else None
    if weeks is None:
        weeks = absence_duration(with_negations)
    if weeks is None:
        milestone = next((milestone for cue, milestone in MILESTONE_WEEKS if cue.search(absence_text)), None)
        # A stated week and a milestone: the later one ("2e spoor pas in wk 70 gestart", now a sanction).
        weeks = max((w for w in (absence_week(absence_text), milestone) if w is not None), default=None)
    working = bool(WORKING_CUES.search(present))
    frequent = context.absence_pattern == "frequent"
    if weeks is None and SHORT_CUES.search(absence_text) and not frequent:
        weeks = 1.0
    if weeks is None and LONG_CUES.search(absence_text) and ABSENCE_CUES.search(absence_text):
        weeks = 26.0
    if back_at_work and not duration:
        if weeks is not None or ABSENCE_CUES.search(absence_text):
            context.absence_pattern = context.absence_pattern or "terugval"  # back after an absence
        weeks, working = None, True  # the absence it names is over
    context.absence_weeks = weeks
    # A group's absence, or many short absences: nobody's absence of a known length now (status unknown).
    # A talk about the pattern, the company doctor's consultation hour or a manager's training fit, not a home visit.
    if group_absence and not duration:
        context.absence_weeks = None
    elif frequent and (weeks is None or (weeks < FREQUENT_SPELL_WEEKS and not duration)):
        # "Zes keer ziek gemeld, steeds een of twee dagen": the days are each spell's, not an absence now.
        context.absence_weeks = None
        if working:  # "… vaak op maandag. Op dit moment werkt ze gewoon"
            context.absence_status = "aan het werk"
    elif working and weeks is None:
        context.absence_status = "aan het werk"
    elif weeks is not None or (ABSENCE_CUES.search(absence_text) and not working):
        context.absence_status = "verzuim"

    context.preventive = (preventing_absence or bool(PREVENTIVE_CUES.search(text))) and not context.is_absent
    if SEVERITY_HIGH.search(text):
        context.severity = "ernstig"
    elif SEVERITY_LOW.search(text):
        context.severity = "licht"

    if MANAGER_AS_LEARNER.search(text):
        context.subject = "leidinggevende"
    elif EMPLOYER_QUESTION.search(text):
        context.subject = "organisatie"
    elif group_absence and not context.is_absent:
        context.subject = "team" if TEAM_SUBJECT.search(text) or not ORGANISATION_SUBJECT.search(text) else "organisatie"
    elif (ORGANISATION_SUBJECT.search(text) or organisation_absence) and not context.is_absent:
        context.subject = "organisatie"
    elif TEAM_SUBJECT.search(text) and not context.is_absent and not re.search(r"\b(medewerker|medewerkster|werknemer|werkneemster)\s+(?!van)", text, re.IGNORECASE):
        context.subject = "team"
    elif not roles and not context.is_absent and not INDIVIDUAL_CUES.search(text):
        context.subject = "onbekend"
    return context
