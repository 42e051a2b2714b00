"""The `criteria` ranker: deterministic, explainable, offline.

Each score is a small rule over product metadata, the situation and the guideline evidence:
- impact: how squarely the product addresses the problem (stage-1 topical match), times how well
  its phase suits the absence (a prevention workshop does little for someone absent for months;
  a 2e-spoor track is meaningless for a prevention question);
- fit: who it is for (employee, manager, team, organisation) against who the question is about,
  the role and sector tags, the absence window and home-working constraints;
- guidelines: how strongly the best guideline passage backs the product in this situation;
- feasibility: how soon it can start, weighted more when the absence is short or the situation acute.
"""

from catalog.models import Audience, Delivery, Phase, Product
from search.pipeline.context import SituationContext, format_weeks
from search.pipeline.types import Scored, clamp

AUDIENCE_FIT = {
    "onbekend": {Audience.WERKNEMER: 0.85, Audience.LEIDINGGEVENDE: 0.7, Audience.TEAM: 0.85, Audience.ORGANISATIE: 0.75},
    "werknemer": {Audience.WERKNEMER: 1.0, Audience.LEIDINGGEVENDE: 0.45, Audience.TEAM: 0.35, Audience.ORGANISATIE: 0.25},
    "leidinggevende": {Audience.LEIDINGGEVENDE: 1.0, Audience.ORGANISATIE: 0.55, Audience.TEAM: 0.5, Audience.WERKNEMER: 0.45},
    "team": {Audience.TEAM: 1.0, Audience.ORGANISATIE: 0.7, Audience.LEIDINGGEVENDE: 0.6, Audience.WERKNEMER: 0.4},
    "organisatie": {Audience.ORGANISATIE: 1.0, Audience.TEAM: 0.75, Audience.LEIDINGGEVENDE: 0.65, Audience.WERKNEMER: 0.3},
}
GENERIC_ROLE_TAGS = {"alle functies", "alle sectoren"}
TOPICAL_GATE_FLOOR = 0.3


def phase_suitability(product: Product, context: SituationContext) -> tuple[float, str]:
    """0..1 for how well the product's absence window and phase suit the situation, with the Dutch why."""
    weeks = context.absence_weeks
    low, high = product.absence_weeks_min, product.absence_weeks_max
    only_at_work = high == 0
    if context.is_absent and weeks is not None:
        if only_at_work:
            return 0.1, f"bedoeld voor medewerkers die nog werken, niet bij {format_weeks(weeks)} verzuim"
        if high is not None and weeks > high:
            overshoot = (weeks - high) / max(high, 4)
            return max(0.15, 0.7 - 0.5 * overshoot), f"vooral zinvol tot {format_weeks(high)} verzuim"
        if low is not None and weeks < low:
            return (0.35 if low >= 13 else 0.6), f"meestal pas ingezet vanaf {format_weeks(low)} verzuim"
        return 1.0, f"past bij {format_weeks(weeks)} verzuim"
    if context.is_absent:
        if only_at_work:
            return 0.25, "bedoeld voor medewerkers die nog werken"
        return 0.9, "past bij verzuim"
    if context.preventive or context.absence_status == "aan het werk":
        if low is not None and low >= 13:
            return 0.1, "een traject voor langdurig verzuim, niet voor een preventieve vraag"
        if product.phase in (Phase.LANG_VERZUIM, Phase.RE_INTEGRATIE) or (low is not None and low >= 2):
            return 0.4, "vooral bedoeld bij verzuim"
        if context.preventive and product.phase == Phase.KORT_VERZUIM:
            return 0.65, "vooral bedoeld bij beginnende klachten of kort verzuim"
        return 1.0, "geschikt zolang de medewerker nog werkt" if context.absence_status == "aan het werk" else "past bij een preventieve aanpak"
    if low is not None and low >= 13:
        return 0.6, ""
    return 0.85, ""


def _tag_fit(tags: list[str], wanted: list[str]) -> float:
    """1 when the product names the person's role/sector, 0.75 when it is for everyone, 0.2 when it names only others."""
    if not wanted:
        return 0.75
    tags_lower = [t.lower() for t in tags]
    if any(w in t or t in w for w in wanted for t in tags_lower if t not in GENERIC_ROLE_TAGS):
        return 1.0
    if not tags_lower or any(t in GENERIC_ROLE_TAGS for t in tags_lower):
        return 0.75
    return 0.2


