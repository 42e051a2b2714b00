"""How long an employee has been absent, from a situation's words: "6 weken verzuim", "ruim een half jaar
ziek", "wk 38 AO", and the verzuimduur form field.

A duration counts as absence only when absence words stand around it and nothing says it is tenure, an
age, a time ahead or a negated absence; stage 0 (search.pipeline.context) reads the rest of the situation.
"""

import re

NUMBER_WORDS = {
    "een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7, "acht": 8,
    "negen": 9, "tien": 10, "elf": 11, "twaalf": 12, "dertien": 13, "veertien": 14, "vijftien": 15,
    "zestien": 16, "achttien": 18, "twintig": 20, "anderhalf": 1.5, "anderhalve": 1.5, "paar": 2, "enkele": 3,
    "half": 0.5, "halve": 0.5,
}
UNIT_WEEKS = {"dag": 1 / 7, "dagen": 1 / 7, "week": 1, "weken": 1, "maand": 4.345, "maanden": 4.345, "jaar": 52, "jaren": 52}
# How specialists abbreviate in a file note: "10 wkn AO", "4 mnd ziek", "2 jr", "3 dgn".
UNIT_WEEKS |= {"dg": 1 / 7, "dgn": 1 / 7, "wk": 1, "wkn": 1, "mnd": 4.345, "mndn": 4.345, "jr": 52}
_NUMBER = r"(?P<number>\d+(?:[.,]\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
DURATION = re.compile(
    rf"(?:(?P<approx>ruim|bijna|circa|ongeveer|zo'n|meer dan|langer dan|al)\s+)?(?:een\s+)?{_NUMBER}\s*(?P<unit>dagen|dag|dgn|dg|weken|week|wkn|wk|maanden|maand|mndn|mnd|jaren|jaar|jr)\b",
    re.IGNORECASE,
)
HALF_YEAR = re.compile(r"\b(?:een\s+)?half\s+jaar\b", re.IGNORECASE)
ABSENCE_CUES = re.compile(
    r"\b(ziek(?!enhuis|enfonds)\w*|zm|verzuim(?!protocol|beleid|regel|reglement|training|cijfer|percentage|registratie|aanpak|management|coach)\w*|thuis|uitgevallen|uitval|afwezig|arbeidsongeschikt\w*|uit de running|uit de roulatie|niet (?:meer )?(?:aan het )?werk(?:en)?|niet (?:meer )?gewerkt|werkt (?:nog )?(?:niets|helemaal niet|geen uur)"
    r"|gestopt met werken|ao|(?:dagen|weken|wkn|maanden|mnd|maand|week) uit (?:met|door|vanwege|ivm|wegens))\b",
    re.IGNORECASE,
)
# A duration is not an absence when the words right around it say it is tenure, age, a schedule or the past.
# "Over drie weken" or "binnen twee weken" is a time ahead; "twee weken geleden ziek gemeld" is when an absence
# began, "drie maanden terug van uitzending" when something else ended.
# "De tweede uitval in drie jaar" counts within a window, it is no absence of three years.
NOT_ABSENCE_BEFORE = re.compile(r"(werkt al|werkt|in dienst|sinds kort in|leeftijd van|\bover|\bbinnen|\bin)\s*$", re.IGNORECASE)
NOT_ABSENCE_AFTER = re.compile(
    r"^\s*(per\b|bij ons|in dienst|oud\b|(?:geleden|terug)(?!\s+(?:ziek\s*gemeld|ziekgemeld|uitgevallen))|contract|werkervaring|jarig)", re.IGNORECASE
)
# Longer than this a duration is an age or years of service ("Magazijnmedewerker, 58 jaar, ruim een jaar
# ziek"), not an absence: after two years the WIA decides, and the third year is a wage sanction at most.
MAX_ABSENCE_WEEKS = 156
# "Hij is niet ziek, maar zegt dat hij het nog hooguit twee jaar volhoudt": an absence word said to be absent
# does not make the duration beside it an absence.
NEGATED_ABSENCE = re.compile(
    r"\b(?:(?:is|zijn|was|nog|ook|helemaal|echt)\s+)*(?:niet|nooit|geen|niemand)\s+(?:(?:is|zijn|meer|nog|echt|ook)\s+)*"
    r"(?:ziek(?:gemeld|te|melding\w*)?|zm|verzuim\w*|ziekteverzuim|uitgevallen|uitval)\b",
    re.IGNORECASE,
)
# The week of absence as a case file states it ("Wk 38 AO", "week 8 ziekmelding", "Lasser, week 20"), when
# the text is about an absence or its re-integration steps; not a week ahead ("over/binnen/in week 52").
ABSENCE_WEEK = re.compile(r"(?<!over )(?<!binnen )\b(?:ziekte|verzuim)?(?:week|wk)\s*(?P<week>\d{1,3})\b(?!\s*(?:weken|wkn|uur|%))", re.IGNORECASE)
# A claim note counts days the same way: "ZM dg 4", "Dg 10 ZM" (the abbreviation only; "dag 3" is as often a course day).
ABSENCE_DAY = re.compile(r"\bdg\s*(?P<day>\d{1,3})\b(?!\s*(?:dagen|dgn|uur|%))", re.IGNORECASE)
CASE_FILE_CUES = re.compile(
    r"\b(ba|bedrijfsarts|probleemanalyse|pva|plan van aanpak|fml|ad|ad-rapport|arbeidsdeskundig\w*|spoor|eje|eerstejaars\w*"
    r"|wia\w*|re-?integratie\w*|opbouw\w*|ziekmelding"
    # "Suppoost, 63, wk 35, heupprothese": the abbreviated week is itself a file note's absence week
    r"|wk\s*\d{1,3}|dg\s*\d{1,3})\b",
    re.IGNORECASE,
)
# "Drie weken geleden viel hij van de steiger; sindsdien zit hij thuis", "na de overval van 2 maanden geleden
# nog steeds niet terug": the absence began with an event the text dates, so the event's age is the absence.
SINCE_DATED_EVENT = re.compile(
    r"\b(?:sindsdien|sinds die dag|sinds dat moment|vanaf dat moment|vanaf toen)\b[^.;?!]{0,30}?"
    r"\b(?:thuis|ziek\w*|zm|uitgevallen|afwezig|arbeidsongeschikt|niet (?:meer )?(?:aan het )?werk(?:en|t)?|niet (?:meer )?gewerkt)\b"
    r"|\bnog (?:steeds|altijd) niet (?:terug|aan het werk|aan 't werk|aan de slag)\b",
    re.IGNORECASE,
)
# How far after "N weken geleden" the words that make it the start of an absence may follow (the same or the next sentence).
SINCE_EVENT_WINDOW = 120
AGO = re.compile(r"\s*geleden\b", re.IGNORECASE)  # used with match(text, pos): anchored there


