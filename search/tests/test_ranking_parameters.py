"""Table-driven tests of the stage-2 score functions and their named parameters (no database)."""

import math
from dataclasses import replace

import pytest

from catalog.models import Audience, Category, Delivery, Phase, Product
from search.pipeline.context import SituationContext, context_extract
from search.pipeline.evidence import choose_citations, citation_score
from search.pipeline.ranking.criteria import (
    audience_mismatch,
    delivery_mismatch,
    feasibility_score,
    fit_score,
    impact_saturated,
    past_window,
    phase_suitability,
    rank_criteria,
)
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.ranking.signals import guideline_strength, topical_scores
from search.pipeline.retrieval import Candidate
from search.pipeline.types import CitedChunk, Scored


def _product(**fields) -> Product:
    defaults = {"name": "p", "phase": Phase.KORT_VERZUIM, "audience": Audience.WERKNEMER, "delivery": Delivery.BEIDE,
                "target_roles": [], "sectors": [], "absence_weeks_min": None, "absence_weeks_max": None, "time_to_start_days": None}
    return Product(**{**defaults, **fields})


def _context(**fields) -> SituationContext:
    return SituationContext(**fields)


ABSENT_26 = {"absence_weeks": 26.0, "absence_status": "verzuim"}
ABSENT_1 = {"absence_weeks": 1.0, "absence_status": "verzuim"}


@pytest.mark.parametrize(("product", "context", "expected"), [
    ({"absence_weeks_max": 0}, ABSENT_26, DEFAULT.at_work_product_when_absent),  # a workshop for people still working
    ({"absence_weeks_max": 0}, {"absence_status": "verzuim"}, DEFAULT.at_work_product_when_absent_unknown),
    ({"absence_weeks_min": 0, "absence_weeks_max": 6}, ABSENT_26, DEFAULT.past_window_floor),  # far past a 6-week window
    ({"absence_weeks_min": 0, "absence_weeks_max": 20}, ABSENT_26, 0.55),  # 6 weeks past a 20-week window: 0.7 − 0.5 × 0.3
    ({"absence_weeks_min": 13}, ABSENT_1, DEFAULT.before_long_track),  # a long-absence track in the first week
    ({"absence_weeks_min": 4}, ABSENT_1, DEFAULT.before_window),
    ({"absence_weeks_min": 0, "absence_weeks_max": 52}, ABSENT_26, 1.0),
    ({}, {"absence_status": "verzuim"}, DEFAULT.absent_unknown_duration),
    ({"absence_weeks_min": 13}, {"preventive": True}, DEFAULT.prevention_long_track),
    ({"phase": Phase.RE_INTEGRATIE}, {"preventive": True}, DEFAULT.prevention_absence_product),
    # a workplace assessment open from day one also prevents; one that waits for an absence does not
    ({"phase": Phase.RE_INTEGRATIE, "category": Category.ARBEIDSOMSTANDIGHEDEN}, {"preventive": True}, 1.0),
    ({"phase": Phase.RE_INTEGRATIE, "category": Category.ARBEIDSOMSTANDIGHEDEN, "absence_weeks_min": 4}, {"preventive": True}, DEFAULT.prevention_absence_product),
    ({"phase": Phase.KORT_VERZUIM}, {"preventive": True}, DEFAULT.prevention_short_absence_product),
    # someone still at work without a prevention question: an early-absence product fits as little
    ({"phase": Phase.KORT_VERZUIM, "absence_weeks_max": 6}, {"absence_status": "aan het werk"}, DEFAULT.prevention_short_absence_product),
    # an early-absence product whose window opens on a day of absence (a home visit, mediation during absence)
    ({"phase": Phase.KORT_VERZUIM, "absence_weeks_min": 0, "absence_weeks_max": 26}, {"absence_status": "aan het werk"}, DEFAULT.prevention_absence_product),
    ({"phase": Phase.KORT_VERZUIM, "absence_weeks_min": 1, "absence_weeks_max": 104}, {"preventive": True}, DEFAULT.prevention_absence_product),
    ({"phase": Phase.PREVENTIE, "absence_weeks_max": 26}, {"absence_status": "aan het werk"}, 1.0),
    ({"phase": Phase.PREVENTIE}, {"preventive": True}, 1.0),
    # back at work: a product only for people at work fits; relapse prevention only after an earlier absence;
    # a re-integration product that starts from day one (jobcoaching) fits someone who has returned
    ({"phase": Phase.PREVENTIE, "absence_weeks_max": 0}, {"absence_status": "aan het werk"}, 1.0),
    ({"phase": Phase.RE_INTEGRATIE, "absence_weeks_min": 0, "absence_weeks_max": 0}, {"preventive": True}, DEFAULT.prevention_absence_product),
    ({"phase": Phase.RE_INTEGRATIE, "absence_weeks_min": 0, "absence_weeks_max": 0}, {"absence_status": "aan het werk", "absence_pattern": "terugval"}, 1.0),
    ({"phase": Phase.RE_INTEGRATIE}, {"absence_status": "aan het werk", "absence_pattern": "terugval"}, 1.0),
    ({"phase": Phase.RE_INTEGRATIE}, {"absence_status": "aan het werk"}, DEFAULT.prevention_absence_product),
    ({"phase": Phase.LANG_VERZUIM, "absence_weeks_min": 2}, {"absence_status": "aan het werk", "absence_pattern": "terugval"}, DEFAULT.returned_long_absence_product),
    ({"phase": Phase.LANG_VERZUIM, "absence_weeks_min": 2}, {"absence_status": "aan het werk"}, DEFAULT.prevention_absence_product),
    ({"phase": Phase.RE_INTEGRATIE, "absence_weeks_min": 26}, {"absence_status": "aan het werk", "absence_pattern": "terugval"}, DEFAULT.prevention_long_track),
    ({"absence_weeks_min": 13}, {}, DEFAULT.unknown_phase_long_track),
    ({}, {}, DEFAULT.unknown_phase),
])
def test_it_scores_phase_suitability(product, context, expected):
    score, why = phase_suitability(_product(**product), _context(**context))
    assert score == pytest.approx(expected)
    assert isinstance(why, str)


