"""The thesauri try only entries whose phrases begin where a word of the text begins, and find exactly
what trying every entry finds; the catalog thesaurus also tells how many health and work matters a text names."""

import json

import pytest

from lexical.thesaurus import (
    CATALOG_THESAURUS,
    LEGAL_THESAURUS,
    OUTSIDE_TOPICS,
    Thesaurus,
    domain_entries_named,
    with_contractions_spelled,
)


def _every_entry(thesaurus: Thesaurus, text: str) -> tuple[str, ...]:
    text = with_contractions_spelled(text)
    return tuple(value for pattern, value in thesaurus.entries if pattern.search(text))


TEXTS = [
    "Medewerker gokt en heeft geldproblemen",
    "GELDPROBLEMEN EN GOKKEN",
    "Wie wijst de casemanager aan? Wat hoort in het verzuimdossier?",
    "(verzuimdossier) en 'casemanager'",
    "Hoe vaak mag iemand 's nachts werken bij een bereikbaarheidsdienst",
    "Is de wc op de bouwplaats verplicht",
    "rugklachten;nekklachten,overgangsklachten",
    "burn-out, RSI en PTSS na een overval",
    "",
    "x",
    "supergokker zonder geldproblemenachtige woorden",
    "loopt op z'n tandvlees en m'n collega ook",
]


@pytest.mark.parametrize("thesaurus", [CATALOG_THESAURUS, LEGAL_THESAURUS, OUTSIDE_TOPICS], ids=["catalog", "legal", "outside"])
@pytest.mark.parametrize("text", TEXTS)
def test_it_finds_what_trying_every_entry_finds(thesaurus, text):
    assert thesaurus.additions(text) == _every_entry(thesaurus, text)


def test_it_matches_each_phrase_at_the_start_of_a_word_only(tmp_path):
    path = tmp_path / "thesaurus.json"
    path.write_text(json.dumps([
        {"match": ["gok"], "add": "gokverslaving"},
        {"match": ["wc", "'s nachts"], "add": "toilet nachtarbeid"},
        {"match": ["Schulden"], "add": "schuldhulp"},
    ]), encoding="utf-8")
    thesaurus = Thesaurus(path)
    assert thesaurus.additions("Hij gokt") == ("gokverslaving",)
    assert thesaurus.additions("Hij vergokt") == ()  # not at a word start
    assert thesaurus.additions("werkt 's nachts") == ("toilet nachtarbeid",)
    assert thesaurus.additions("geen WC.") == ("toilet nachtarbeid",)
    assert thesaurus.additions("SCHULDEN en gokken") == ("gokverslaving", "schuldhulp")  # in the file's order


def test_it_adds_nothing_for_an_entry_whose_unless_phrase_the_text_names(tmp_path):
    path = tmp_path / "thesaurus.json"
    path.write_text(json.dumps([{"match": ["weigert"], "unless": ["helm", "veiligheidsbril"], "add": "loonopschorting"}]), encoding="utf-8")
    thesaurus = Thesaurus(path)
    assert thesaurus.additions("Zieke werknemer weigert passend werk") == ("loonopschorting",)
    assert thesaurus.additions("Timmerman weigert zijn helm op te zetten") == ()
    assert thesaurus.additions("weigert de Veiligheidsbril") == ()


def test_it_reads_refusing_protective_equipment_as_no_refusal_to_recover():
    assert "weigeren loonstop loonopschorting re-integratie" in CATALOG_THESAURUS.additions("werknemer weigert mee te werken aan zijn re-integratie")
    assert "weigeren loonstop loonopschorting re-integratie" not in CATALOG_THESAURUS.additions("werknemer weigert helm dragen")


