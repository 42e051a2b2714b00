"""The judged situations that stage 2 learns from: loading them, finding the closest, and their votes."""

import json
from dataclasses import replace

import pytest
from django.db import connection

from catalog.models import Product
from guidelines.models import GuidelineDocument
from search.answers import guideline_answer
from search.evaluation import judged_queries_read
from search.models import (
    Recommendation,
    ReferenceJudgement,
    ReferenceQuestion,
    ReferenceQuestionPlace,
    ReferenceSituation,
)
from search.pipeline import precedents as precedents_module
from search.pipeline.context import SituationContext
from search.pipeline.generation import cache_generation
from search.pipeline.passages import passages_retrieve
from search.pipeline.precedents import (
    PrecedentIndex,
    _occasion_missing,
    _out_of_window,
    _Row,
    precedents_for,
    same_text,
)
from search.pipeline.prerequisites import occasions_named
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.reference_situations import (
    ReferenceLoadError,
    reference_questions_load,
    reference_situations_load,
)
from search.services import feedback_vote_cast, search_perform

BACK, NECK, PSYCH, DEBT = 1, 2, 3, 4

ROWS = [
    _Row("a", "Werknemer met rug- en nekklachten, tilt veel", ((BACK, 2), (NECK, 1))),
    _Row("a", "Lage rugpijn bij een magazijnmedewerker", ((BACK, 2), (PSYCH, -1))),
    _Row("b", "Schulden en geldzorgen, loonbeslag dreigt", ((DEBT, 2),)),
    _Row("b", "Somber en overspannen na een reorganisatie", ((PSYCH, 2),)),
]


@pytest.mark.parametrize(
    ("query", "closest"),
    [
        ("rugklachten", 0),  # a compound finds the situation that names its parts
        ("rugpijn magazijn", 1),
        ("geldzorgen", 2),
        ("overspannen", 3),
    ],
)
def test_it_finds_the_judged_situation_that_shares_the_words_parts(query, closest):
    similarities = PrecedentIndex(ROWS).similarities(query)
    assert max(similarities, key=similarities.get) == closest


@pytest.mark.parametrize(("exponent", "closest"), [(0.0, "directeur overbelast"), (0.2, "zorgt voor dementerende vader")])
def test_it_lets_a_short_judged_text_count_for_less_against_a_longer_question(exponent, closest):
    """Two words make one shared word nearly a short text's whole vector; its cosine is scaled by its share of the words."""
    rows = [
        _Row("a", "directeur overbelast", ((1, 2),)),
        _Row("b", "zorgt voor dementerende vader", ((2, 2),)),
        *ROWS,
    ]
    index = PrecedentIndex(rows, shorter_text_exponent=exponent)
    scores = index.similarities("Medewerker heeft een vader die dementeert en raakt overbelast")
    assert rows[max(scores, key=scores.get)].text == closest
    # a question no longer than the judged text keeps its plain cosine
    plain = PrecedentIndex(rows, shorter_text_exponent=0.0)
    assert index.similarities("directeur overbelast")[0] == pytest.approx(plain.similarities("directeur overbelast")[0])


@pytest.mark.parametrize(("trade_weight", "closest"), [(1.0, "2e spoor dakdekker"), (0.5, "hitte op het dak, zonnesteek bij collega's")])
def test_it_weighs_what_is_the_matter_over_who_someone_is(trade_weight, closest):
    rows = [_Row("a", "2e spoor dakdekker", ((1, 2),)), _Row("b", "hitte op het dak, zonnesteek bij collega's", ((2, 2),))]
    index = PrecedentIndex(rows, trade_weight=trade_weight)
    similarities = index.similarities("hitte dakdekkers")
    assert index.rows[max(similarities, key=similarities.get)].text == closest


