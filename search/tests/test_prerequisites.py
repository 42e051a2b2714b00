"""A product for an occasion (a pregnancy, an accident, a language barrier) needs the situation to name it."""

import pytest

from search.pipeline.context import context_extract
from search.pipeline.prerequisites import missing_occasion, occasion_words, occasions_named
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

PREGNANCY, ACCIDENT, LANGUAGE = "een zwangerschap", "een ongeval of incident", "een taalbarrière"
MENOPAUSE, LIABLE_PARTY, LOSS, CARER = "de overgang", "een ander die de schade veroorzaakte", "een overlijden of verlies", "zorg voor een naaste"
MONEY = "geldzorgen of schulden"
CHECK = "twijfel aan de ziekmelding, onbereikbaarheid of vaak kort verzuim"


@pytest.mark.parametrize(
    ("text", "occasions"),
    [
        ("Verzorgende is 14 weken zwanger en werkt nachtdiensten", [PREGNANCY]),
        ("terug na de bevalling, wil kolven op het werk", [PREGNANCY]),
        ("Uitzendkracht met zijn hand in de kantbank gekomen, 2 vingers kwijt; hoe kon dit gebeuren?", [ACCIDENT]),
        ("dodelijk ongeval op de bouwplaats", [ACCIDENT, LOSS]),
        ("seizoenmedewerker met zijn hand in de aardappelrooier gekomen en met spoed naar het ziekenhuis gebracht", [ACCIDENT]),
        ("Schoonmaakster van Poolse afkomst spreekt weinig Nederlands", [LANGUAGE]),
        ("Orderpicker spreekt alleen Engels", [LANGUAGE]),
        ("Chauffeur van een andere auto is aansprakelijk, de verzekeraar van de tegenpartij betaalt", [LIABLE_PARTY]),
        ("Accountmanager bij een verzekeraar is overspannen", []),  # the employer, not a liable party's insurer
        ("Machinist had 10 dagen geleden een aanrijding met persoon, slaapt slecht", []),  # a person hit by the train: nobody liable
        ("Koerier na een aanrijding met een vrachtwagen 6 weken thuis", [LIABLE_PARTY]),
        ("Beiden willen samen verder en zoeken een neutrale derde voor een goed gesprek", []),  # a mediator, nobody liable
        ("Vrachtwagenchauffeur met slaapapneu is overdag doodmoe", []),  # dead tired is no death
        ("Buschauffeurs klagen over gebroken diensten en te korte pauzes", []),  # a split shift is no fracture
        ("Sergeant, 40, partner ongeneeslijk ziek, twee kinderen", [CARER]),  # a file note without the possessive
        ("Man, 45, ernstig ziek na een hartinfarct", []),  # in a note "Man" is the employee
        ("kolfruimte nodig", [PREGNANCY]),
        ("heftruckchauffeur zn zoontje ligt in zkhs ernstig ziek, hij wil minder uren", [CARER]),  # "zn": zijn
        ("er was een bijna-aanrijding met een oververmoeide chauffeur", [ACCIDENT]),  # a near miss, nobody to claim from
        ("Beleidsadviseur met een oogziekte verliest steeds meer zicht", []),
        ("Medewerker met niet-aangeboren hersenletsel na een beroerte", []),
        ("Planner maakt fouten maar wil zich niet ziek melden", []),  # reporting sick is no accident report
        ("Ziek na ruzie met de teamleider; de bedrijfsarts spreekt van situatieve arbeidsongeschiktheid", []),
        ("Nachtdienst en slaapproblemen bij een verpleegkundige", []),
        ("Werkdruk in het team, we willen een RI&E laten doen", []),
        ("Leerkracht voelt zich opgebrand door de hoge werkdruk", []),
        ("brandwonden na een steekvlam in de keuken", [ACCIDENT]),
        ("Verpleegkundige van 52 heeft last van opvliegers en slaapt slecht", [MENOPAUSE]),
        ("Teamleider van 51 vergeet afspraken en ligt 's nachts wakker omdat ze ligt te zweten", [MENOPAUSE]),
        ("ze zegt dat ze s nachts drijfnat wakker wordt, docente 51", [MENOPAUSE]),
        ("PMS", [MENOPAUSE]),
        ("Chauffeur met whiplash na een kop-staartbotsing, kunnen we de loonkosten verhalen?", [LIABLE_PARTY]),
        ("Medewerkster gebeten door de hond van de buren", [LIABLE_PARTY]),
        ("Schoonmaakster huilt sinds het overlijden van haar man", [LOSS]),
        ("Kasmedewerker, 3 weken geleden is zijn zoon verongelukt met de scooter", [ACCIDENT, LOSS]),
        ("Haar broer is vorig jaar bij een brand om het leven gekomen", [ACCIDENT, LOSS]),
        ("Logopedist zorgt sinds de zomer voor haar moeder met alzheimer", [CARER]),
        ("Medewerker heeft een vader die dementeert en raakt overbelast", [CARER]),
        ("Vorige week ging het bijna mis bij een vulinstallatie", [ACCIDENT]),
        ("Monteur heeft een ernstig ziek kind in het ziekenhuis", [CARER]),
        ("Consulent is overspannen; thuis heeft haar partner net de diagnose kanker gekregen", [CARER]),
        ("Verpleegkundige, een vrouw van 45 met de diagnose borstkanker", []),  # the employee herself, no possessive
        ("Jaarcontract van een zieke schoonmaker loopt over 3 weken af", []),  # a cleaner, not a relative by marriage
        # short absences whose cause the employee told: a check would check what is known; a doubt still asks for one
        ("Medewerker is voor de derde keer dit jaar ziek en heeft schulden", [MONEY]),
        ("Huurconsulent zes keer ziek dit jaar, vaak op maandag; ze zegt dat het thuis niet lekker loopt", []),
        ("Stagemanager tien dagen ziek met paniekaanvallen, tweede keer dit jaar dat ze uitvalt", []),
        ("Cameravrouw meldt zich vaak een dagje ziek; ze zorgt voor haar moeder met dementie", [CARER]),
        ("Zes keer ziek dit jaar, thuis speelt van alles en ik vertrouw het niet", [CHECK]),
        ("Er is loonbeslag gelegd en de deurwaarder staat op de stoep", [MONEY]),
        ("Uitvoerder zit midden in een vechtscheiding en de financiën zijn een puinhoop", [MONEY]),
        ("Chauffeur heeft een gokverslaving", [MONEY]),
        ("Teamleider bij financiën vergeet afspraken en slaapt slecht", []),  # a department, not money troubles
        ("Onze financieel directeur werkt weken van zeventig uur", []),
        ("Huurconsulent krijgt steeds boze huurders aan de balie", []),  # a trade and its clients, not the rent
        ("Ze heeft een huurachterstand en kan de huur niet betalen", [MONEY]),
        ("Dezelfde regels gelden voor iedereen, ook als het geld kost", [MONEY]),
        ("Vertrouwen in de leidinggevende is weg na een conflict", []),
        ("Ziek gemelde medewerker neemt de telefoon niet op en is gezien op een festival", [CHECK]),
        ("Ik twijfel of hij echt ziek is", [CHECK]),
        ("ziekmelding vertrouw ik niet", [CHECK]),
        ("vakkenvuller alweer 5e ziekmelding dit jaar, steeds op maandag", [CHECK]),
        ("frequent kortverzuim", [CHECK]),
        ("zwembad mdw maandagverzuim", [CHECK]),  # the one word for a Monday pattern
        ("Verkoopster heeft zich maandag ziek gemeld, ze slaapt niet meer", []),  # the day of this absence, no pattern
        ("Volgens de bedrijfsarts is hij niet echt ziek maar gaat het om het conflict", []),  # a finding, not a doubt
        ("cocaïnegebruik brandweerman", []),  # a firefighter, not a fire
        ("Kok liep brandwonden op bij een vetbrand in de keuken", [ACCIDENT]),
        ("Een collega heeft zich van het leven beroofd", [LOSS]),
        ("Metselaar, zijn vrouw is zwanger met complicaties en moet plat liggen", []),  # his wife's pregnancy
        ("Heftruckchauffeur slaapt slecht sinds zijn zwangere vriendin in het ziekenhuis ligt", []),
        ("Het gaat om een zwangere vrouw van 30 die in de kassa werkt", [PREGNANCY]),  # the employee herself
        ("Haar vrouw is net bevallen en zijzelf is nu 12 weken zwanger", [PREGNANCY]),  # both: hers counts
    ],
)
def test_it_reads_the_occasions_a_situation_names(text, occasions):
    assert occasions_named(text) == occasions


