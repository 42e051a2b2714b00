import pytest

from search.pipeline.absence_duration import parse_duration_field
from search.pipeline.context import context_extract

# (text, absence weeks or None, absence status, preventive)
DURATIONS = [
    ("Werknemer met burn-out klachten, 6 maanden verzuim, management functie", 26.07, "verzuim", False),
    ("Medewerker is al 10 weken ziek", 10.0, "verzuim", False),
    ("sinds 2 weken thuis met rugpijn", 2.0, "verzuim", False),
    ("18 maanden ziek na een ongeval", 78.21, "verzuim", False),
    ("een jaar ziek door depressie", 52.0, "verzuim", False),
    ("ruim een jaar uit de running", 52.0, "verzuim", False),
    ("half jaar ziek door depressie", 26.0, "verzuim", False),
    ("anderhalf jaar ziek", 78.0, "verzuim", False),
    ("Medewerker is net drie dagen ziek met angstklachten", 0.43, "verzuim", False),
    ("Sinds vier maanden thuis met een burn-out", 17.38, "verzuim", False),
    ("kort verzuim na een operatie", 1.0, "verzuim", False),
    ("net ziek gemeld met griep", 1.0, "verzuim", False),
    ("langdurig zieke medewerker", 26.0, "verzuim", False),
    ("werkt al 20 jaar bij ons en is sinds 3 weken ziek", 3.0, "verzuim", False),
    # an event the text dates, and the absence that began with it
    ("Drie weken geleden viel hij van de steiger; sindsdien zit hij thuis.", 3.0, "verzuim", False),
    ("Heeft 2 mnd geleden een fietser geraakt, die is overleden. Sindsdien thuis, ziet het steeds voor zich.", 8.69, "verzuim", False),
    ("Kassamedewerker is na de overval van 2 maanden geleden nog steeds niet terug", 8.69, "verzuim", False),
    ("Vier maanden geleden is hij bij ons begonnen, sindsdien loopt het stroef", None, "onbekend", False),
    ("Twee jaar geleden had hij een burn-out, sindsdien gaat het goed. Nu is hij 3 weken ziek.", 3.0, "verzuim", False),
    ("Vrouwelijke medewerker van 52 slaapt slecht", None, "onbekend", False),
    ("Heftruckchauffeur met nekklachten, werkt nog maar met pijn", None, "aan het werk", False),
    ("nog aan het werk, maar loopt op zijn tandvlees", None, "aan het werk", False),
    ("We willen voorkomen dat ons team opbrandt door de drukte", None, "onbekend", True),
    ("Preventie burn-out", None, "onbekend", True),
    ("Onze basisschool wil leerkrachten weerbaarder maken tegen agressieve ouders", None, "onbekend", True),
    ("Kassamedewerkers worden uitgescholden; we willen ons personeel beter voorbereiden", None, "onbekend", True),
    ("Wij hebben nog geen RI&E en willen de risico's in kaart brengen", None, "onbekend", True),
    ("Na 20 maanden ziekte is terugkeer bij ons niet meer mogelijk", 86.9, "verzuim", False),
    ("Twee collega's hebben ruzie, een van hen is ziek gemeld", None, "verzuim", False),
    ("Medewerker werkt 32 uur per week en is 5 weken ziek", 5.0, "verzuim", False),
    ("Dreigt uit te vallen door werkdruk", None, "aan het werk", True),
    ("Stukadoor merkt dat hij het zware werk niet lang meer volhoudt. Geen verzuim, wil nadenken over ander werk.", None, "aan het werk", False),
    ("Er is geen ziekmelding, maar ze praten steeds langs elkaar heen", None, "aan het werk", False),
    # Poortwachter milestones date an absence without a stated duration; a stated one wins.
    ("eerstejaarsevaluatie", 52.0, "verzuim", False),
    ("loonsanctie dreigt", 91.0, "verzuim", False),
    ("Week 91: de WIA-aanvraag moet de deur uit", 91.0, "verzuim", False),
    ("re-integratieverslag opstellen", 91.0, "verzuim", False),
    ("UWV heeft ons een loonsanctie van een jaar opgelegd", 104.0, "verzuim", False),
    ("WGA eigenrisicodrager", 104.0, "verzuim", False),
    ("negen maanden ziek, over twee maanden de eerstejaarsevaluatie", 39.13, "verzuim", False),
    # A case file's abbreviations and stated week of absence.
    ("Verpleegkundige, 10 wkn AO ivm frozen shoulder", 10.0, "verzuim", False),
    ("mdw 4 mnd ziek door paniekaanvallen", 17.38, "verzuim", False),
    ("mdw productie 3 wk ziek ivm hernia", 3.0, "verzuim", False),
    ("Stratenmaker 55 jr, hartinfarct gehad, 12 wkn uit de roulatie", 12.0, "verzuim", False),
    ("Stukadoor, 4 maanden uit met een frozen shoulder", 17.38, "verzuim", False),
    ("Wk 7, BA heeft de probleemanalyse klaar: max 4 uur p/d", 7.0, "verzuim", False),
    ("Lasser, week 20, is het niet eens met de BA", 20.0, "verzuim", False),
    ("2e spoor pas in wk 70 gestart, nu een loonsanctie", 70.0, "verzuim", False),
    # The abbreviated week or day of a file note dates the absence on its own; "ZM" is a sick report.
    ("Suppoost museum, 63, wk 35, heupprothese. Lang staan lukt nog niet", 35.0, "verzuim", False),
    ("Monteur werkplaats, ZM dg 4 ivm lage rugpijn na tillen", 0.57, "verzuim", False),
    ("Taxichauffeur, matig NL. Dg 10 ZM lage rug", 1.43, "verzuim", False),
    ("Receptioniste, al 3 dgn ziek", 0.43, "verzuim", False),
    ("Senior adviseur is 'op'. Nog niet ZM en wil dat ook niet", None, "aan het werk", False),
    ("Teamleider, na depressie (verzuim 9 mnd) sinds 3 wk volledig hervat in eigen functie", None, "aan het werk", False),
    ("Schoonmaakster, vorig jaar 4 mnd uit, hersteld en volledig hervat. Nu opnieuw 3 weken ziek", 3.0, "verzuim", False),
    ("vrachtwagenchauffeur 20 jr op de weg, rug kan het niet meer aan", None, "onbekend", False),
    ("tijdelijk contract loopt over 3 wkn af en mdw is ziek", None, "verzuim", False),
    ("Hij komt er niet uit met zijn leidinggevende", None, "onbekend", False),
    ("In week 12 hebben we een teamuitje", None, "onbekend", False),
    # A relative's illness is not the employee's absence.
    ("zieke partner", None, "onbekend", False),
    ("Zijn vrouw is ernstig ziek en hij zorgt voor de kinderen", None, "onbekend", False),
    ("pedagogisch medewerker is 7 weken zwanger en werkt met zieke kindjes", None, "onbekend", False),
    ("Haar moeder is ziek en zij is nu zelf 3 weken ziek", 3.0, "verzuim", False),
    # An absence word said to be absent does not make a duration beside it an absence.
    ("Stukadoor van 56. Hij is niet ziek, maar zegt dat hij het nog hooguit twee jaar volhoudt", None, "aan het werk", False),
    ("Verkoopster met MS werkt hier 3 jaar, is niet ziek gemeld, maar sneller moe", None, "aan het werk", False),
    ("Twee jaar geen verzuim gehad, nu sinds 3 weken ziek met rugklachten", 3.0, "verzuim", False),
    # "werkt nog niets" is not working; "is net terug na" is back at work.
    ("BA adviseert begeleiding voor beleidsadviseur, werkt nog niets", None, "verzuim", False),
    ("Conducteur is net terug na drie weken griep en zit in de put", None, "aan het werk", False),
    # The organisation's absence with the verb first is no absence of a year.
    ("Bij onze distributiecentra stijgt het kortdurend verzuim al een jaar, vooral op maandag", None, "onbekend", False),
    # Many short absences and working now.
    ("Zes keer ziek gemeld dit jaar, steeds een of twee dagen. Op dit moment werkt ze gewoon", None, "aan het werk", False),
    # Help before a burn-out is a prevention question.
    ("Ze is niet ziek, maar wil leren haar grenzen aan te geven voordat ze net als haar collega een burn-out krijgt", None, "aan het werk", True),
]