@pytest.mark.parametrize(("product", "context", "expected"), [
    ({"absence_weeks_max": 6}, {"absence_weeks": 10.0, "absence_status": "verzuim"}, True),  # an early consult at 10 weeks
    ({"absence_weeks_max": 6}, {"absence_weeks": 4.0, "absence_status": "verzuim"}, False),
    ({"absence_weeks_max": 6}, {"absence_status": "verzuim"}, False),  # how long is not known
    ({"absence_weeks_max": None}, ABSENT_26, False),
    ({"absence_weeks_max": 0}, ABSENT_26, False),  # for people at work: phase suitability deals with that
])
def test_it_tells_when_the_absence_has_run_past_the_products_window(product, context, expected):
    assert past_window(_product(**product), _context(**context)) is expected


@pytest.mark.parametrize(("weeks", "carries"), [(10.0, False), (4.0, True)])
def test_it_carries_the_judged_situations_vote_for_a_product_only_within_its_window(weeks, carries):
    """Votes for an early consult come from situations without a duration; judges who knew it was past the window kept it out."""
    context = _context(absence_weeks=weeks, absence_status="verzuim")

    def impact(precedent: float) -> float:
        item = Scored(product=_product(name="Vroegconsult", absence_weeks_min=None, absence_weeks_max=6), similarity=0.3, topical=0.3, precedent=precedent)
        return rank_criteria([item], context, {})[0].scores["impact"]

    assert (impact(1.0) > impact(0.0)) is carries
    assert impact(-1.0) < impact(0.0)  # a vote against always counts