def test_it_scales_a_longer_judged_text_down_only_when_asked():
    """A few words are as close to any longer judged text that contains them; on request that text counts by its share."""
    rows = [_Row("a", "Monteur in onze fietsenwerkplaats heeft een tennisarm en kan geen banden meer wisselen", ((1, 2),))]
    index = PrecedentIndex(rows)
    plain = index.similarities("banden wisselen")[0]
    scaled = index.similarities("banden wisselen", longer_text_exponent=0.2)[0]
    assert scaled == pytest.approx(plain * (2 / 13) ** 0.2)  # 2 words against 13
    # a text as long as the judged one keeps its cosine
    long_text = rows[0].text
    assert index.similarities(long_text, longer_text_exponent=0.2)[0] == pytest.approx(index.similarities(long_text)[0])


def test_it_turns_the_closest_judgements_into_votes_with_forbidden_products_against():
    found = PrecedentIndex(ROWS).precedents("rugklachten bij tillen in het magazijn", p=replace(DEFAULT, precedent_neighbours=2))
    assert found.votes[BACK] > found.votes[NECK] > 0
    assert found.votes[PSYCH] < 0  # one close situation keeps the psychologist out of its top 3
    assert DEBT not in found.votes  # only the two closest vote
    assert found.votes[BACK] <= 1.0
    assert found.examples[BACK][0].startswith(("Werknemer met rug", "Lage rugpijn"))
    assert PSYCH not in found.examples


def test_it_keeps_a_vote_against_what_was_tried_to_situations_where_it_was_tried():
    """"AD-rapport is binnen" keeps the AD report out of that top 3, not out of one where it is still needed."""
    ad_report, second_track = 5, 6
    index = PrecedentIndex([
        _Row("a", "AD-rapport is binnen: geen passend werk intern", ((second_track, 2), (ad_report, -1)), {ad_report: frozenset({"arbeidsdeskundig onderzoek"})}),
    ])
    assert ad_report not in index.precedents("AD-rapport nodig voor passend werk intern").votes
    tried_too = index.precedents("AD-rapport is binnen, geen passend werk", context=SituationContext(tried_interventions=["arbeidsdeskundig onderzoek"]))
    assert tried_too.votes[ad_report] < 0


def test_it_keeps_a_vote_against_a_product_for_want_of_its_occasion_out_where_the_occasion_is_named():
    """"Partner overleden" keeps carers' support out of its top 3 because nobody needs care; a sick partner does."""
    grief, carers = 5, 6
    missing = _occasion_missing(occasions_named("partner overleden"), [(grief, 2), (carers, -1)], {grief: "Rouwbegeleiding", carers: "Mantelzorgondersteuning"})
    assert missing == {carers: frozenset({"zorg voor een naaste"})}
    index = PrecedentIndex([_Row("a", "partner overleden", ((grief, 2), (carers, -1)), occasion_missing=missing)])
    assert carers not in index.precedents("zieke partner", context=SituationContext(occasions=["zorg voor een naaste"])).votes
    assert index.precedents("partner mdw overleden", context=SituationContext(occasions=["een overlijden of verlies"])).votes[carers] < 0


def test_it_keeps_a_vote_against_a_product_at_one_time_of_the_absence_out_of_another():
    """A second track kept out at 10 weeks is kept out because it is too early, not at 40 weeks."""
    consult, second_track = 5, 6
    windows = {consult: (None, 13), second_track: (26, 104)}
    out = _out_of_window(10.0, [(consult, 2), (second_track, -1)], windows)
    assert out == {second_track: (26, 104)}
    assert _out_of_window(None, [(second_track, -1)], windows) == {}  # no known time, no timing judgement
    # at the window's end the track is over: "104 wk ziek, IVA toegekend" keeps it out for timing too
    assert _out_of_window(104.0, [(second_track, -1)], windows) == {second_track: (26, 104)}
    index = PrecedentIndex([_Row("a", "chauffeur mag niet rijden, 10 weken ziek", ((consult, 2), (second_track, -1)), out_of_window=out)])
    assert second_track not in index.precedents("chauffeur mag niet rijden, 40 weken ziek", context=SituationContext(absence_weeks=40.0)).votes
    assert index.precedents("chauffeur mag niet rijden, 8 weken ziek", context=SituationContext(absence_weeks=8.0)).votes[second_track] < 0
    assert index.precedents("chauffeur mag niet rijden").votes[second_track] < 0


