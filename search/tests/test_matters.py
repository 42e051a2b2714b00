"""Whether a text names a matter of health, absence or work (search.pipeline.matters)."""

import pytest

from catalog.models import Product
from search.pipeline import matters
from search.pipeline.matters import names_a_matter

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text",
    [
        "werkdruk accountants busy season",  # a word of the problem areas among English ones
        "werkdrukproblemen bij de accountants in het voorjaar",  # a part of a compound
        "Groeiend installatiebedrijf wil eigen regie op verzuim met een casemanager",  # the word of absence itself
        "Vakbond: lid moet van werkgever ander werk doen dat hij medisch niet aankan",
        "kok komt met een alcoholkegel binnen",  # a thesaurus entry
        # signs a colleague notices, in words around them that no thesaurus phrase foresees
        "secretaresse huilt na elk MT overleg",
        "collega van de crediteurenadministratie ruikt 's ochtends naar alcohol",
        "onze directeur slaapt nauwelijks nog en werkt elk weekend door",
        "ze doet raar de laatste tijd, zegt niks meer en eet niet",
        "We hebben een gezondheidsbudget van 5000 euro voor een afdeling monteurs",
        # conditions and treatments the catalog names nowhere
        "Laborant met reuma vraagt welke aanpassingen er mogelijk zijn voor haar pipetteerwerk",
        "kreeg een heftige allergische reactie na een paar steken",
        "is net terug na een knieoperatie",
        "heeft COPD en wordt snel kortademig bij het traplopen",
    ],
)
def test_it_finds_a_matter_named_in_the_words_of_the_catalog_or_of_absence(text):
    assert names_a_matter(text, context_finds_one=False)


@pytest.mark.parametrize(
    "text",
    [
        "De printer op de tweede verdieping geeft steeds een papierstoring, wie kan ik bellen voor onderhoud?",
        # words of the problem areas that say who, when or how do not count
        "Wij willen de leaseregeling aanpassen zodat medewerkers ook een elektrische auto kunnen kiezen",
        "parkeerplaatsen bij het ziekenhuis verdelen",
        "de nieuwe server slaapt nooit, de back-up draait elke nacht",  # "slaapt" alone is no sign
        "onze coöperatie wil de ledenvergadering naar het voorjaar verplaatsen",  # not an "operatie"
    ],
)
def test_it_finds_no_matter_in_an_office_question(text):
    assert not names_a_matter(text, context_finds_one=False)


def test_it_takes_the_context_readers_finding_as_a_matter():
    assert names_a_matter("De printer geeft een papierstoring", context_finds_one=True)


def test_it_follows_the_catalogs_problem_areas():
    text = "zonnesteek bij de stratenmakers"
    assert not names_a_matter(text, context_finds_one=False)
    Product.objects.create(
        name="Hitteprotocol", slug="hitteprotocol", description="Een protocol voor werken in de hitte.", category="Preventie",
        phase="preventie", delivery="op locatie", problem_areas=["zonnesteek"],
    )
    matters._cached["generation"] = None  # the generation advances on commit, which a test transaction never does
    assert names_a_matter(text, context_finds_one=False)