@pytest.mark.parametrize(
    ("text", "check"),
    [
        ("Medewerkers maken lange gebroken diensten, klagen over werkdruk en het kortdurend verzuim stijgt.", False),
        ("Bij onze distributiecentra stijgt het kortdurend verzuim al een jaar", False),
        ("Orderpicker heeft veel kortdurend verzuim, steeds op maandag", True),
    ],
)
def test_it_reads_a_rising_absence_rate_as_the_organisations_not_as_short_absences_to_check(text, check):
    assert (CHECK in context_extract(text).occasions) is check


@pytest.mark.parametrize(
    ("product", "situation", "missing"),
    [
        ("Zwangerschapsconsult werkplek", "Verpleegkundige met nachtdiensten slaapt slecht", True),
        ("Zwangerschapsconsult werkplek", "Verpleegkundige is zwanger en werkt nachtdiensten", False),
        ("Arbeidsongevallenonderzoek", "De Arbeidsinspectie komt langs en we hebben nog geen RI&E", True),
        ("Arbeidsongevallenonderzoek", "Medewerker met rugklachten door tillen", True),
        ("Tolk", "Medewerker met rugklachten door tillen", True),
        ("Overgangsconsultatie", "Docent met concentratie- en geheugenproblemen na een hersenschudding", True),
        ("Rouwbegeleiding", "Jongerenwerker met schulden door gokken slaapt slecht", True),
        ("Vertrouwenspersoon", "Medewerker voelt zich gepest door een collega", False),  # "rouw" only where a name starts with it
        ("Regres", "schulden", True),
        ("Hulp bij financiële problemen", "drankprobleem", True),  # 30 top-3 places without money troubles, none chosen
        ("Hulp bij financiële problemen", "Medewerker heeft schulden en slaapt slecht", False),
        ("Mantelzorgondersteuning", "Medewerker zorgt voor haar vader met dementie", False),
        ("Slaapcoaching", "Medewerker met rugklachten door tillen", False),
        # a weight consultation for weight or eating habits, not for every diabetes
        ("Gewichtsconsulent - Intake Online", "Orderpicker heeft diabetes type 1 en had twee keer een hypo", True),
        ("Gewichtsconsulent - Intake Online", "Medewerkster geeft borstvoeding en wil kolven", True),
        ("Gewichtsconsulent - Intake Online", "Buschauffeur is dertig kilo aangekomen en heeft last van zijn knieën", False),
        ("Gewichtsconsulent - Intake Online", "Planner eet veel fastfood en beweegt nauwelijks", False),
        ("Gewichtsconsulent - Intake Online", "overgewicht en diabetes type 2", False),
        # a check on a sick employee needs doubt, an employee out of reach or short absences counted: 88 of 89 judged choices
        ("Lekencontrole (huisbezoek)", "Administratief medewerkster is vorige week aangereden en heeft whiplashklachten", True),
        ("Lekencontrole (huisbezoek)", "Medewerker is na zijn ziekmelding al twee weken onbereikbaar", False),
        ("Lekencontrole (huisbezoek)", "Schoonmaakster meldt zich dit jaar al voor de zesde keer ziek", False),  # a product for no occasion never misses one
    ],
)
def test_it_tells_which_products_miss_their_occasion(product, situation, missing):
    assert bool(missing_occasion(product, context_extract(situation).occasions)) is missing