WORKSHOP, RECOVERY = 5, 6


@pytest.mark.parametrize(
    ("query", "kept_out"),
    [
        ("burn-out", True),
        ("burnout preventie", False),
        ("burn-out voorkomen in het team", False),
    ],
)
def test_it_carries_a_vote_against_over_only_where_no_prevention_is_asked_for(query, kept_out):
    """"No prevention workshop for someone with burn-out" says nothing where prevention is asked for."""
    index = PrecedentIndex([_Row("a", "burn-out", ((RECOVERY, 2), (WORKSHOP, -1)))])
    assert (index.precedents(query).votes.get(WORKSHOP, 0.0) < 0) is kept_out


def test_it_keeps_the_votes_against_of_a_judged_prevention_question_for_one():
    index = PrecedentIndex([_Row("a", "burn-out preventie", ((WORKSHOP, 2), (RECOVERY, -1)), prevention=True)])
    votes = index.precedents("burnout preventie voor het team").votes
    assert votes[RECOVERY] < 0 < votes[WORKSHOP]


def test_it_lets_more_than_the_single_closest_judged_line_vote_for_a_query_of_a_few_words():
    """"val van ladder" should not follow the one judged concussion after a ladder fall alone."""
    neuro, physio = 5, 6
    index = PrecedentIndex([
        _Row("a", "val van ladder, hersenschudding", ((neuro, 2),)),
        _Row("b", "na een val van de trap polsklachten", ((physio, 2),)),
    ])
    narrow = replace(DEFAULT, precedent_temperature_short=DEFAULT.precedent_temperature)
    short, long_ = "val van ladder", "val van ladder op het werk, wat nu"
    assert index.precedents(short).votes[physio] > index.precedents(short, p=narrow).votes.get(physio, 0.0)
    assert index.precedents(long_).votes.get(physio, 0.0) == index.precedents(long_, p=narrow).votes.get(physio, 0.0)


def test_it_gives_no_votes_when_no_judged_situation_is_alike():
    assert PrecedentIndex(ROWS).precedents("kerstboom kopen in december").votes == {}


def test_it_leaves_the_held_out_source_out_of_the_votes():
    index = PrecedentIndex(ROWS)
    assert BACK in index.precedents("rugklachten").votes
    assert BACK not in index.precedents("rugklachten", held_out_source="a").votes