@pytest.mark.parametrize(("product", "context", "expected"), [
    # audience 1.0, roles and sectors unknown (0.75), suitability 1, delivery 1: 0.45 + 0.15 + 0.075 + 0.15 + 0.1
    ({}, {"subject": "werknemer"}, 0.925),
    # help for the organisation when the question names one employee (0.6: such a question is often about
    # the organisation after all: an accident to investigate, an absence protocol), everything else alike
    ({"audience": Audience.ORGANISATIE}, {"subject": "werknemer"}, 0.45 * 0.6 + 0.15 + 0.075 + 0.15 + 0.1),
    # a product for other roles and other sectors is damped as a whole (× 0.45)
    ({"target_roles": ["chauffeur"], "sectors": ["bouw"]}, {"subject": "werknemer", "roles": ["docent"], "sector": "onderwijs"},
     (0.45 + 0.2 * 0.2 + 0.1 * 0.2 + 0.15 + 0.1) * 0.45),
    # home workers: an on-site product fits less (0.6)
    ({"delivery": Delivery.OP_LOCATIE}, {"subject": "werknemer", "roles": ["thuiswerker"]}, 0.45 + 0.2 * 0.75 + 0.075 + 0.15 + 0.1 * 0.6),
    # the catalog's own words for a role or sector meet the labels read from the text: named (1.0) on both
    ({"target_roles": ["buschauffeur"], "sectors": ["openbaar vervoer"]}, {"subject": "werknemer", "roles": ["chauffeur"], "sector": "transport"},
     0.45 + 0.2 + 0.1 + 0.15 + 0.1),
    ({"target_roles": ["magazijnmedewerker"], "sectors": ["logistiek"]}, {"subject": "werknemer", "roles": ["productiemedewerker"], "sector": "logistiek"},
     0.45 + 0.2 + 0.1 + 0.15 + 0.1),
])
def test_it_scores_fit(product, context, expected):
    assert fit_score(_product(**product), _context(**context), 1.0) == pytest.approx(expected)


def test_it_stops_damping_the_fit_when_the_mismatch_rule_is_switched_off():
    product = _product(target_roles=["chauffeur"], sectors=["bouw"])
    context = _context(subject="werknemer", roles=["docent"], sector="onderwijs")
    rule_off = replace(DEFAULT, mismatch_roles_and_sectors=1.0)
    assert fit_score(product, context, 1.0, rule_off) == pytest.approx(fit_score(product, context, 1.0) / 0.45)


@pytest.mark.parametrize(("situation", "damping"), [
    ("Caissière in de supermarkt heeft last van haar pols", DEFAULT.mismatch_roles_and_sectors),
    ("Kok in een restaurant heeft last van zijn pols", DEFAULT.mismatch_roles_and_sectors),
    ("Beleidsmedewerker op kantoor heeft last van haar pols", 1.0),
    ("Medewerker heeft last van zijn pols", 1.0),
])
def test_it_damps_office_only_help_for_shop_and_kitchen_staff(situation, damping):
    online_check = _product(target_roles=["kantoorfunctie", "thuiswerker"], sectors=["kantoor", "ict"])
    assert audience_mismatch(online_check, context_extract(situation)) == damping


NOT_URGENT, URGENT = DEFAULT.speed_weight, DEFAULT.speed_weight_urgent


@pytest.mark.parametrize(("situation", "delivery", "damping"), [
    ("Medewerker is slechtziend geworden en kan zijn scherm niet meer lezen", Delivery.ONLINE, DEFAULT.mismatch_online_on_site),
    ("BA wil dat iemand de cabine ter plekke bekijkt", Delivery.ONLINE, DEFAULT.mismatch_online_on_site),
    # an eye disease, or screens that cannot be read any more
    ("Financial controller met maculadegeneratie wil terug", Delivery.ONLINE, DEFAULT.mismatch_online_on_site),
    ("Ze kan de schermen en cijfers niet meer goed lezen", Delivery.ONLINE, DEFAULT.mismatch_online_on_site),
    ("BA wil dat iemand de cabine ter plekke bekijkt", Delivery.BEIDE, 1.0),
    ("Thuiswerker met nekklachten door de laptop", Delivery.ONLINE, 1.0),
])
def test_it_damps_online_only_help_where_it_must_come_on_site(situation, delivery, damping):
    assert delivery_mismatch(_product(delivery=delivery), context_extract(situation)) == damping


SCREEN_ROLES = ["kantoorfunctie", "thuiswerker", "klantenservice"]