@pytest.mark.parametrize(("text", "weeks", "status", "preventive"), DURATIONS)
def test_it_reads_absence_duration_status_and_intent(text, weeks, status, preventive):
    context = context_extract(text)
    assert context.absence_weeks == (pytest.approx(weeks, abs=0.05) if weeks is not None else None)
    assert context.absence_status == status
    assert context.preventive is preventive


ROLES = [
    ("Teamleider moet leren hoe hij met een langdurig zieke medewerker omgaat", "leidinggevende", "", "leidinggevende"),
    ("Heftruckchauffeur met nekklachten", "chauffeur", "logistiek", "werknemer"),
    ("Medewerker van de klantenservice is uitgeput", "klantenservice", "kantoor", "werknemer"),
    ("Lasser in metaalfabriek heeft schouderklachten", "productiemedewerker", "industrie", "werknemer"),
    ("Thuiszorgmedewerkers worden uitgescholden door cliënten", "zorgmedewerker", "zorg", "team"),
    ("Verpleegkundige in het ziekenhuis, anderhalf jaar ziek", "zorgmedewerker", "zorg", "werknemer"),
    ("Thuiswerker heeft last van pols en nek door laptopwerk", "thuiswerker", "", "werknemer"),
    ("Ik werk sinds twee jaar vrijwel volledig thuis en heb last van mijn nek", "thuiswerker", "", "werknemer"),
    ("Wij hebben nog geen RI&E", "", "", "organisatie"),
    ("We willen voorkomen dat ons team opbrandt", "", "", "team"),
    ("Docent op een basisschool is overspannen", "docent", "onderwijs", "werknemer"),
    ("Caissière in de supermarkt heeft polsklachten", "winkelmedewerker", "retail", "werknemer"),
    ("vakkenvuller schouderklachten", "winkelmedewerker", "retail", "werknemer"),
    ("Kok in een restaurant is overspannen", "horecamedewerker", "horeca", "werknemer"),
    # A manager named as the other party is not the employee's role; "onze teamleider" is the subject.
    ("Medewerkster wordt gepest door collega's en durft het niet met haar teamleider te bespreken", "", "", "werknemer"),
    ("Werknemer is 14 weken ziek na een conflict met zijn leidinggevende", "", "", "werknemer"),
    ("Medewerker heeft klachten over de manager en slaapt slecht", "", "", "werknemer"),
    ("Onze teamleider is overspannen en slaapt slecht", "leidinggevende", "", "werknemer"),
    ("Een van mijn teamleiders zit er doorheen", "leidinggevende", "", "werknemer"),
    ("Bestuurder van een zorginstelling loopt op zijn tandvlees", "leidinggevende", "zorg", "werknemer"),
    ("Onze CTO staat enorm onder druk", "leidinggevende", "", "werknemer"),
    ("Gemeentesecretaris dreigt overbelast te raken", "leidinggevende", "overheid", "werknemer"),
    # The driver of the other car is no executive, nor is a director named as the other party.
    ("Uitvoerder is aangereden. De andere bestuurder is aansprakelijk", "", "", "organisatie"),
    ("Docent is ziek na een botsing met de directeur", "docent", "onderwijs", "werknemer"),
    # The manager who asks or worries is not the employee; the one who is to learn is.
    ("Vleesverwerker met nekklachten aan de band. Bedrijfsleider wil weten wat er aan de lijn moet veranderen", "", "", "werknemer"),
    ("Teamleider wil weten hoe hij een verzuimgesprek voert", "leidinggevende", "", "leidinggevende"),
    ("Manager ziet het niet meer zitten en slaapt slecht", "leidinggevende", "", "werknemer"),
    # Worries are no sector: "maakt zich zorgen" is not "werkt in de zorg".
    ("Baliemedewerker gokt in elke pauze, iedereen maakt zich zorgen", "", "", "werknemer"),
    ("Ze werkt al twintig jaar in de zorg en is op", "", "zorg", "werknemer"),
    # Short trade words whole: "koken" is no cook, "business" no bus; "bestelbus" names no transport sector.
    ("Business controller kookt thuis en komt niet aan koken toe van de stress", "", "", "werknemer"),
    ("Laborant is door een bestelbus aangereden", "", "", "onbekend"),
    ("Buschauffeur met rugpijn", "chauffeur", "transport", "werknemer"),
    ("Onze kok heeft brandwonden", "horecamedewerker", "horeca", "werknemer"),
    # a kitchen table is at home, a kitchen is a restaurant's
    ("Servicedeskmedewerker werkt vooral thuis aan de keukentafel en heeft tintelende polsen", "klantenservice", "", "werknemer"),
    ("Keukenhulp in ons restaurant heeft rugklachten", "", "horeca", "onbekend"),
    # "leiding" ends "begeleiding" and "opleiding": those name no manager.
    ("Wie geeft begeleiding aan een medewerker die een opleiding volgt?", "", "", "werknemer"),
    ("Jurist bij de afdeling Ruimte heeft MS, ze wil zoveel mogelijk blijven werken", "", "", "werknemer"),
    ("Op de afdeling is de werkdruk hoog", "", "", "team"),
    # "wil een andere arts" is the doctor he sees, not his trade.
    ("Monteur vertrouwt de bedrijfsarts niet en wil een andere arts", "fysiek zwaar werk", "", "werknemer"),
]


