"""A misspelt word is searched as the word of our texts it was meant to be; a real word never is."""

import pytest

from lexical.typos import typo_corrections, typos_corrected


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "corrections"),
    [
        ("ik ben zwnager en werk achter de bar", {"zwnager": "zwanger"}),  # a letter swapped
        ("er is loonbelsag gelegd", {"loonbelsag": "loonbeslag"}),
        ("draait nachtdiensen voor het uitzendbureau", {"nachtdiensen": "nachtdiensten"}),  # a letter left out
        ("mijn werkegever zegt van niet", {"werkegever": "werkgever"}),  # a letter too many
        ("tillen van clienten en patienten", {"clienten": "cliënten", "patienten": "patiënten"}),  # the trema left out
        # Real Dutch words our texts lack, English words and unknown compounds stay as typed.
        ("niemand is gevallen", {}),
        ("werkt in de retail en heeft een stent", {}),
        ("orderpicker met nekklachten", {}),
        ("veels te zwaar", {}),  # "deels" is one keystroke away, but not at the first letter
        ("rug", {}),  # too short to guess
    ],
)
def test_it_corrects_typing_errors_and_nothing_else(text, corrections):
    assert typo_corrections(text) == corrections


def test_it_replaces_whole_words_only():
    assert typos_corrected("Zwnager, 20 weken; zwnagerschap", {"zwnager": "zwanger"}) == "zwanger, 20 weken; zwnagerschap"


@pytest.mark.django_db
def test_it_searches_the_corrected_words_and_shows_what_it_corrected():
    from search.answers import guideline_answer
    from search.pipeline.request import SearchRequest
    from search.pipeline.run import search_run

    outcome = search_run(SearchRequest(query="medewerkster is 20 weken zwnager en werkt nachtdiensten", top_k=3))
    assert outcome.query == "medewerkster is 20 weken zwnager en werkt nachtdiensten"  # as typed
    assert outcome.retrieval["spelling"] == {"zwnager": "zwanger"}
    assert "een zwangerschap" in outcome.context.occasions
    assert "Zwangerschapsconsult werkplek" in [item.product.name for item in outcome.recommendations]
    answer = guideline_answer("Mag een zwnager medewerkster nachtdiensten draaien?", generate=False)
    assert answer.spelling == {"zwnager": "zwanger"}
    assert answer.citations