@pytest.mark.parametrize(("situation", "audience", "target_roles", "damping"), [
    # an online workplace check for screen workers cannot see a till, a truck cabin or a warehouse
    ("polsklachten caissière", Audience.WERKNEMER, SCREEN_ROLES, DEFAULT.mismatch_online_on_site),
    ("werkplek cabine vrachtwagen", Audience.WERKNEMER, SCREEN_ROLES, DEFAULT.mismatch_online_on_site),
    ("Glazenwasser met een tennisarm", Audience.WERKNEMER, SCREEN_ROLES, DEFAULT.mismatch_online_on_site),
    ("Toneeltechnicus heeft schouderpijn van het ophangen van decor", Audience.WERKNEMER, SCREEN_ROLES, DEFAULT.mismatch_online_on_site),
    ("Planner thuiszorg werkt deels thuis aan de keukentafel en heeft last van nek en pols", Audience.WERKNEMER, SCREEN_ROLES, 1.0),
    ("Medewerker van de klantenservice heeft nekklachten", Audience.WERKNEMER, SCREEN_ROLES, 1.0),
    ("nekklachten", Audience.WERKNEMER, SCREEN_ROLES, 1.0),  # no role named: nothing out of reach
    ("polsklachten caissière", Audience.WERKNEMER, ["alle functies"], 1.0),  # online help for everyone
    ("polsklachten caissière", Audience.ORGANISATIE, ["hr-adviseur"], 1.0),  # the roles of who asks, not the employee's
])
def test_it_damps_online_help_for_other_roles_than_the_employees(situation, audience, target_roles, damping):
    product = _product(delivery=Delivery.ONLINE, audience=audience, target_roles=target_roles)
    assert delivery_mismatch(product, context_extract(situation)) == damping


@pytest.mark.parametrize(("raw", "expected"), [
    (-0.3, 0.0),
    (0.0, 0.0),
    (DEFAULT.impact_knee, DEFAULT.impact_knee),  # linear up to the knee
    (0.5, DEFAULT.impact_knee + (1 - DEFAULT.impact_knee) * (1 - math.exp(-(0.5 - DEFAULT.impact_knee) / (1 - DEFAULT.impact_knee)))),
])
def test_it_saturates_impact_smoothly_above_the_knee(raw, expected):
    assert impact_saturated(raw) == pytest.approx(expected)


def test_it_keeps_the_order_of_candidates_whose_impact_adds_up_past_one():
    # Cut off at 1 these three tied, and weaker scores chose among them.
    strong, stronger, strongest = (impact_saturated(raw) for raw in (1.1, 1.4, 1.8))
    assert strong < stronger < strongest < 1.0
    hard_cut = replace(DEFAULT, impact_knee=1.0)
    assert impact_saturated(1.1, hard_cut) == impact_saturated(1.8, hard_cut) == 1.0
    assert impact_saturated(0.7, hard_cut) == 0.7


@pytest.mark.parametrize(("days", "context", "expected"), [
    (0, {}, 1.0),
    (35, {}, 1 - NOT_URGENT),  # no speed at all: the non-urgent floor
    (35, ABSENT_1, 1 - URGENT),  # urgent and slow: little left
    (7, {"urgent": True}, URGENT * 0.8 + 1 - URGENT),  # an acute situation weighs speed like a short absence
    (None, {}, NOT_URGENT * (1 - 14 / 35) + 1 - NOT_URGENT),  # unknown start time counts as two weeks
])
def test_it_scores_feasibility(days, context, expected):
    assert feasibility_score(_product(time_to_start_days=days), _context(**context)) == pytest.approx(expected)


def test_it_weighs_the_three_stage_one_signals_into_a_topical_score():
    pool = [
        Candidate(1, similarity=0.42, lexical=8.0, matched_terms=3, coverage=0.9, wijzer_similarity=0.4, wijzer_lexical=0, wijzer_coverage=0.4),
        Candidate(2, similarity=0.12, lexical=0.0, matched_terms=0, coverage=0.0, wijzer_similarity=0.0, wijzer_lexical=0, wijzer_coverage=0.0),
    ]
    scores = topical_scores(pool, floor=0.12)
    assert scores[1] == pytest.approx(DEFAULT.topical_lexical + DEFAULT.topical_wijzer + DEFAULT.topical_similarity)  # best on every signal
    assert scores[2] == 0.0  # at the floor, no words, no wijzer line
    even = replace(DEFAULT, topical_lexical=0.25, topical_wijzer=0.25, topical_similarity=0.25)
    assert topical_scores(pool, floor=0.12, p=even)[1] == pytest.approx(0.75)  # the weights, not a normalisation
    weak_wijzer = [replace(pool[0], wijzer_similarity=0.1)]  # 0.1 + 0.5 × 0.4 = 0.3, not scaled up to a full match
    assert topical_scores(weak_wijzer, floor=0.12, p=even)[1] == pytest.approx(0.25 + 0.25 * 0.3 / 0.6 + 0.25)