def format_weeks(weeks: float) -> str:
    """A number of weeks as a specialist says it: days, weeks, months or years."""
    if weeks < 1:
        return f"{max(1, round(weeks * 7))} dagen"
    if weeks < 13:
        return f"{round(weeks)} weken"
    months = round(weeks / 4.345)
    return f"{months} maanden" if months < 24 else f"{round(weeks / 52, 1):g} jaar"


def absence_duration(text: str) -> float | None:
    """Weeks of absence from the first duration the text names as one, or None."""
    for match in DURATION.finditer(text):
        if NOT_ABSENCE_BEFORE.search(text[max(0, match.start() - 20) : match.start()]):
            continue
        dated_event = AGO.match(text, match.end()) and SINCE_DATED_EVENT.search(text, match.end(), match.end() + SINCE_EVENT_WINDOW)
        if not dated_event and not _names_absence(text, match):
            continue
        weeks = weeks_of(match.group("number"), match.group("unit"))
        if weeks > MAX_ABSENCE_WEEKS:
            continue
        return weeks
    half_year = HALF_YEAR.search(text)
    if half_year and NOT_ABSENCE_BEFORE.search(text[max(0, half_year.start() - 20) : half_year.start()]):
        half_year = None  # "4x kort ZM in half jaar": the window the spells are counted in
    if half_year and ABSENCE_CUES.search(NEGATED_ABSENCE.sub(" ", text[max(0, half_year.start() - 45) : half_year.end() + 45])):
        return 26.0
    return None


def _names_absence(text: str, match: re.Match) -> bool:
    """Whether a duration is said of the absence itself (not "twee jaar geen verzuim gehad", not a contract's length)."""
    if NOT_ABSENCE_AFTER.search(text[match.end() : match.end() + 20]):
        return False
    if NEGATED_ABSENCE.match(text, match.end() + 1):
        return False  # "twee jaar geen verzuim gehad"
    return bool(ABSENCE_CUES.search(NEGATED_ABSENCE.sub(" ", text[max(0, match.start() - 45) : match.end() + 45])))


def absence_week(text: str) -> float | None:
    """The week (or day, in weeks) of absence a case-file note states, or None."""
    if not (ABSENCE_CUES.search(text) or CASE_FILE_CUES.search(text)):
        return None
    weeks = [float(m.group("week")) for m in ABSENCE_WEEK.finditer(text) if 1 <= int(m.group("week")) <= MAX_ABSENCE_WEEKS]
    weeks += [round(int(m.group("day")) / 7, 2) for m in ABSENCE_DAY.finditer(text) if 1 <= int(m.group("day")) <= 7 * MAX_ABSENCE_WEEKS]
    return max(weeks, default=None)


def weeks_of(number: str, unit: str) -> float:
    """A number (digits or a Dutch number word) of a unit, in weeks."""
    value = NUMBER_WORDS.get(number.lower())
    if value is None:
        value = float(number.replace(",", "."))
    return round(value * UNIT_WEEKS[unit.lower()], 2)


def parse_duration_field(value: str) -> float | None:
    """The verzuimduur form field: '6 weken', '3 maanden', '1 jaar', or a bare number of weeks."""
    value = value.strip().lower()
    if not value:
        return None
    if re.fullmatch(r"\d+(?:[.,]\d+)?", value):
        return float(value.replace(",", "."))
    match = DURATION.search(value)
    if match:
        return weeks_of(match.group("number"), match.group("unit"))
    if HALF_YEAR.search(value):
        return 26.0
    return None
