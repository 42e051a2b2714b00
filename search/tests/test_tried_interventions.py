"""What the situation says was already done or tried is not offered again."""

import pytest

from catalog.models import Product
from search.pipeline.context import context_extract
from search.pipeline.ranking.criteria import tried_mismatch
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.pipeline.tried_interventions import interventions_tried


@pytest.mark.parametrize(
    ("text", "tried"),
    [
        ("losse fysiotherapie en gesprekken met een psycholoog hebben niets opgeleverd", ["fysiotherapie", "psycholoog"]),
        ("Het neuropsychologisch onderzoek is al gedaan. Hij kan terug in aangepast werk.", ["neuropsychologisch onderzoek"]),
        ("AD-rapport is binnen: geen passend werk intern, week 48", ["arbeidsdeskundig onderzoek"]),
        ("7 mnd uit door hernia. AD-rapport ligt er: oogsten blijvend niet haalbaar", ["arbeidsdeskundig onderzoek"]),
        ("Het AD-rapport ligt er nog niet, de eerstejaarsevaluatie komt eraan", []),
        ("Magazijnmedewerker met hernia, wk 38. AD-rapport: eigen werk niet meer haalbaar", ["arbeidsdeskundig onderzoek"]),
        ("Conflict met de GM. Mediation is vorige maand mislukt, beide kanten willen niet meer", ["mediation"]),
        ("Een gesprek onder leiding van een externe gespreksbegeleider liep vorige week uit op een ruzie.", ["gespreksbegeleiding"]),
        ("De mediation liep na twee sessies vast", ["mediation"]),
        ("Het gesprek met de mediator eindigde in ruzie", ["mediation"]),
        ("Het verzuim liep op, we willen mediation", []),
        ("Mediation is nog niet gedaan, maar de werkgever twijfelt", []),
        ("Tien maanden ziek en de arbeidsdeskundige heeft vastgesteld dat hij zijn eigen werk niet meer doet", ["arbeidsdeskundig onderzoek"]),
        ("De arbeidsdeskundige heeft nog niet onderzocht wat hij kan", []),
        ("heeft al fysio en een psycholoog gehad maar het schiet niet op", ["fysiotherapie", "psycholoog"]),
        ("De arbeidsdeskundige heeft al vastgesteld dat het eigen werk niet meer gaat", ["arbeidsdeskundig onderzoek"]),
        ("herstelcoaching is afgerond en hij werkt weer volledig", ["herstelcoaching"]),
        ("het 2e spoor heeft niets opgeleverd", ["tweede spoor"]),
        ("Fysiotherapie, pijnstillers en de pijnpoli hebben weinig opgeleverd.", ["fysiotherapie"]),
        ("Na het AD-onderzoek willen we een plan maken", ["arbeidsdeskundig onderzoek"]),
        ("Fysio hielp niet", ["fysiotherapie"]),
        ("AD-rapport is er al en adviseert 2e spoor", ["arbeidsdeskundig onderzoek"]),
        ("AD-rapport adviseert 1e spoor in aangepast eigen werk", ["arbeidsdeskundig onderzoek"]),
        # a report that says something exists: "AD-rapport zegt ..."
        ("AD-rapport zegt eigen werk en ander werk intern niet mogelijk", ["arbeidsdeskundig onderzoek"]),
        ("De fysio zegt dat tillen nog niet gaat", ["fysiotherapie"]),
        ("De bedrijfsarts zegt dat een AD-onderzoek nodig is", []),
        # Under way counts as tried: the same intervention is not booked a second time.
        ("Een jobcoach begeleidt hem al op de werkvloer.", ["jobcoaching"]),
        ("Ze heeft via de huisarts al een tijd gesprekken bij een psycholoog, maar het herstel stagneert", ["psycholoog"]),
        ("hij is inmiddels in behandeling bij een psychotherapeut", ["psycholoog"]),
        ("fysiotherapie loopt al", ["fysiotherapie"]),
        ("mediation is al gestart", ["mediation"]),
        ("loopt al bij een psycholoog via de huisarts", ["psycholoog"]),
        ("Hij heeft een volledig herstelcoachingstraject gehad en werkt nu 50%", ["herstelcoaching"]),
        ("Hij heeft fysio gehad, maar het helpt weinig", ["fysiotherapie"]),
        ("Ze heeft een paar maanden bij een psycholoog gelopen", ["psycholoog"]),
        ("Mediation is al geprobeerd maar na drie sessies zonder resultaat gestopt", ["mediation"]),
        ("Er is al een gesprek geweest onder leiding van een onafhankelijke gespreksbegeleider", ["gespreksbegeleiding"]),
        ("Hij heeft bij een GZ-psycholoog al EMDR gehad", ["psycholoog", "traumaverwerking"]),
        ("Een energiemeting liet vorige maand al zien dat hij nauwelijks herstelt", ["energiemeting"]),
        ("Fysio via de huisarts schiet niet op", ["fysiotherapie"]),
        ("Gesprekken bij POH-GGZ gestopt na 5 keer", ["POH-GGZ"]),
        ("vroegconsult psycholoog is al geweest, nu echte behandeling nodig", ["vroegconsult"]),
        ("Hij heeft nooit fysio gehad", []),
        ("Mdw horeca, wk 26, depressie, in behandeling bij de GGZ", ["psycholoog"]),
        ("Verpleegkundige is onder behandeling bij een psycholoog, maar het schiet niet op", ["psycholoog"]),
        ("De POH-GGZ van de huisarts schiet niet op", ["POH-GGZ"]),  # the GP's nurse, not a GGZ treatment
        ("De werknemer met een fysiek beroep loopt al 6 weken met klachten", []),
        ("nog geen gesprekken bij een psycholoog", []),
        # Only what precedes its completion, in the same clause, about the same subject:
        ("Fysio is afgerond, nu wil hij graag een werkplekonderzoek", ["fysiotherapie"]),
        ("Medewerker wil een arbeidsdeskundig onderzoek, de bedrijfsarts heeft al geadviseerd het werk aan te passen", []),
        ("Hij heeft nog geen fysio gehad en wil een arbeidsdeskundig onderzoek", []),
        ("Ons bedrijf heeft al jaren geen actuele RI&E", []),
        ("Gesprekken met de maatschappelijk werker hebben weinig opgeleverd.", []),
        ("De fysiotherapeut heeft niet de tijd", []),
        ("ad hoc overleg is gedaan", []),
        ("Werknemer met rugklachten wil een vroegconsult fysiotherapie", []),
        # a note without its verb
        ("bakkerij: lekencontrole al gedaan, mdw blijft vaak op maandag ziek", ["lekencontrole"]),
        ("rugklachten, fysio al gehad", ["fysiotherapie"]),
        ("De teamleider twijfelt of hij een huisbezoek moet laten afleggen", []),
    ],
)
def test_it_reads_what_the_situation_says_was_already_done_or_tried(text, tried):
    assert interventions_tried(text) == tried