@pytest.mark.parametrize(("text", "role", "sector", "subject"), ROLES)
def test_it_reads_role_sector_and_who_the_question_is_about(text, role, sector, subject):
    context = context_extract(text)
    assert context.role == role
    assert context.sector == sector
    assert context.subject == subject


def test_it_lets_form_fields_override_the_text():
    context = context_extract("al 10 weken ziek", role="Magazijnmedewerker", sector="Logistiek", duration="3 maanden")
    assert context.role == "magazijnmedewerker"
    assert context.sector == "logistiek"
    assert context.absence_weeks == pytest.approx(13.0, abs=0.1)


@pytest.mark.parametrize(("value", "weeks"), [("6 weken", 6), ("3 maanden", 13.04), ("1 jaar", 52), ("12", 12), ("half jaar", 26), ("", None), ("onbekend", None)])
def test_it_parses_the_duration_field(value, weeks):
    result = parse_duration_field(value)
    assert result == (pytest.approx(weeks, abs=0.05) if weeks is not None else None)


def test_it_marks_severity():
    assert context_extract("ernstig ongeluk gezien").severity == "ernstig"
    assert context_extract("lichte rugklachten").severity == "licht"
    assert context_extract("rugklachten").severity == "gemiddeld"


# (text, absence weeks, absence status, preventive, urgent, absence pattern): intent words move phase and urgency.
INTENTS = [
    ("Lange termijn verzuim", 26.0, "verzuim", False, False, ""),
    ("langdurig verzuim", 26.0, "verzuim", False, False, ""),
    ("Korte termijn verzuim", 1.0, "verzuim", False, False, ""),
    ("net ziek gemeld", 1.0, "verzuim", False, False, ""),
    ("Crisis situatie", None, "onbekend", False, True, ""),
    ("acuut incident op de werkvloer", None, "onbekend", False, True, ""),
    ("preventie werkdruk", None, "onbekend", True, False, ""),
    ("voorkomen van uitval", None, "onbekend", True, False, ""),
    ("uitval voorkomen in ons team", None, "onbekend", True, False, ""),
    ("frequent verzuim", None, "onbekend", False, False, "frequent"),
    ("medewerker is vaak kort ziek", None, "onbekend", False, False, "frequent"),
    ("terugval na burn-out", None, "onbekend", False, False, "terugval"),
    ("na drie maanden weer uitgevallen", 13.04, "verzuim", False, False, "terugval"),
    # not absent (yet): a threat, nobody ill, or back at work
    ("dreigend verzuim", None, "aan het werk", True, False, ""),
    ("stress rond de toetsweken, nog niemand ziek", None, "aan het werk", False, False, ""),
    ("na een half jaar burn-out weer volledig aan het werk, bang om opnieuw uit te vallen", None, "aan het werk", False, False, "terugval"),
    ("weer aan het werk na een depressie, we willen herhaling voorkomen", None, "aan het werk", True, False, "terugval"),
    # "weer aan het werk" as the goal is no sign of working now; "dreigen" about a procedure is not prevention
    ("zit in de Ziektewet; hoe krijgen we hem weer aan het werk?", None, "verzuim", False, False, ""),
    # a wish to return is no return
    ("Medewerker met borstkanker is klaar met de chemo en wil rustig weer aan het werk.", None, "onbekend", False, False, ""),
    ("de werknemer dreigt een deskundigenoordeel aan te vragen", None, "onbekend", False, False, ""),
    ("Hoe voorkomen we dat het verzuim in ons verpleeghuis verder oploopt?", None, "onbekend", True, False, ""),
    ("chauffeur verloor vorig jaar zijn vrouw, werkt weer volledig maar heeft huilbuien", None, "aan het werk", False, False, ""),
    ("monteur met een ernstig ziek kind wil blijven werken", None, "aan het werk", False, False, ""),
    ("na een beroerte is hij terug op de administratie, maar raakt snel overprikkeld", None, "aan het werk", False, False, "terugval"),
    ("sinds het incident twee weken niet gewerkt, nachtmerries", 2.0, "verzuim", False, True, ""),
    # absence as a figure of the organisation is no absent person
    ("installatiebedrijf van 60 man wil eigen regie op verzuim met een casemanager", None, "onbekend", False, False, ""),
    ("stijgend psychisch verzuim in alle vestigingen", None, "onbekend", False, False, ""),
    ("verzuim 8%, geen protocol", None, "onbekend", False, False, ""),
    # with the kind of absence it is, and as a trend: still the organisation's figure
    ("Medewerkers klagen over werkdruk en het kortdurend verzuim stijgt", None, "onbekend", False, False, ""),
    ("We zien steeds meer langdurig verzuim door rugklachten. De directie wil een preventieve aanpak", None, "onbekend", True, False, ""),
    # frequent absence in everyday words, and its negation
    # with many short absences, a duration of days is each spell's, not an absence now
    ("meldt zich de laatste maanden vaak een dag ziek", None, "onbekend", False, False, "frequent"),
    ("Tekenaar architectenbureau: 7 ZM in 12 mnd, wisselende oorzaken", None, "onbekend", False, False, "frequent"),
    ("Taxichauffeur 6x kortverzuim in 9 mnd, collega's ruiken alcohol", None, "onbekend", False, False, "frequent"),
    ("Beveiliger, 4x kort ZM in half jaar (hoofdpijn, 'moe')", None, "onbekend", False, False, "frequent"),
    ("Orderpicker, 5e ZM dit kalenderjaar, telkens 1-2 dgn", None, "onbekend", False, False, "frequent"),
    ("heeft zich dit jaar al zes keer ziek gemeld, steeds een of twee dagen en vaak op maandag", None, "onbekend", False, False, "frequent"),
    ("is regelmatig op maandag ziek", None, "onbekend", False, False, "frequent"),
    ("Ze is niet vaak ziek geweest, maar nu al een week", 1.0, "verzuim", False, False, ""),
    ("meldt zich voor de vierde keer dit kwartaal ziek", None, "onbekend", False, False, "frequent"),
    ("is 3 keer per jaar ziek", None, "onbekend", False, False, "frequent"),
    ("het wijkteam zit op 11% verzuim", None, "onbekend", False, False, ""),
    # fully back at work: the absence it names is over, and relapse prevention is what fits
    ("Accountmanager na 8 maanden uitval door burn-out sinds 3 weken weer volledig aan het werk", None, "aan het werk", False, False, "terugval"),
    ("heeft na een depressie 8 maanden verzuimd en werkt sinds kort weer volledig", None, "aan het werk", False, False, "terugval"),
    ("Docent is na negen maanden verzuim door een depressie weer volledig aan het werk.", None, "aan het werk", False, False, "terugval"),
    ("Onze medewerker werkt na 8 maanden burn-out weer volledig, maar we zijn bang voor terugval", None, "aan het werk", False, False, "terugval"),
    ("Relatiebeheerder is na burn-out sinds een maand weer 100% aan het werk; het is haar 2e uitval in 3 jaar.", None, "aan het werk", False, False, "terugval"),
    # a window ("in 3 jaar"), or the time since something else ended, is no absence
    ("Sergeant 3 mnd terug van uitzending, nachtmerries. Werkt nog.", None, "aan het werk", False, False, ""),
    ("heeft zich in 8 maanden zes keer ziek gemeld", None, "onbekend", False, False, "frequent"),
    # a partial return is still an absence in re-integration
    ("12 weken ziek, sinds 2 weken gedeeltelijk weer aan het werk", 12.0, "verzuim", False, False, "terugval"),
    ("12 weken ziek, sinds 2 weken weer 50% aan het werk", 12.0, "verzuim", False, False, "terugval"),
    # an age or years of service is no absence duration
    ("Magazijnmedewerker, 58 jaar, ruim een jaar ziek met knieartrose", 52.0, "verzuim", False, False, ""),
    # a hospital is no absence
    ("meldingen over intimiderend gedrag op meerdere afdelingen van een ziekenhuis", None, "onbekend", False, False, ""),
    ("Niemand is nog ziek maar ik zie het aankomen", None, "aan het werk", False, False, ""),
    # a time ahead is no absence; the day an absence began is
    ("Tijdelijk contract loopt over drie weken af, ze is al 4 maanden ziek", 17.38, "verzuim", False, False, ""),
    ("Ze is op en heeft zich twee weken geleden ziek gemeld", 2.0, "verzuim", False, False, ""),
    # many short absences are a pattern, not one absence now; with a duration they are both
    ("vakkenvuller alweer 5e ziekmelding dit jaar, steeds op maandag", None, "onbekend", False, False, "frequent"),
    ("meldt zich vaak op maandag af", None, "onbekend", False, False, "frequent"),
    # back at work for a while: the absence named before is over
    ("was vorig jaar 8 mnd uit met burnout, nu 3 mnd weer volledig aan het werk", None, "aan het werk", False, False, "terugval"),
    ("vaak ziek en nu al 2 weken thuis", 2.0, "verzuim", False, False, "frequent"),
    # a track for long absence dates it
    ("2e spoor opstarten, eigen werk zit er niet meer in", 52.0, "verzuim", False, False, ""),
    ("AD-rapport is binnen: geen passend werk intern, spoor 2 starten", 52.0, "verzuim", False, False, ""),
    ("hoe voorkom ik dat m'n team opbrandt, iedereen draait overuren en er zitten er al 2 thuis", None, "onbekend", True, False, ""),
    # absence as a group's picture: whose absence, and how long, is not one person's
    ("Twee mensen zitten inmiddels thuis met spanningsklachten sinds het team in kampen uiteenviel", None, "onbekend", False, False, ""),
    ("Weer een wijkverpleegkundige uit hetzelfde team overspannen thuis, de derde dit jaar", None, "onbekend", False, False, ""),
    # a trade whose plural ends otherwise than "-ers" or "-isten"
    ("Keuken al maanden onderbezet, twee koks overspannen thuis", None, "onbekend", False, False, ""),
    ("Drie obers ziek gemeld na de kerstdrukte", None, "onbekend", False, False, ""),
    # working at home is no absence at home; sitting at home ill is
    ("Ik werk sinds twee jaar vrijwel volledig thuis aan de keukentafel en heb last van mijn nek", None, "onbekend", False, False, ""),
    ("huilt op het werk en zit half ziek thuis", None, "verzuim", False, False, ""),
    ("Hij zit sinds drie weken thuis met rugpijn", 3.0, "verzuim", False, False, ""),
]