def audience_mismatch(product: Product, context: SituationContext) -> float:
    """Impact damping when the product is explicitly meant for other roles and other sectors than this person's."""
    roles = _tag_fit(product.target_roles, context.roles)
    sectors = _tag_fit(product.sectors, [context.sector] if context.sector else [])
    return 0.45 if roles <= 0.2 and sectors <= 0.2 else (0.85 if roles <= 0.2 else 1.0)


def audience_fit(product: Product, context: SituationContext) -> float:
    """How well who the product is for (employee, manager, team, organisation) matches who the question is about."""
    if context.subject == "werknemer" and product.audience == Audience.LEIDINGGEVENDE and "leidinggevende" in context.roles:
        return 0.9  # the employee is the leader, so leader-directed help fits them
    return AUDIENCE_FIT[context.subject].get(product.audience, 0.5)


def fit_score(product: Product, context: SituationContext, suitability: float) -> float:
    audience = audience_fit(product, context)
    roles = _tag_fit(product.target_roles, context.roles)
    sectors = _tag_fit(product.sectors, [context.sector] if context.sector else [])
    delivery = 1.0
    if "thuiswerker" in context.roles:
        delivery = {Delivery.ONLINE: 1.0, Delivery.BEIDE: 0.9, Delivery.OP_LOCATIE: 0.6}[product.delivery]
    base = 0.45 * audience + 0.2 * roles + 0.1 * sectors + 0.15 * suitability + 0.1 * delivery
    return clamp(base * audience_mismatch(product, context))


def feasibility_score(product: Product, context: SituationContext) -> float:
    days = product.time_to_start_days if product.time_to_start_days is not None else 14
    speed = clamp(1.0 - days / 35)
    urgent = context.urgent or (context.is_absent and (context.absence_weeks is None or context.absence_weeks <= 6))
    return clamp(0.6 * speed + 0.4) if not urgent else clamp(speed * 0.85 + 0.15)


def rank_criteria(candidates: list[Scored], context: SituationContext, guideline_strength: dict[int, float]) -> list[Scored]:
    """Fill the four scores and a specific Dutch reasoning for every candidate."""
    for item in candidates:
        product = item.product
        suitability, phase_reason = phase_suitability(product, context)
        # Impact on this person's attendance also depends on whether the intervention reaches them:
        # organisation-level advice helps an individual employee only indirectly, and vice versa.
        reach = 0.7 + 0.3 * audience_fit(product, context)
        impact = clamp(item.topical * (0.25 + 0.75 * suitability) * reach * audience_mismatch(product, context))
        # Fit, backing and feasibility only count as far as the product addresses this problem at this
        # stage: a quick, well-fitting intervention for something else (or for later) is not a good pick.
        relevance_gate = TOPICAL_GATE_FLOOR + (1 - TOPICAL_GATE_FLOOR) * impact
        item.scores = {
            "impact": round(impact, 4),
            "fit": round(fit_score(product, context, suitability) * relevance_gate, 4),
            "guidelines": round(guideline_strength.get(product.id, 0.0) * relevance_gate, 4),
            "feasibility": round(feasibility_score(product, context) * relevance_gate, 4),
        }
        item.reasoning = reasoning_for(item, context, phase_reason)
    return candidates


def reasoning_for(item: Scored, context: SituationContext, phase_reason: str) -> str:
    """Why this product for this situation, built from what actually drove its scores."""
    product = item.product
    if item.matched_terms:
        opening = f"Sluit aan bij {_join(item.matched_terms[:3])} in deze situatie."
    else:
        opening = "Sluit inhoudelijk aan bij de beschreven situatie."
    sentences = [opening, _first_sentence(product.description)]
    if phase_reason:
        sentences.append(f"Timing: {phase_reason}.")
    if context.roles and _tag_fit(product.target_roles, context.roles) == 1.0:
        sentences.append(f"Afgestemd op de functie ({context.role}).")
    if product.time_to_start_days is not None and product.time_to_start_days <= 7 and context.is_absent:
        sentences.append(f"Kan binnen {product.time_to_start_days} dagen starten.")
    if item.citations:
        first = item.citations[0]
        sentences.append(f"Onderbouwing: {first.document_title} ({first.section.split(' > ')[-1]}).")
    return " ".join(sentences)


def _join(terms: list[str]) -> str:
    return terms[0] if len(terms) == 1 else f"{', '.join(terms[:-1])} en {terms[-1]}"


def _first_sentence(text: str, limit: int = 220) -> str:
    sentence = text.split(". ")[0].strip()
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0] + " …"
    return sentence if sentence.endswith((".", "…")) else sentence + "."
