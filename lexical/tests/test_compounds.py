import threading

import pytest

from lexical.compounds import Decompounder, words_of

VOCABULARY = {
    "rug", "nek", "schouder", "klachten", "thuis", "werk", "werkplek", "plek", "werkdruk", "druk", "analyse",
    "overgang", "verzuim", "beleid", "verslaving", "arbeid", "ongeval", "pijn", "komen", "zoek", "belasting",
    "moe", "ten", "zit", "inzet", "hoe", "veel", "met", "een",
}

COMPOUNDS = [
    ("rugklachten", {"rug", "klachten"}),
    ("nekklachten", {"nek", "klachten"}),
    ("schouderklachten", {"schouder", "klachten"}),
    ("thuiswerkplek", {"thuis", "werkplek"}),
    ("werkdrukanalyse", {"werkdruk", "analyse"}),
    ("overgangsklachten", {"overgang", "klachten"}),  # linking -s-
    ("verzuimbeleid", {"verzuim", "beleid"}),
    ("gokverslaving", {"verslaving"}),  # unknown modifier, long known head
    ("arbeidsongeval", {"arbeid", "ongeval"}),
    ("rugpijn", {"rug", "pijn"}),
]


@pytest.mark.parametrize(("word", "parts"), COMPOUNDS)
def test_it_splits_dutch_compounds_into_words_of_the_vocabulary(word, parts):
    assert set(Decompounder(VOCABULARY).parts(word)) == parts


@pytest.mark.parametrize("word", ["voorkomen", "onderzoek", "overbelasting", "klachten", "werknemer", "appeltaart"])
def test_it_leaves_simple_words_and_particle_verbs_whole(word):
    assert Decompounder(VOCABULARY).parts(word) == ()


@pytest.mark.parametrize("word", ["moeten", "zitten", "inzetten", "hoeveel", "meteen"])
def test_it_never_splits_off_a_function_word(word):
    # "moeten" is not "moe" (tired) + "ten", though both are words of the texts
    assert Decompounder(VOCABULARY).parts(word) == ()


def test_it_keeps_hyphenated_words_whole_and_splits_their_pieces():
    assert words_of("Burn-out en rugklachten") == ["burn-out", "en", "rugklachten"]
    assert set(Decompounder(VOCABULARY).parts("nek-schouderklachten")) == {"schouder", "klachten"}


@pytest.mark.django_db
def test_it_builds_its_vocabulary_from_the_catalog_and_wijzer():
    from lexical.vocabulary import decompounder, vocabulary_clear

    vocabulary_clear()
    splitter = decompounder()
    assert {"rug", "klachten"} <= set(splitter.parts("rugklachten"))
    assert {"angst", "klachten"} <= set(splitter.parts("angstklachten"))


@pytest.mark.django_db
def test_it_refreshes_an_old_vocabulary_in_the_background_and_keeps_serving_the_old_one(monkeypatch):
    from lexical import vocabulary

    vocabulary.vocabulary_clear()
    first = vocabulary.decompounder()
    monkeypatch.setitem(vocabulary._state, "loaded_at", 0.0)  # as if loaded long ago
    assert vocabulary.decompounder() is first  # no search waits for the reload
    vocabulary.vocabulary_refresh_wait(timeout=30)
    fresh = vocabulary.decompounder()
    assert fresh is not first and {"rug", "klachten"} <= set(fresh.parts("rugklachten"))


@pytest.mark.django_db
def test_it_never_installs_a_refresh_that_began_before_the_vocabulary_was_cleared():
    from lexical import vocabulary

    vocabulary.vocabulary_clear()
    current = vocabulary.decompounder()
    began_at = vocabulary._state["generation"]
    vocabulary.vocabulary_clear()  # an index changed in this process while the refresh ran
    replacement = vocabulary.decompounder()
    late = threading.Thread(target=vocabulary._refresh, args=(began_at,))  # as the background refresh runs
    late.start()
    late.join(timeout=30)
    assert vocabulary.decompounder() is replacement is not current


def test_it_knows_the_hyphenated_words_of_the_texts_by_their_joined_spelling():
    splitter = Decompounder(VOCABULARY | {"burn-out", "re-integratie", "psa-scan"})
    assert splitter.hyphenated == {"burnout": ("burn-out",), "reintegratie": ("re-integratie",), "psascan": ("psa-scan",)}
    assert "burn-out" not in splitter.vocabulary  # never a compound part


@pytest.mark.django_db
def test_it_matches_a_joined_spelling_to_the_hyphenated_word_our_texts_use():
    from lexical.terms import query_terms

    # The demo catalog writes "Burn-out preventie workshop"; specialists type "burnout".
    terms = query_terms("burnout preventie")
    assert dict(zip(terms.words, terms.weights))["burn-out"] == 1.0