def _write(tmp_path, name, lines) -> object:
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.django_db
def test_it_loads_a_judged_set_idempotently_and_follows_the_file(tmp_path):
    lines = [
        {"id": "t-1", "query": "Zwangere verpleegkundige met bekkenklachten", "rel": {"Overgangsconsultatie": 1, "Bedrijfsfysiotherapie": 2}, "forbid": ["Re-Integratie 2e Spoor"]},
        {"id": "t-2", "query": "Conflict met de leidinggevende", "rel": {"Mediation Bij Ziekteverzuim": 2}},
        {"id": "t-3", "query": "kerstboom kopen", "rel": {}, "expect_empty": True},  # judged to need no advice
        {"id": "t-4", "query": "rugpijn", "rel": {"Psycholoog": 0}},  # says nothing either way
    ]
    path = _write(tmp_path, "eigen_set", lines)
    first = reference_situations_load(path=path)
    assert (first.created, first.updated, first.unchanged, first.removed) == (3, 0, 0, 0)
    situation = ReferenceSituation.objects.get(source="eigen_set", external_id="t-1")
    grades = {j.product.name: j.grade for j in situation.judgements.select_related("product")}
    assert grades == {"Overgangsconsultatie": 1, "Bedrijfsfysiotherapie": 2, "Re-Integratie 2e Spoor": -1}
    assert not ReferenceSituation.objects.get(source="eigen_set", external_id="t-3").judgements.exists()
    assert not ReferenceSituation.objects.filter(source="eigen_set", external_id="t-4").exists()

    again = reference_situations_load(path=path)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)

    lines[1]["rel"] = {"Mediation Bij Ziekteverzuim": 2, "Gespreksbegeleiding": 1}
    changed = reference_situations_load(path=_write(tmp_path, "eigen_set", lines[1:]))
    assert (changed.updated, changed.removed) == (1, 1)
    assert list(ReferenceSituation.objects.filter(source="eigen_set").values_list("external_id", flat=True)) == ["t-2", "t-3"]
    assert ReferenceJudgement.objects.filter(situation__source="eigen_set").count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"id": "t-1", "query": "rugpijn", "rel": {"Bestaat Niet": 2}}, "onbekend product 'Bestaat Niet'"),
        ({"id": "t-1", "query": "rugpijn", "rel": {"Psycholoog": 3}}, "oordeel moet 0, 1 of 2 zijn"),
        ({"query": "rugpijn", "rel": {"Psycholoog": 2}}, "verwacht id, query en rel"),
    ],
)
def test_it_refuses_a_bad_judged_set_whole_with_a_dutch_message(tmp_path, line, message):
    good = {"id": "t-0", "query": "Somber en overspannen", "rel": {"Psycholoog": 2}}
    path = _write(tmp_path, "kapot", [good, line])
    with pytest.raises(ReferenceLoadError, match=message):
        reference_situations_load(path=path)
    assert not ReferenceSituation.objects.filter(source="kapot").exists()


