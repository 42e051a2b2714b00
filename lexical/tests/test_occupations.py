"""Which words name a trade or position (lexical.occupations)."""

import pytest

from lexical.occupations import is_trade


@pytest.mark.parametrize(
    ("word", "trade"),
    [
        ("dakdekkers", True),
        ("kapster", True),
        ("baliemedewerker", True),  # a trade as the head of a compound
        ("vrachtwagenchauffeur", True),
        ("mdw", True),
        ("werknemer", True),  # "medewerker" in other words
        ("kok", True),
        ("vakkenvullers", True),
        ("klantenservice", True),  # where someone works says as little
        ("publieksbalie", True),
        # a rare workplace would make every situation there alike: the sleepy offshore technician and the one with a sore shoulder
        ("offshore", True),
        ("windpark", True),
        ("containerterminal", True),
        ("gasplatform", True),
        ("ziekenhuis", True),
        ("basisschool", True),
        ("transportbedrijf", True),
        ("tandartspraktijk", True),
        ("supermarkten", True),
        ("gemeente", True),
        ("luchthaven", True),
        ("glastuinbouw", True),
        ("gevaren", False),  # "haven" only as the end of a place
        ("praktijkondersteuner", False),  # a workplace word at the start is no workplace
        ("tandartsassistente", True),
        ("wijkagent", True),
        ("onderhoudstechnicus", True),
        ("uitzendkracht", True),
        ("jeugdzorgwerker", True),
        ("schadebehandelaar", True),
        ("oktober", False),  # a short head only as a whole word
        ("veerkracht", False),  # resilience, not a worker
        ("thuiswerker", False),  # where the work is done, which matters for the workplace
        ("werker", False),  # on its own the social worker of an intervention ("maatschappelijk werker")
        ("behandelaar", False),  # the one who treats
        ("arbeidsdeskundige", False),  # the professionals of the interventions count fully
        ("bedrijfsarts", False),
        ("rugklachten", False),
        ("hitte", False),
    ],
)
def test_it_tells_a_trade_from_what_is_the_matter(word, trade):
    assert is_trade(word) is trade