@pytest.mark.parametrize(("text", "subject"), [
    ("installatiebedrijf van 60 man wil eigen regie op verzuim met een casemanager", "organisatie"),
    ("hoog verzuim", "organisatie"),
    ("het wijkteam zit op 11% verzuim", "organisatie"),
    ("teamleider ziet dat zijn mensen structureel overwerken", "team"),
    ("Een collega op de IC is plotseling overleden en het hele team is er kapot van", "team"),
    ("veel ziekmeldingen", "organisatie"),
    ("Reinigingsdienst: langdurig verzuim loopt op door slijtage aan knieën en rug", "organisatie"),  # a separable verb
    ("Het verzuim neemt sterk toe sinds de fusie", "organisatie"),
    ("Data-analist piekert sinds de reorganisatie en slaapt slecht", "werknemer"),  # one person, by what she does
    ("schulden mdw", "werknemer"),
    ("Op onze basisschool zijn drie leerkrachten uitgevallen, de rest vangt alles op", "team"),
    ("werknemer 8 maanden ziek, ligt overhoop met zijn leidinggevende", "werknemer"),
    # a trade in the plural is a group
    ("Controleurs in het openbaar vervoer worden steeds vaker bespuugd en bedreigd", "team"),
    ("onze buschauffeurs worden vaak uitgescholden", "team"),
    ("Verpleegkundigen klagen over rugpijn bij het tillen", "team"),
    ("Anders dan vroeger is hij snel moe", "werknemer"),
    ("lasser met rugpijn", "werknemer"),
    # several absent colleagues, or the third this year, make it a team's question
    ("Twee mensen zitten inmiddels thuis met spanningsklachten sinds het team in kampen uiteenviel", "team"),
    ("Weer een wijkverpleegkundige uit hetzelfde team overspannen thuis, de derde dit jaar", "team"),
    ("we zien dat de oudere operators veel vermoeidheidsklachten en verzuim hebben", "team"),
    ("Twee collega's hebben ruzie, een van hen is ziek gemeld", "werknemer"),
    ("Na de fusie werkt het nieuwe inkoopteam voor geen meter samen", "team"),
    ("werkdruk onderwijsteam", "team"),
    ("Hovenier is na een hersenbloeding weer begonnen en werkt trager dan zijn collega's", "werknemer"),
    ("Aan de balie drie incidenten met dreigende inwoners, een medewerker zit sinds een bedreiging thuis", "team"),
    ("Ik heb drie supermarkten met zo'n 25 vaste krachten, er wordt vaak kort verzuimd", "organisatie"),
    # a policy word is no absence
    ("geen verzuimprotocol, 45 mdw, verzuim 9% en iedereen doet maar wat", "organisatie"),
    ("ons verzuimbeleid is verouderd", "organisatie"),
    # a legal or procedural question is the employer's, also while someone is absent
    ("UWV legt loonsanctie op van 52 wkn terwijl het verslag klopte, bezwaar maken?", "organisatie"),
    ("Het UWV heeft bij de WIA-aanvraag van onze planner een loonsanctie van een jaar opgelegd", "organisatie"),
    ("monteur 22 maanden ziek stelt een vaststellingsovereenkomst met transitievergoeding voor", "organisatie"),
    ("medewerker weigert passend werk, mag ik zn loon stopzetten?", "organisatie"),
    ("loonsanctie dreigt, het 2e spoor is te laat gestart bij deze werknemer", "werknemer"),
    ("Steigerbouwer is gisteren gevallen. Directie vraagt: moeten we dit melden?", "organisatie"),
    ("Ziekenhuisdirectie ziet het psychisch verzuim op alle afdelingen oplopen", "organisatie"),
    ("team heeft sinds de reorganisatie constant ruzie en er zijn er al 2 ziek", "team"),
    # wanting to know where it pinches is no training for the manager
    ("Wijkteam zit op 9% verzuim. Manager wil weten waar het precies knelt", "organisatie"),
    ("teamleider moet leren hoe hij een verzuimgesprek voert", "leidinggevende"),
    # a company's size and a hypothetical sick employee make it the organisation's
    ("Eigenaar installatiebedrijf, 30 man: niks op papier over ziekmelden, hoe benaderen we een zieke monteur?", "organisatie"),
])
def test_it_reads_who_the_question_is_about(text, subject):
    assert context_extract(text).subject == subject