@pytest.mark.django_db
def test_it_keeps_the_pregnancy_consultation_for_pregnancies():
    outcome = search_run(SearchRequest(query="Verpleegkundige werkt al jaren nachtdiensten en slaapt slecht, ze is moe op het werk", top_k=5))
    assert "Zwangerschapsconsult werkplek" not in [item.product.name for item in outcome.recommendations]
    outcome = search_run(SearchRequest(query="Verpleegkundige is 20 weken zwanger en werkt nachtdiensten", top_k=3))
    assert "Zwangerschapsconsult werkplek" in [item.product.name for item in outcome.recommendations]


@pytest.mark.django_db
def test_it_never_fills_a_place_with_a_product_whose_occasion_is_missing():
    # Only two products match "schulden"; recourse against a liable party once took the third place.
    outcome = search_run(SearchRequest(query="schulden", top_k=3))
    names = [item.product.name for item in outcome.recommendations]
    assert "Hulp bij financiële problemen" in names
    assert not [name for name in names if missing_occasion(name, outcome.context.occasions)], names


def test_it_gives_retrieval_the_catalog_words_for_an_occasion_named_in_other_words():
    assert occasion_words(occasions_named("Onderwijsassistent verloor in het voorjaar haar zoontje")) == "rouw overlijden verlies"
    assert occasion_words(occasions_named("Planner zorgt naast zijn baan voor zijn vader met dementie")) == "mantelzorg mantelzorger"
    # An accident or a liable party is named in many situations that need neither product: no words.
    assert occasion_words(occasions_named("Heftruckchauffeur is aangereden en heeft zijn arm gebroken")) == ""


@pytest.mark.django_db
def test_it_finds_grief_counselling_for_a_loss_told_without_the_catalog_words():
    # Held out: without its own judged line, "verloor haar zoontje" shares no word with the grief counselling.
    query = "Onderwijsassistent verloor in het voorjaar haar zoontje, is na 3 weken weer begonnen maar huilt vaak in de klas"
    outcome = search_run(SearchRequest(query=query, top_k=3, held_out_source="judged_situations_fresh"))
    assert "Rouwbegeleiding" in [item.product.name for item in outcome.recommendations]
