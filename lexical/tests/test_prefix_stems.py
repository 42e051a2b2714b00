import pytest

from lexical.terms import prefix_stems


@pytest.mark.parametrize(("left", "right"), [
    ("klachten", "klacht"),
    ("angstklachten", "angst"),
    ("overspannen", "overspanning"),
    ("Conflicten", "conflict"),
])
def test_it_gives_inflected_and_compound_forms_a_shared_stem(left, right):
    assert prefix_stems(left) & prefix_stems(right)


def test_it_leaves_out_short_words_and_ignored_words():
    assert prefix_stems("de rug van de werknemer", ignore=frozenset({"werknemer"})) == set()
    assert prefix_stems("Rugpijn bij tillen") == {"rugpi", "tille"}