@pytest.mark.parametrize(("text", "weeks", "status", "preventive", "urgent", "pattern"), INTENTS)
def test_it_reads_intent_words_into_phase_and_urgency(text, weeks, status, preventive, urgent, pattern):
    context = context_extract(text)
    assert context.absence_weeks == (pytest.approx(weeks, abs=0.05) if weeks is not None else None)
    assert (context.absence_status, context.preventive, context.urgent, context.absence_pattern) == (status, preventive, urgent, pattern)


@pytest.mark.django_db
@pytest.mark.parametrize(("query", "expected", "position"), [
    ("Lange termijn verzuim", {"Arbeidsdeskundig Onderzoek", "Re-Integratie 2e Spoor"}, 2),
    ("Crisis situatie", {"Traumaverwerking", "Bedrijfsmaatschappelijk werk"}, 3),
    ("Management problemen", {"Executive Coaching"}, 1),
])
def test_it_ranks_by_the_intent_of_a_short_phrase(query, expected, position):
    from search.pipeline.request import SearchRequest
    from search.pipeline.run import search_run

    names = [item.product.name for item in search_run(SearchRequest(query=query)).recommendations]
    assert expected <= set(names[:position]), names


@pytest.mark.parametrize(
    ("text", "names_a_matter"),
    [
        ("Orderpicker zit sinds drie weken thuis met rugklachten", True),  # an absence, a body region
        ("Caissière is zwanger en werkt nog volledig", True),  # an occasion, at work
        ("Hoe voorkomen we uitval in ons team?", True),  # prevention
        ("De printer op de tweede verdieping geeft steeds een papierstoring", False),
        ("Kun je een contract opstellen voor de nieuwe schoonmaakleverancier?", False),
    ],
)
def test_it_tells_whether_a_text_names_any_matter_of_health_absence_or_work(text, names_a_matter):
    assert context_extract(text).names_a_matter is names_a_matter
