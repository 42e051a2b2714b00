import pytest

from search.pipeline.protected_groups import groups_named, named_groups_first, passage_groups
from search.pipeline.types import CitedChunk


def _passage(chunk_id: int, title: str, section: str) -> CitedChunk:
    return CitedChunk(chunk_id=chunk_id, document_title=title, source="", section=section, url="", score=0.5)


PREGNANT_LIFTING = _passage(
    1, "Arbeidsomstandighedenbesluit",
    "Hoofdstuk 5 – Fysieke belasting > Afdeling 3 – Bijzondere sectoren en bijzondere categorieën werknemers > "
    "§ 2 – Zwangere werknemers en werknemers tijdens de lactatie > Artikel 5.13a – Fysieke belasting",
)
LIFTING = _passage(2, "Arbeidsomstandighedenbesluit", "Hoofdstuk 5 – Fysieke belasting > Afdeling 1 – Algemene bepalingen > Artikel 5.2 – Inventarisatie en evaluatie")
YOUNG_SUPERVISION = _passage(3, "Arbeidsomstandighedenbesluit", "Hoofdstuk 1 – Definities en toepassingsgebied > Afdeling 8 – Jeugdigen > Artikel 1.37 – Deskundig toezicht")
CHILD_LABOUR = _passage(4, "Arbeidstijdenwet", "Hoofdstuk 3 – Het verbod van kinderarbeid > Artikel 3:2")


@pytest.mark.parametrize(
    ("question", "groups"),
    [
        ("zakken 25 kilo sjouwen hele dienst", set()),
        ("Een zwangere medewerkster staat in een lawaaiige productiehal", {"zwanger"}),
        ("Mag een medewerker tijdens haar werk kolven?", {"zwanger"}),
        ("ik ben 17 en sta in de afwas", {"jong"}),
        ("Mag een vakantiekracht van 16 jaar op de trekker?", {"jong"}),
        ("Mag mijn dochter van 13 bij de bakker helpen?", {"jong"}),
        ("Gelden de arboregels voor leerlingen van het roc?", {"jong"}),
        ("Een zwangere scholier met een bijbaan", {"zwanger", "jong"}),
        ("Een medewerker is 17 jaar bij ons in dienst en tilt veel", set()),
    ],
)
def test_it_reads_which_protected_group_a_question_is_about(question, groups):
    assert groups_named(question) == groups


def test_it_reads_a_passage_group_from_the_regulations_headings():
    assert passage_groups(PREGNANT_LIFTING) == {"zwanger"}
    assert passage_groups(YOUNG_SUPERVISION) == {"jong"}
    assert passage_groups(CHILD_LABOUR) == {"jong"}
    assert passage_groups(LIFTING) == frozenset()
    assert passage_groups(_passage(5, "NVAB Richtlijn Zwangerschap, postpartumperiode en werk", "3 Risico's in het werk")) == {"zwanger"}


def test_it_cites_a_groups_rule_after_the_general_one_when_the_question_does_not_name_the_group():
    ordered = named_groups_first([PREGNANT_LIFTING, YOUNG_SUPERVISION, LIFTING], "regels zwaar tillen magazijn")
    assert [p.chunk_id for p in ordered] == [2, 1, 3]


def test_it_keeps_a_groups_rule_first_when_the_question_names_the_group():
    ordered = named_groups_first([PREGNANT_LIFTING, LIFTING, YOUNG_SUPERVISION], "Hoeveel mag een zwangere medewerker tillen?")
    assert [p.chunk_id for p in ordered] == [1, 2, 3]  # the young workers' rule goes after: she is not named as young
    assert [p.chunk_id for p in named_groups_first([YOUNG_SUPERVISION, LIFTING], "ik ben 16, moet er iemand op me letten?")] == [3, 2]
