"""Stage 1 as a whole: retrieve, grade, and rewrite a weak query at most twice.

The situation's candidates come from search.pipeline.retrieval (with its facets as sub-queries when
asked, search.pipeline.multi_query); they are graded by the calibrated floors and, with an LLM, by
search.pipeline.grading. When fewer than MIN_QUALIFYING pass, the query is widened in order: the
interventiewijzer lines, HyDE (LLM), the broadest facet alone; each rewrite searches again with the
lower SEARCH_WEAK_FLOOR. What happened is reported as `retrieval` (JSON and SearchLog).
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from embeddings.selectors import QueryEmbedding, query_embedding
from lexical.terms import QueryTerms, query_terms
from lexical.thesaurus import domain_entries_named
from search.pipeline import expansion
from search.pipeline.canonical import canonicalise
from search.pipeline.grading import llm_grade
from search.pipeline.llm_client import llm_configured
from search.pipeline.matters import names_a_matter
from search.pipeline.multi_query import (
    SubQuery,
    broadest_facet,
    facet_queries,
    fuse_lists,
    llm_facet_queries,
)
from search.pipeline.precedents import OUT_OF_DOMAIN_SITUATIONS, precedent_closeness
from search.pipeline.prerequisites import occasion_words
from search.pipeline.retrieval import Candidate, candidates_fetch, fuse

MIN_QUALIFYING = 3
MAX_REWRITES = 2
# A longer text that names at least this many health and work matters in specialists' words (catalog thesaurus
# entries) is about the domain, even when no single product covers much of it: an employer's story of a
# mechanic with a second wage garnishment who forgets things matched no product above the coverage gate.
# None of the 43 judged out-of-domain lines names even one. A life event the catalog answers (an occasion of
# search.pipeline.prerequisites: debts, a death, a pregnancy) counts as one more: a cook's "schulden door
# gokken, durf het niet aan mijn baas te vertellen" named one entry (gokken) and one occasion and got nothing.
DOMAIN_ENTRIES_MIN = 2
DOMAIN_ENTRIES_MIN_WORDS = 8
# A single word needs no matter named (search.pipeline.matters) to be in the domain by closeness: a
# condition names the matter by itself ("migraine").
MATTER_MIN_WORDS = 2
# A text that names a matter of health, absence or work (search.pipeline.matters) is in the domain at a lower
# closeness to the judged situations than SEARCH_PRECEDENT_IN_DOMAIN asks of any text: "Monteur in onze
# fietsenwerkplaats heeft een tennisarm en kan geen banden meer wisselen" (0.32) or "Pianodocente … nek- en
# schouderklachten" (0.28) got no advice. Over 4,092 judged situations with products and 168 without (each held
# out of its own set), 0.2-0.25 admits 5-6 of the 15 silenced lines and none without products (docs/measurements.md,
# twenty-ninth session); the higher end, for the lines without products nearest to it ("patiënt klaagt over de
# parkeergarage van het ziekenhuis", 0.26, names no matter).
PRECEDENT_IN_DOMAIN_WITH_MATTER = 0.25
# A few words that name no matter are as close to any longer judged situation that contains them: "banden wisselen"
# came within 0.44 of "Monteur in onze fietsenwerkplaats heeft een tennisarm en kan geen banden meer wisselen" and got
# advice. For such a text a longer judged one counts scaled by (its words / the judged one's) to this power. Over the
# judged lines of up to 3 words (each held out of its own set) 0.2 silences 4 lines without products ("banden
# wisselen", "loonstrook uitleg", "parkeerplaatsen verdelen", "integratie salarispakket") and 1 with ("RIE bakkerij
# meelstof"); 0.1 only 2 and 0 (docs/measurements.md, twenty-ninth session).
SHORT_UNNAMED_WORDS = 3
SHORT_UNNAMED_LONGER_TEXT_EXPONENT = 0.2
# A search at least this close to a line a specialist judged to need no advice ("vacature plaatsen", "virus op
# laptop": a judged situation without products), and closer by OUT_OF_DOMAIN_MARGIN than to any judged situation
# with products, is outside the domain whatever its words share with the catalog ("mediation", "virus"). Over the
# 3,746 judged situations with products, the 88 without and the 40 lines of out_of_domain.jsonl (each against the
# other sets, a line's identical twin in another set left out), 0.3 and 0.1 silence 18 of the 128 and none of the
# 3,746. The in-domain line nearest to being silenced, "management problemen", is 0.05 closer to a line without
# products than to any with (docs/measurements.md, twenty-sixth session).
OUT_OF_DOMAIN_CLOSENESS = 0.3
OUT_OF_DOMAIN_MARGIN = 0.1


@dataclass
class Retrieved:
    candidates: list[Candidate]
    strong_ids: set[int]  # candidates that are evidence of their own (see strong_ids)
    in_domain: bool
    embedding: QueryEmbedding  # the query's vector after any rewrite, for the evidence of stage 2
    candidate_count: int  # before rewrites
    retrieval: dict


def retrieve(
    query: str,
    embedding: QueryEmbedding,
    *,
    mode: str,
    multi_query: bool,
    occasions: list[str] | None = None,
    context_finds_a_matter: bool = True,
    held_out_source: str = "",
) -> Retrieved:
    """The candidates for stage 2, graded, with at most MAX_REWRITES rewrites of a weak query.
    `occasions`: those the situation names (its context's), whose catalog words are searched too;
    `context_finds_a_matter`: whether its reading found a matter of health, absence or work
    (SituationContext.names_a_matter), one of the signs closeness in meaning alone needs to count."""
    # Where our texts' words and the embedding miss the domain, a longer text naming several health and work
    # matters vouches for it, and so do the specialists' judged situations ("long covid … concentatie weg",
    # "LG denkt dat chauffeur drinkt"), whose votes then bring the products.
    def vouched() -> bool:
        if len(query.split()) >= DOMAIN_ENTRIES_MIN_WORDS and domain_entries_named(query) + bool(occasions) >= DOMAIN_ENTRIES_MIN:
            return True
        if mode != "two-stage":
            return False
        closeness = precedent_closeness(query, held_out_source=held_out_source)
        if closeness >= PRECEDENT_IN_DOMAIN_WITH_MATTER and matter_in_words():
            return True
        if closeness < settings.SEARCH_PRECEDENT_IN_DOMAIN:
            return False
        if len(query.split()) > SHORT_UNNAMED_WORDS:
            return True
        # Scaling only lowers the closeness: worth a second look only for a short text that passed unscaled.
        scaled = precedent_closeness(query, held_out_source=held_out_source, longer_text_exponent=SHORT_UNNAMED_LONGER_TEXT_EXPONENT)
        return scaled >= settings.SEARCH_PRECEDENT_IN_DOMAIN

    def judged_out_of_domain() -> bool:
        if mode != "two-stage":
            return False
        outside = precedent_closeness(query, held_out_source=held_out_source, kind=OUT_OF_DOMAIN_SITUATIONS)
        if outside < OUT_OF_DOMAIN_CLOSENESS:
            return False
        return outside > precedent_closeness(query, held_out_source=held_out_source) + OUT_OF_DOMAIN_MARGIN

    def matter_in_words() -> bool:
        return names_a_matter(query, context_finds_one=context_finds_a_matter)

    def matter_named() -> bool:
        return len(query.split()) < MATTER_MIN_WORDS or matter_in_words()

    occasion_text = occasion_words(occasions or [])  # "verloor haar zoontje" also as the catalog's "rouw, overlijden"
    candidates, names, in_domain, failed = stage1(
        query_terms(query, extra=occasion_text),
        embedding,
        floor=settings.SEARCH_SIMILARITY_FLOOR,
        vouched=vouched,
        matter_named=matter_named,
        judged_out_of_domain=judged_out_of_domain,
    )
    sub_queries = _sub_queries(query) if in_domain and multi_query and mode != "vector" else []
    if sub_queries:
        candidates = _with_sub_queries(candidates, names, sub_queries, embedding.model)
    candidate_count = len(candidates)
    graded = {"passed": len(candidates), "failed": failed, "by": "drempels"}
    if in_domain and mode == "two-stage" and settings.LLM_GRADING and llm_configured():
        candidates, graded = llm_grade(query, candidates) or (candidates, graded)
    rewrites, expanded, hyde_used = 0, False, False
    for rewrite in _rewrites(query, embedding, sub_queries) if in_domain and mode != "vector" else ():
        if graded["passed"] >= MIN_QUALIFYING or rewrites == MAX_REWRITES:
            break
        widened = rewrite()
        if widened is None:
            continue  # this step does not apply here (no wijzer line matches, no LLM, one facet only)
        rewrites += 1
        expanded |= widened.wijzer_used
        hyde_used |= widened.hyde_used
        embedding = widened.embedding
        more, more_names, _, more_failed = stage1(query_terms(query, extra=f"{widened.text} {occasion_text}"), embedding, floor=settings.SEARCH_WEAK_FLOOR)
        names.update(more_names)
        merged = _merge(candidates, more)
        graded = {**graded, "passed": graded["passed"] + len(merged) - len(candidates), "failed": graded["failed"] + more_failed}
        candidates = merged
    retrieval = {
        "queries": [query] + [q.text for q in sub_queries],
        "facets": ["situatie"] + [q.facet for q in sub_queries],
        "rewrites": rewrites,
        "graded": graded,
        "hyde_used": hyde_used,
        "expanded": expanded,
    }
    return Retrieved(candidates, strong_ids(candidates), in_domain, embedding, candidate_count, retrieval)


def stage1(
    terms: QueryTerms,
    embedding: QueryEmbedding,
    *,
    floor: float,
    vouched: Callable[[], bool] = lambda: False,
    matter_named: Callable[[], bool] = lambda: True,
    judged_out_of_domain: Callable[[], bool] = lambda: False,
) -> tuple[list[Candidate], dict[int, str], bool, int]:
    """Graded, fused, canonical candidates; whether the query is about this domain at all (or, asked only
    when words and meaning say no, `vouched`: the judged situations say so); and how many candidates
    failed the grade (the calibrated similarity and lexical floors).

    Closeness in meaning counts only for a text that names some matter of health, absence or work
    (`matter_named`, search.pipeline.matters). A text like the lines judged to need no advice
    (`judged_out_of_domain`) is outside the domain whatever else says it is in.
    """
    raw = candidates_fetch(terms=terms, query=embedding, limit=settings.SEARCH_CANDIDATES)
    in_domain = (
        any(max(c.coverage, c.wijzer_coverage) >= settings.SEARCH_QUERY_MIN_COVERAGE for c in raw)
        or (any(c.similarity >= settings.SEARCH_QUERY_MIN_SIMILARITY for c in raw) and matter_named())
        or vouched()
    ) and not judged_out_of_domain()
    if not in_domain:
        return [], {}, False, len(raw)
    kept = [c for c in raw if c.similarity >= floor or c.coverage >= settings.SEARCH_LEXICAL_FLOOR]
    names = {c.product_id: c.name for c in kept}
    fused = fuse(kept, method=settings.SEARCH_FUSION)
    return canonicalise(fused, names, limit=settings.SEARCH_CANDIDATES), names, True, len(raw) - len(kept)


def _sub_queries(query: str) -> list[SubQuery]:
    """The LLM's sub-queries when one is configured and answers usefully, else the situation's own clauses."""
    return (llm_configured() and llm_facet_queries(query)) or facet_queries(query)


def _with_sub_queries(candidates: list[Candidate], names: dict[int, str], sub_queries: list[SubQuery], model: str) -> list[Candidate]:
    """The situation's candidates and its sub-queries' candidates in one list, ordered by reciprocal rank."""
    lists = [[c.product_id for c in candidates]]
    by_id = {c.product_id: c for c in candidates}
    for sub_query in sub_queries:
        found, found_names, in_domain, _ = stage1(
            query_terms(sub_query.text), query_embedding(sub_query.text, model=model), floor=settings.SEARCH_SIMILARITY_FLOOR
        )
        if not in_domain:
            continue
        names.update(found_names)
        lists.append([c.product_id for c in found])
        for candidate in found:
            by_id.setdefault(candidate.product_id, candidate)  # the situation's own scores where it has them
    ordered = fuse_lists(lists)
    return canonicalise([by_id[i] for i in ordered], names, limit=settings.SEARCH_CANDIDATES)


def _rewrites(query: str, embedding: QueryEmbedding, sub_queries: list[SubQuery]):
    """The rewrite steps in order, each a callable that gives the widened query or None where it does not apply:
    the interventiewijzer lines, then HyDE (LLM), then the broadest facet on its own."""
    widened: list[expansion.Expansion] = []

    def wijzer():
        result = expansion.wijzer_expansion(query, embedding)
        widened.extend([result] if result else [])
        return result

    def hyde():
        base = widened[-1] if widened else None
        return expansion.hyde_expansion(query, base.embedding if base else embedding, text=base.text if base else query)

    def facet():
        broadest = broadest_facet(sub_queries or facet_queries(query))
        if broadest is None:
            return None
        return expansion.Expansion(f"{query} {broadest.text}", query_embedding(broadest.text, model=embedding.model))

    return (wijzer, hyde, facet)


def strong_ids(candidates: list[Candidate]) -> set[int]:
    """Candidates that are evidence of their own: they match the query's words, or are close in meaning.

    The similarity floor keeps loosely related products as candidates; when fewer than three
    candidates are more than that ("migraine"), the advice is completed with broad first steps.
    """
    return {
        c.product_id
        for c in candidates
        if max(c.matchable_coverage, c.wijzer_coverage) >= settings.SEARCH_LEXICAL_FLOOR or c.similarity >= settings.SEARCH_STRONG_SIMILARITY
    }


def _merge(first: list[Candidate], second: list[Candidate]) -> list[Candidate]:
    seen = {c.product_id for c in first}
    added = [c for c in second if c.product_id not in seen]
    for candidate in added:
        candidate.widened = True
    return first + added