@pytest.mark.django_db(transaction=True)
def test_it_learns_a_situation_an_admin_judges_from_the_next_search_on(demo_data, client, staff):
    tolk = Product.objects.get(name="Tolk")
    before = cache_generation()
    client.force_login(staff)
    response = client.post(
        "/admin/search/referencesituation/add/",
        {
            "source": "beheer",
            "external_id": "1",
            "text": "zzkwartelkoning qqfluitketel xxboomklever yyzeearend",
            "is_active": "on",
            "judgements-TOTAL_FORMS": "1",
            "judgements-INITIAL_FORMS": "0",
            "judgements-0-product": tolk.id,
            "judgements-0-grade": "2",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert cache_generation() > before  # the committed change advanced the generation …
    assert precedents_for("zzkwartelkoning qqfluitketel xxboomklever yyzeearend").votes == {tolk.id: 1.0}  # … so the index was rebuilt

    ReferenceSituation.objects.filter(source="beheer").update(is_active=False)
    assert precedents_for("zzkwartelkoning qqfluitketel xxboomklever yyzeearend").votes == {}


@pytest.mark.django_db
def test_it_recommends_what_specialists_chose_for_a_similar_situation_and_says_so(fresh_precedent_index):
    # A product for no particular occasion (search.pipeline.prerequisites), which stage 1 does not find here.
    query = "Medewerker vertrekt binnenkort voor lange tijd naar het buitenland en slaapt er slecht van, wat moeten we regelen"
    situation = ReferenceSituation.objects.create(source="proef", external_id="1", text="Medewerker vertrekt lange tijd naar het buitenland, wat regelen")
    ReferenceJudgement.objects.create(situation=situation, product=Product.objects.get(name="Loopbaancoaching"), grade=2)
    without = [item.product.name for item in search_run(SearchRequest(query=query), params=replace(DEFAULT, precedent_weight=0)).recommendations]
    outcome = search_run(SearchRequest(query=query))
    names = [item.product.name for item in outcome.recommendations]
    assert without and "Loopbaancoaching" not in without
    assert "Loopbaancoaching" in names
    chosen = outcome.recommendations[names.index("Loopbaancoaching")]
    assert chosen.precedent > 0
    assert "vergelijkbare beoordeelde situaties" in chosen.reasoning

    held_out = search_run(SearchRequest(query=query, held_out_source="proef"))
    assert "Loopbaancoaching" not in [item.product.name for item in held_out.recommendations]


@pytest.mark.django_db
def test_it_gives_no_advice_for_a_search_like_a_line_judged_to_need_none(fresh_precedent_index, client, staff):
    """Judged situations without products (a laptop virus, a lease dispute) silence searches much closer to one of
    them than to any judged situation with products, also where a catalog word matches ("mediation"); a health
    matter in the same words keeps its advice."""
    ReferenceSituation.objects.filter(judgements__isnull=True).update(is_active=False)  # the demo's own such lines
    office = ["virus op de laptop van de receptie", "mediation met de verhuurder over het huurcontract"]
    health = ["na virus langdurig moe", "nekklachten sinds de verhuizing naar het nieuwe kantoor"]

    def advised(query: str, **options) -> bool:
        return bool(search_run(SearchRequest(query=query, **options)).recommendations)

    assert all(advised(query) for query in office + health)
    for number, text in enumerate(["virus op laptop", "mediation met de verhuurder over de huur van het pand", "kantoor verhuizen"]):
        ReferenceSituation.objects.create(source="proef", external_id=str(number), text=text)
    precedents_module._cached.clear()  # written in this test's transaction: the generation has not advanced
    assert not any(advised(query) for query in office)
    assert all(advised(query) for query in health)
    assert all(advised(query, held_out_source="proef") for query in office), "held out, the judged lines do not count"
    assert advised(office[1], mode="hybrid"), "stage 1 alone does not learn from judged situations"
    client.force_login(staff)
    listing = client.get("/admin/search/referencesituation/", {"source": "proef"}).content.decode()
    assert "Geen advies (buiten het domein)" in listing
    assert listing.count('alt="True"') == 6  # each of the three: active, and needing no advice


@pytest.mark.django_db
def test_it_measures_a_judged_set_with_its_own_situations_left_out(settings, fresh_precedent_index):
    path = settings.BASE_DIR / "search" / "eval" / "short_phrasings.jsonl"
    judged = judged_queries_read(path)[0]
    assert judged.source == "short_phrasings"
    own = ReferenceSituation.objects.get(source="short_phrasings", external_id=judged.id)
    index = precedents_module.precedent_index()
    assert max(index.similarities(judged.query).values()) == pytest.approx(1.0)
    held_out = index.similarities(judged.query, held_out_source="short_phrasings")
    assert all(index.rows[i].source != own.source for i in held_out)


@pytest.mark.django_db
def test_it_reads_only_the_generation_while_the_data_is_unchanged():
    first = precedents_module.precedent_index()
    queries = []

    def record(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        assert precedents_module.precedent_index() is first
    assert len(queries) == 1


@pytest.mark.django_db
def test_it_makes_a_voted_search_a_judged_situation_that_later_searches_learn_from(owner, fresh_precedent_index, settings):
    query = "Medewerker vertrekt binnenkort voor lange tijd naar het buitenland en slaapt er slecht van, wat moeten we regelen"
    outcome = search_perform(request=SearchRequest(query=query), user=owner)
    first, second = Recommendation.objects.filter(search_id=outcome.search_id).order_by("rank")[:2]
    feedback_vote_cast(user=owner, recommendation_id=first.id, value=1)
    feedback_vote_cast(user=owner, recommendation_id=second.id, value=-1)
    situation = ReferenceSituation.objects.get(source="feedback", external_id=str(outcome.search_id))
    assert situation.text == query
    assert dict(situation.judgements.values_list("product_id", "grade")) == {first.product_id: 1, second.product_id: -1}

    precedents_module._cached.clear()
    votes = precedents_for(query).votes
    assert votes[first.product_id] > 0 > votes[second.product_id]
    settings.FEEDBACK_LEARNING_ENABLED = False  # the votes' switch also silences their situations
    precedents_module._cached.clear()
    index = precedents_module.precedent_index()
    assert not any(index.rows[i].source == "feedback" for i in index.similarities(query))

    feedback_vote_cast(user=owner, recommendation_id=first.id, value=-1)
    feedback_vote_cast(user=owner, recommendation_id=second.id, value=1)
    assert dict(situation.judgements.values_list("product_id", "grade")) == {first.product_id: -1, second.product_id: 1}


ARBOWET_SUMMARY = "Arbowet: zorgplicht, RI&E, deskundige bijstand en psychosociale arbeidsbelasting"


@pytest.mark.django_db
def test_it_loads_judged_guideline_questions_and_refuses_a_place_without_an_article(tmp_path):
    lines = [
        {"id": "v-1", "query": "Wie mag preventiemedewerker zijn?", "expect": [{"doc": "Arbeidsomstandighedenwet", "art": ["13"]}]},
        {"id": "v-2", "query": "Hoeveel vakantiedagen heb ik?", "expect": []},  # unanswerable: kept without a place
    ]
    report = reference_questions_load(path=_write(tmp_path, "wetvragen", lines))
    assert (report.created, report.unchanged) == (2, 0)
    answered = ReferenceQuestion.objects.get(source="wetvragen", external_id="v-1")
    assert list(answered.places.values_list("document_title", "article")) == [("Arbeidsomstandighedenwet", "13")]
    assert not ReferenceQuestion.objects.get(source="wetvragen", external_id="v-2").places.exists()
    assert reference_questions_load(path=_write(tmp_path, "wetvragen", lines)).unchanged == 2

    lines.append({"id": "v-3", "query": "Wat zegt de wet?", "expect": [{"doc": "Arbeidsomstandighedenwet", "art": []}]})
    with pytest.raises(ReferenceLoadError, match="v-3: geen artikel"):
        reference_questions_load(path=_write(tmp_path, "wetvragen", lines))
    assert ReferenceQuestion.objects.filter(source="wetvragen").count() == 2


@pytest.mark.django_db
def test_it_raises_the_article_that_answers_the_most_similar_judged_question(fresh_precedent_index):
    ReferenceQuestion.objects.all().delete()
    question = "Welke taken heeft de preventiemedewerker in een klein bedrijf?"
    before = passages_retrieve(question).passages
    lower = next(p for p in before[3:] if p.document_title == ARBOWET_SUMMARY and p.article and p.article != before[0].article)
    judged = ReferenceQuestion.objects.create(source="proef", external_id="1", text="Welke taken heeft een preventiemedewerker in een klein bedrijf")
    ReferenceQuestionPlace.objects.create(question=judged, document_title=ARBOWET_SUMMARY, article=lower.article)
    precedents_module._cached.clear()

    after = passages_retrieve(question).passages
    place = [(p.document_title, p.article) for p in after].index((ARBOWET_SUMMARY, lower.article))
    assert place < before.index(lower)
    held_out = passages_retrieve(question, held_out_source="proef").passages
    assert [p.chunk_id for p in held_out] == [p.chunk_id for p in before]


@pytest.mark.django_db
def test_it_never_answers_a_question_the_corpus_cannot_answer_because_a_judged_one_is_alike(fresh_precedent_index):
    question = "Hoeveel vakantiedagen heb ik recht op bij een parttime contract?"
    assert not passages_retrieve(question).answers_question
    judged = ReferenceQuestion.objects.create(source="proef", external_id="1", text=question)
    ReferenceQuestionPlace.objects.create(question=judged, document_title=ARBOWET_SUMMARY, article="3")
    precedents_module._cached.clear()
    assert precedents_module.question_precedents(question).votes == {(ARBOWET_SUMMARY, "3"): 1.0}
    assert not passages_retrieve(question).answers_question


@pytest.mark.django_db
def test_it_answers_an_everyday_question_when_the_closest_judged_questions_vouch_for_a_cited_place(fresh_precedent_index):
    question = "Wie betaalt de kosten als de baas een dokter inschakelt?"
    before = passages_retrieve(question)
    assert before.passages and not before.answers_question
    place = next(p for p in before.best(3) if p.article)  # a vote names an article
    judged = ReferenceQuestion.objects.create(source="proef", external_id="1", text="Wie betaalt het als de baas een dokter inschakelt")
    ReferenceQuestionPlace.objects.create(question=judged, document_title=place.document_title, article=place.article)
    precedents_module._cached.clear()

    after = passages_retrieve(question)
    assert after.vouched >= 0.5 and after.closeness.answered >= 0.3
    assert after.answers_question
    assert not passages_retrieve(question, held_out_source="proef").answers_question


@pytest.mark.django_db
def test_it_abstains_when_the_closest_judged_question_is_one_the_corpus_cannot_answer(fresh_precedent_index):
    # (not "Hoe lang mag …": the judged unanswerable "hoe lang mag de proeftijd zijn" is close in letters to that)
    question = "Hoe vaak mag een werknemer met rugklachten achter elkaar zware dozen tillen?"
    assert passages_retrieve(question).answers_question
    ReferenceQuestion.objects.create(source="proef", external_id="1", text="Hoe vaak mag een werknemer met rugklachten achter elkaar zware dozen tillen")
    precedents_module._cached.clear()

    closer = passages_retrieve(question)
    assert closer.closeness.unanswerable > closer.closeness.answered
    assert not closer.answers_question
    assert passages_retrieve(question, held_out_source="proef").answers_question


@pytest.mark.django_db
def test_it_lets_an_admin_curate_judged_questions_with_their_places(client, staff):
    client.force_login(staff)
    listing = client.get("/admin/search/referencequestion/?source=law_questions_heldout2")
    assert listing.status_code == 200 and "h2q-01" in listing.content.decode()
    question = ReferenceQuestion.objects.get(source="law_questions_heldout2", external_id="h2q-01")
    page = client.get(f"/admin/search/referencequestion/{question.id}/change/").content.decode()
    assert "Vindplaatsen" in page and 'value="Arbeidsomstandighedenwet"' in page
    unanswerable = client.get("/admin/search/referencequestion/?source=unanswerable_questions").content.decode()
    assert "uq-01" in unanswerable and "geen: niet te beantwoorden uit het corpus" in unanswerable


@pytest.mark.django_db
def test_it_does_not_quote_the_specialists_own_words_back_as_a_similar_situation(fresh_precedent_index):
    query = "IC-verpleegkundige zit sinds vier maanden thuis met een burn-out, het herstel stagneert en ze is ook lichamelijk totaal op"  # judged_situations j-01 itself
    outcome = search_run(SearchRequest(query=query.upper() + "  "))
    chosen = [item for item in outcome.recommendations if item.precedent >= 0.25]
    assert chosen
    for item in chosen:
        assert all(not same_text(example, query) for example in item.precedent_examples)
        assert "zoals „" in item.reasoning or "precies deze situatie" in item.reasoning


@pytest.mark.django_db
def test_it_lets_a_judged_question_name_an_appendix_chapter_by_its_number(fresh_precedent_index, tmp_path):
    from django.core.management import call_command

    ReferenceQuestion.objects.all().delete()
    framework = tmp_path / "kader.md"
    framework.write_text(
        "## Proefkader re-integratie\n\n### Artikel 1\n\nDe bijlage is het kader.\n\n### Bijlage\n\n"
        "### 6 \n\n####Rol van dienstverleners\n\nDe casemanager en de arbodienst ondersteunen bij de re-integratie van de zieke werknemer.\n\n"
        "### 9 \n\n####Verplichtingen\n\nDe werkgever zoekt passend werk voor de zieke werknemer, ook bij een andere werkgever.\n",
        encoding="utf-8",
    )
    call_command("ingest_guidelines", str(framework), "--title", "Proefkader", "--source", "Proef", verbosity=0)
    question = "Wat doet de casemanager bij de re-integratie van een zieke werknemer?"
    retrieval = passages_retrieve(question)
    assert [p.places for p in retrieval.passages if p.document_title == "Proefkader"] == [("6",), ("9",)]
    assert retrieval.vouched == 0.0
    judged = ReferenceQuestion.objects.create(source="proef", external_id="1", text="Wat doet een casemanager bij de re-integratie van een zieke werknemer")
    ReferenceQuestionPlace.objects.create(question=judged, document_title="Proefkader", article="9")
    precedents_module._cached.clear()

    assert passages_retrieve(question).vouched == 1.0  # the vote for chapter 9 reaches its passage
    assert passages_retrieve(question, held_out_source="proef").vouched == 0.0


@pytest.mark.django_db
def test_it_adds_the_article_the_closest_judged_questions_agree_on_when_retrieval_missed_it(fresh_precedent_index):
    from guidelines.models import GuidelineChunk

    ReferenceQuestion.objects.all().delete()
    question = "Gelden de oude regels nog voor iemand die al ziek was voordat de nieuwe wet inging?"
    before = passages_retrieve(question)
    found = {(p.document_title, p.article) for p in before.passages}
    missed = next(
        c for c in GuidelineChunk.objects.filter(document__title=ARBOWET_SUMMARY).exclude(article="").order_by("ordinal")
        if (ARBOWET_SUMMARY, c.article) not in found
    )
    judged = ReferenceQuestion.objects.create(source="proef", external_id="1", text="Gelden de oude regels voor wie al ziek was voordat de wet inging")
    ReferenceQuestionPlace.objects.create(question=judged, document_title=ARBOWET_SUMMARY, article=missed.article)
    precedents_module._cached.clear()

    assert (ARBOWET_SUMMARY, missed.article) in [(p.document_title, p.article) for p in passages_retrieve(question).best(3)]
    held_out = passages_retrieve(question, held_out_source="proef")
    assert (ARBOWET_SUMMARY, missed.article) not in {(p.document_title, p.article) for p in held_out.passages}


@pytest.mark.django_db
def test_it_leaves_out_a_product_the_judged_situations_keep_out_even_when_few_qualify(settings, fresh_precedent_index):
    """A product whose impact the judged situations' votes bring to nothing is no recommendation: when
    fewer than three others qualify, the broad first steps fill the place it would have taken."""
    settings.SEARCH_SIMILARITY_FLOOR = 0.6
    settings.SEARCH_WEAK_FLOOR = 0.6
    settings.SEARCH_LEXICAL_FLOOR = 1000.0
    query = "Medewerker gokt en heeft daardoor schulden en geldproblemen"
    before = search_run(SearchRequest(query=query))
    found = [item for item in before.recommendations if not item.product.is_first_step]
    assert found and before.note  # few qualify: the first steps complete the advice
    kept_out = found[0].product
    for number in range(3):
        situation = ReferenceSituation.objects.create(source="proef", external_id=str(number), text=query)
        ReferenceJudgement.objects.create(situation=situation, product=kept_out, grade=-1)
    precedents_module._cached.clear()  # written in this test's transaction: the cache generation does not move
    after = search_run(SearchRequest(query=query))
    names = [item.product.name for item in after.recommendations]
    assert kept_out.name not in names
    assert len(names) == len(before.recommendations)
    assert search_run(SearchRequest(query=query, held_out_source="proef")).recommendations[0].product == before.recommendations[0].product


@pytest.mark.django_db
def test_it_takes_a_judged_law_question_as_evidence_only_where_the_corpus_holds_its_article(fresh_precedent_index):
    """With only the demo corpus, the judged questions on working at height (Arbobesluit, not ingested) do not
    make "werken op hoogte" answerable from office-chair passages; a question on the RI&E, an article the team's
    Arbowet summary explains, is still answered from it."""
    assert not GuidelineDocument.objects.filter(title="Arbeidsomstandighedenbesluit").exists()
    assert ReferenceQuestion.objects.filter(text__icontains="hoogte", places__document_title="Arbeidsomstandighedenbesluit").exists()
    assert guideline_answer("werken op hoogte", generate=False).citations == []
    risk_inventory = guideline_answer("Moet een werkgever een RI&E hebben?", generate=False)
    assert risk_inventory.citations and risk_inventory.citations[0].document_title.startswith("Arbowet:")