@pytest.mark.parametrize(
    ("product", "damping"),
    [
        ("Vroegconsult fysiotherapie", DEFAULT.already_tried),
        ("Bedrijfsfysiotherapie", DEFAULT.already_tried),
        ("Psycholoog", DEFAULT.already_tried),
        ("Vroegconsult psycholoog bij minder dan 6 weken verzuim", DEFAULT.already_tried),
        ("Multidisciplinair traject", 1.0),
        ("Neuropsychologisch onderzoek", 1.0),
    ],
)
def test_it_damps_only_the_products_that_repeat_what_was_tried(product, damping):
    context = context_extract("Vijf maanden thuis met rugpijn; fysiotherapie en een psycholoog hebben weinig opgeleverd.")
    assert DEFAULT.already_tried < 1.0
    assert tried_mismatch(Product(name=product), context) == damping


def test_it_names_what_was_tried_in_the_context_summary():
    context = context_extract("Het neuropsychologisch onderzoek is al gedaan, hij is 9 maanden ziek.")
    assert context.tried_interventions == ["neuropsychologisch onderzoek"]
    assert "al ingezet: neuropsychologisch onderzoek" in context.summary()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "repeated"),
    [
        ("Monteur zit 5 maanden thuis met chronische rugpijn. Fysiotherapie en pijnstillers hebben niets opgeleverd.", "fysiotherapie"),
        ("Medewerkster 6 maanden ziek met angstklachten, heeft al een psycholoog gehad maar komt niet verder", "psycholoog"),
    ],
)
def test_it_does_not_offer_again_what_was_tried_without_result(query, repeated):
    names = [item.product.name for item in search_run(SearchRequest(query=query, top_k=3)).recommendations]
    assert len(names) == 3
    assert not [name for name in names if repeated in name.lower()], names
