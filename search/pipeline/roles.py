"""Which roles and sectors a text names: the employee's trade or position ("magazijnmedewerker", "teamleider") and where
they work ("thuiszorg", "metaalfabriek"), in the labels the catalog's target roles and sectors are read with too."""

import functools
import re

ROLE_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "leidinggevende",
        r"leidinggevende|manager|management|teamleider|teamleidster|directeur|afdelingshoofd|supervisor|bedrijfsleider|ploegleider|voorman"
        # "leiding" also ends "begeleiding", "opleiding" and pipes ("waterleiding"): those are no managers
        r"|(?<!bege)(?<!op)(?<!water)(?<!gas)(?<!zuur)(?<!riool)leiding"
        r"|(?<!de )(?<!andere )\bbestuurder|dga\b|ceo\b|cto\b|cfo\b|gemeentesecretaris|zaakvoerder",
    ),
    ("chauffeur", r"chauffeur|vrachtwagen|heftruck|buschauffeur|koerier|bezorger|taxichauffeur"),
    ("zorgmedewerker", r"verpleegkundige|verzorgende|zorgmedewerker|verpleger|thuiszorg|ziekenhuis|\b(?<!andere )(?<!tweede )(?<!eigen )(?<!nieuwe )arts\b|artsen\b|doktersassistent"),
    ("klantenservice", r"klantenservice|callcenter|klantcontact|servicedesk"),
    ("thuiswerker", r"thuiswerk\w*|vanuit huis|hybride werk"),
    ("kantoorfunctie", r"kantoor\w*|administratie\w*|beeldscherm\w*|laptop|computerwerk|boekhoud\w*"),
    ("productiemedewerker", r"productie\w*|fabriek\w*|operator|magazijn\w*|orderpicker|lopende band"),
    (
        "fysiek zwaar werk",
        r"bouwvakker|stratenmaker|tillen|sjouwen|fysiek zwaar|zwaar werk|monteur|schoonmak\w*|timmerman|lasser|stukadoor|metselaar|dakdekker|hovenier|kapster|kapper"
        r"|glazenwasser|steigerbouw\w*|decorbouw\w*|podiumtechn\w*|toneeltechn\w*|verhuizer|loodgieter|installateur|elektricien|tegelzetter|sjorder|dokwerker"
        r"|bagagemedewerk\w*|vuilnisman|beladers?\b",
    ),
    ("docent", r"docent|leraar|lerares|leerkracht|onderwijzer"),
    ("winkelmedewerker", r"winkelmedewerk\w*|verkoopmedewerk\w*|verkoper|verkoopster|caissi[eè]re|kassamedewerk\w*|kassamdw|vakkenvull\w*"),
    # Short words whole: "koken" is no cook, "business" no bus.
    ("horecamedewerker", r"horecamedewerk\w*|kok\b|koks\b|kokkin\w*|ober\b|obers\b|serveerster|barmedewerk\w*|barman|afwasser|spoelkeuken"),
)
SECTOR_PATTERNS: tuple[tuple[str, str], ...] = (
    # "de zorg", "zorginstelling", not "maakt zich zorgen" or "zorgt voor"
    (
        "zorg",
        r"\bzorg\b|zorgsector|zorginstelling\w*|zorgorganisatie\w*|zorgmedewerk\w*|zorgverlen\w*|ouderenzorg|jeugdzorg|gehandicaptenzorg"
        r"|ziekenhuis|verpleeg\w*|verzorgingshuis\w*|thuiszorg|ggz",
    ),
    ("logistiek", r"magazijn\w*|logistiek\w*|distributiecentrum|heftruck|orderpicker"),
    ("transport", r"transport|chauffeur|\bbus(?!ines)\w*|vrachtwagen|openbaar vervoer|koerier"),
    ("bouw", r"bouw\w*|aannemer|installatie"),
    ("onderwijs", r"onderwijs|school|docent|leraar|leerkracht"),
    ("retail", r"winkel|retail|supermarkt|kassa|caissi[eè]re|vakkenvull\w*|verkoopster|verkoopmedewerk\w*"),
    ("overheid", r"gemeente|overheid|ministerie|provincie"),
    ("industrie", r"fabriek|productie|industrie|metaal\w*"),
    ("horeca", r"horeca|restaurant|hotel|kok\b|keuken(?!tafel)"),  # a kitchen table is at home
    ("kantoor", r"kantoor|administratie|klantenservice|callcenter|ict"),
)


COMPOUND_STEM_MIN = 6


@functools.lru_cache(maxsize=None)
def _compound_aware(pattern: str) -> re.Pattern:
    """Dutch glues words together (metaalfabriek, thuiszorgmedewerker): a long stem may also end or sit
    inside a compound, so it needs no word boundary; a short one does. (A search for `\\w*stem` finds
    the same texts, but tries every start of every word: it was the costliest part of reading a context.)"""
    return re.compile(
        "|".join(rf"(?:{alt})" if len(alt.replace("\\w*", "").replace("\\b", "")) >= COMPOUND_STEM_MIN else rf"\b(?:{alt})" for alt in pattern.split("|")),
        re.IGNORECASE,
    )


def tags_named(patterns: tuple[tuple[str, str], ...], text: str) -> list[str]:
    """The tags (ROLE_PATTERNS or SECTOR_PATTERNS) whose pattern the text names, in table order."""
    return [tag for tag, pattern in patterns if _compound_aware(pattern).search(text)]


@functools.lru_cache(maxsize=4096)
def catalog_tag_labels(tag: str, *, sector: bool) -> frozenset[str]:
    """A catalog tag with the role or sector labels a situation is read with ("openbaar vervoer" →
    transport, "magazijnmedewerker" → productiemedewerker), so a product tag and a situation meet in
    one vocabulary."""
    tag = tag.lower()
    return frozenset({tag, *tags_named(SECTOR_PATTERNS if sector else ROLE_PATTERNS, tag)})