def test_it_scales_products_found_only_by_a_rewrite_on_their_own_and_ranks_them_below_the_named_one():
    """"zwanger": the pregnancy consult matched the word; the rewrite's longer query gave others larger sums."""
    named = Candidate(1, similarity=0.29, lexical=13.0, matched_terms=1, coverage=1.0, wijzer_similarity=0.39, wijzer_lexical=10.0, wijzer_coverage=1.0)
    rewritten = Candidate(2, similarity=0.35, lexical=40.0, matched_terms=6, coverage=0.5, wijzer_similarity=0.45, wijzer_lexical=30.0, wijzer_coverage=1.0, widened=True)
    together = topical_scores([named, replace(rewritten, widened=False)], floor=0.12)
    assert together[2] > together[1]  # one scale for both: the rewrite's sums win
    scores = topical_scores([named, rewritten], floor=0.12)
    full = DEFAULT.topical_lexical + DEFAULT.topical_wijzer + DEFAULT.topical_similarity
    assert scores[1] == pytest.approx(full)  # the best of the specialist's own words
    assert scores[2] == pytest.approx(full * DEFAULT.widened_topical)  # the best of the rewrite, worth less
    assert topical_scores([rewritten], floor=0.12)[2] == pytest.approx(full)  # nothing named: the rewrite stands on its own

def _chunk(title: str, score: float, chunk_id: int = 0) -> CitedChunk:
    return CitedChunk(chunk_id, title, "NVAB", "1 Inleiding", "", score)


@pytest.mark.parametrize(("scores", "expected"), [
    ([("A", 0.7), ("A", 0.68), ("B", 0.61)], [("A", 0.7), ("B", 0.61)]),  # two guidelines before two passages of one
    ([("A", 0.7), ("A", 0.66)], [("A", 0.7), ("A", 0.66)]),  # a second passage of A clears the threshold by the margin
    ([("A", 0.7), ("A", 0.64)], [("A", 0.7)]),  # … this one does not
    ([("A", 0.59)], []),  # nothing above the threshold: no citation rather than a weak one
])
def test_it_chooses_citations(scores, expected):
    chunks = [_chunk(title, score, i) for i, (title, score) in enumerate(scores)]
    chosen = choose_citations(chunks, threshold=0.6)
    assert [(c.document_title, c.score) for c in chosen] == expected


def test_it_adds_subject_bonuses_to_a_citation_score_and_turns_it_into_backing(settings):
    assert citation_score(0.5, lexical=0.05, document_match=True) == pytest.approx(0.7)
    assert citation_score(0.5, lexical=0.0, document_match=False) == pytest.approx(0.5)
    settings.CITATION_MIN_SCORE = 0.6
    assert guideline_strength([]) == 0.5  # no passage on its subject: neither backed nor contradicted
    assert guideline_strength([_chunk("A", 0.6)]) == 0.5
    assert guideline_strength([_chunk("A", 0.9)]) == 1.0


@pytest.mark.django_db
def test_it_does_not_push_a_product_our_corpus_has_no_guideline_for_below_the_weakest_cited_one():
    """Executive coaching for a director working 70 hours a week: no guideline covers it, which once cost
    it 0.2 × its gate in relevance and put an early psychologist's consult for absent employees first."""
    from search.pipeline.request import SearchRequest
    from search.pipeline.run import search_run

    query = (
        "Onze algemeen directeur (58) zit midden in een fusie en werkt al maanden 70 uur per week. Hij is niet ziek, "
        "maar de raad van toezicht maakt zich zorgen over hoe lang hij dit volhoudt. Hij wil zelf wel met iemand "
        "sparren, maar dan buiten de organisatie."
    )
    names = [item.product.name for item in search_run(SearchRequest(query=query, mode="two-stage")).recommendations]
    assert "Executive Coaching" in names[:3]