def test_it_lets_a_hyphen_in_a_phrase_also_be_a_space_or_nothing(tmp_path):
    path = tmp_path / "thesaurus.json"
    path.write_text(json.dumps([{"match": ["15-jarige"], "add": "jeugdige kinderarbeid"}]), encoding="utf-8")
    thesaurus = Thesaurus(path)
    for text in ("een 15-jarige", "15 jarige zaterdagbaantje", "mijn 15jarige neef"):
        assert thesaurus.additions(text) == ("jeugdige kinderarbeid",)
    assert thesaurus.additions("15 januari") == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AD onderzoek", True),
        ("het AD-rapport is binnen", True),
        ("advies nodig over ad hoc verzuim", False),  # "ad" alone is no abbreviation of the labour expert
        ("adres van de werkgever", False),
    ],
)
def test_it_reads_ad_as_the_labour_expert_only_in_its_own_phrases(text, expected):
    assert _adds(text, "arbeidsdeskundig") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("spit gisteren", True),  # lumbago, the lay word for acute low back pain
        ("last van spit sinds maandag", True),
        ("spitsuur in de ochtend", False),
    ],
)
def test_it_reads_spit_as_low_back_pain_not_rush_hour(text, expected):
    assert _adds(text, "rugpijn") == expected


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("Er kwam weer een loonbeslag binnen, hij vergeet dingen en ik maak me zorgen", 3),
        ("Ik wil weten welke winterbanden het beste zijn voor onze bestelbussen", 0),
        ("Wat is de hoofdstad van Frankrijk?", 0),
    ],
)
def test_it_counts_the_health_and_work_matters_a_text_names(text, entries):
    assert domain_entries_named(text) == entries


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("loopt leeg", True),  # exhausted, as a manager types it
        ("ze zegt dat ze helemaal leeg loopt", False),  # only the phrase as written counts
        ("komt niet uit bed, ziet overal tegenop", False),  # low mood, another entry
    ],
)
def test_it_reads_running_empty_as_fatigue(text, expected):
    assert _adds(text, "vermoeidheid") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("klanten aan de telefoon worden steeds grover", True),
        ("bezoekers die schelden en onbeschoft zijn", True),
        ("schreeuwende ouders aan de balie", True),
        ("grof vuil ophalen", False),
    ],
)
def test_it_reads_rude_and_abusive_customers_as_aggression(text, expected):
    assert _adds(text, "agressie") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("leerkracht raakt aan het eind van de dag haar stem kwijt", True),
        ("stemklachten leerkracht", True),
        ("callcenter medewerker met heesheid, logopedie gestart", True),
        ("de stemming in het team is slecht", False),
    ],
)
def test_it_reads_voice_problems_as_possibly_work_related(text, expected):
    assert _adds(text, "beroepsziekte") == expected


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("kok komt steeds vaker met een alcoholkegel binnen", "alcohol"),
        ("monteur komt met een alcohollucht binnen", "alcohol"),
        ("machinist ligt elke nacht uren wakker", "slaapproblemen"),
        ("medewerker heeft er geen zin meer in", "motivatie"),
    ],
)
def test_it_reads_everyday_words_for_drink_sleeplessness_and_lost_motivation(text, word):
    assert _adds(text, word)


def _adds(text: str, word: str) -> bool:
    """Whether the catalog thesaurus adds a phrase with this word for the text."""
    return any(word in added for added in CATALOG_THESAURUS.additions(text))


@pytest.mark.parametrize("text", ["Hij drinkt te veel in het weekend", "De chef vermoedt dat hij in het weekend te veel drinkt"])
def test_it_reads_drinking_too_much_in_either_word_order(text):
    assert any("alcohol" in added or "verslaving" in added for added in CATALOG_THESAURUS.additions(text))


@pytest.mark.parametrize(
    ("typed", "spelled"),
    [
        ("loopt op z'n tandvlees", "loopt op zijn tandvlees"),
        ("zn baas en m'n collega", "zijn baas en mijn collega"),
        ("d'r man belt 't werk", "haar man belt het werk"),
        ("zon en mnd blijven staan", "zon en mnd blijven staan"),
    ],
)
def test_it_spells_out_spoken_contractions(typed, spelled):
    assert with_contractions_spelled(typed) == spelled


def test_it_reads_a_phrase_typed_with_a_contraction_as_written_out():
    assert _adds("loopt op z'n tandvlees", "overspannenheid")


@pytest.mark.parametrize(
    "text",
    [
        "twee ploegleiders liggen al maanden met elkaar overhoop",
        "twee bakkers praten al weken niet meer met elkaar",
        "de rest van de keuken begint partij te kiezen",
    ],
)
def test_it_reads_colleagues_who_no_longer_speak_or_take_sides_as_a_conflict(text):
    assert _adds(text, "conflict")
