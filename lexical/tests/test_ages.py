import pytest

from lexical.ages import ages_named, with_ages_spelled


@pytest.mark.parametrize(
    ("text", "ages"),
    [
        ("Ik ben 16 en zit op het mbo", [16]),
        ("ik ben pas 15 jaar en werk in de bediening", [15]),
        ("Mag mijn dochter van 13 op zaterdag helpen?", [13]),
        ("mag de zoon van de buren (16) als bijbaantje werken?", [16]),
        ("Onze uitzendkracht is 17 en gaat in de productiehal werken", [17]),
        ("We hebben een BBL-leerling van 17 in de werkplaats", [17]),
        ("Mijn neefje van 15 wil komen helpen", [15]),
        ("13 jarige vakkenvuller toegestaan?", [13]),
        ("werknemer (16 jaar) met astma", [16]),
        ("medewerkster van 17 jaar met astma", [17]),
        ("mijn zoon is 15 jaar oud", [15]),
        ("Een zaterdaghulp van 16 in onze bakkerij", [16]),
        ("Mag een vakantiekracht van 16 jaar bij ons op de trekker?", [16]),
        # adults, hours, weeks and years of service are no age of a young person
        ("een medewerker van 16 uur per week", []),
        ("ik ben 14 weken ziek", []),
        ("hij is 15 jaar in dienst", []),
        ("Een medewerker is 17 jaar bij ons in dienst", []),
        ("Ik ben 17 jaar werkzaam als lasser", []),
        ("zwanger van 16 weken", []),
        ("medewerker van 45 met rugklachten", []),
        ("werkt 16 uur", []),
    ],
)
def test_it_reads_the_age_of_a_young_person(text, ages):
    assert ages_named(text) == ages


def test_it_spells_an_age_the_way_the_practice_terms_know_it():
    assert with_ages_spelled("ik ben 16 en werk naast school") == "ik ben 16 en werk naast school (16-jarige)"
    assert with_ages_spelled("hoe lang mag ik werken") == "hoe lang mag ik werken"
