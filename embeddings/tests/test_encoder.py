import numpy as np
import pytest

from embeddings.calibration import calibration_fit
from embeddings.encoder import (
    E5_MODEL,
    USE_MODEL,
    embed_documents,
    embed_query,
    passage_cache_clear,
    passage_cache_hits,
    query_cache_hits,
)


@pytest.mark.parametrize("model", [USE_MODEL, E5_MODEL])
def test_it_embeds_deterministically_into_unit_length_512_d_vectors(model):
    first = embed_documents(["Werknemer met rugklachten", "Burn-out na reorganisatie"], model=model)
    passage_cache_clear()  # the model itself, not the cache, must give the same vectors
    second = embed_documents(["Werknemer met rugklachten", "Burn-out na reorganisatie"], model=model)
    assert first.shape == (2, 512)
    assert np.allclose(first, second)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)


def test_it_pads_e5_vectors_with_zeros_so_cosines_are_e5s_own():
    vectors = embed_documents(["rugklachten door zwaar tilwerk"], model=E5_MODEL)
    assert np.count_nonzero(vectors[0, 384:]) == 0
    assert np.count_nonzero(vectors[0, :384]) > 300


def test_it_embeds_e5_queries_and_passages_with_their_own_prefix():
    as_query = embed_query("rugklachten door zwaar tilwerk", model=E5_MODEL)
    [as_passage] = embed_documents(["rugklachten door zwaar tilwerk"], model=E5_MODEL)
    assert not np.allclose(as_query, as_passage)
    assert as_query @ as_passage > 0.9


def test_it_serves_a_repeated_query_from_the_cache_per_model():
    embed_query("Medewerker  met   nekklachten", model=USE_MODEL)
    hits_before = query_cache_hits()
    vector = embed_query("Medewerker met nekklachten", model=USE_MODEL)
    assert query_cache_hits() == hits_before + 1
    assert not vector.flags.writeable
    assert not np.allclose(vector, embed_query("Medewerker met nekklachten", model=E5_MODEL))


def test_it_embeds_only_the_passages_it_has_not_seen_and_keeps_their_order():
    passage_cache_clear()
    first = embed_documents(["Rugklachten  door tillen", "Burn-out bij leraren"], model=USE_MODEL)
    hits_before = passage_cache_hits()
    again = embed_documents(["Nachtdiensten en slaap", "Rugklachten door tillen", "Nachtdiensten en slaap"], model=USE_MODEL)
    assert passage_cache_hits() == hits_before + 1  # the repeated text within one call is computed once, not looked up twice
    assert np.array_equal(again[1], first[0]) and np.array_equal(again[0], again[2])
    assert not again[0] @ first[0] > 0.99


@pytest.mark.parametrize("model", [USE_MODEL, E5_MODEL])
def test_it_places_related_dutch_texts_closer_than_unrelated_ones(model):
    query = embed_query("last van de rug bij tillen", model=model)
    related, unrelated = embed_documents(["rugklachten door zwaar tilwerk", "recept voor appeltaart"], model=model)
    assert query @ related > query @ unrelated


def test_it_maps_a_models_median_and_top_percentile_onto_the_references():
    queries = ["rugklachten", "burn-out na reorganisatie", "conflict met leidinggevende", "nachtdienst en slaap"]
    texts = ["Fysiotherapie bij rugpijn", "Herstelcoaching bij burn-out", "Mediation bij een arbeidsconflict",
             "Arbeidstijdenwet: nachtdiensten", "Recept voor appeltaart", "Werkplekonderzoek beeldschermwerk"]
    fit = calibration_fit(model=E5_MODEL, reference=USE_MODEL, queries=queries, texts=texts)
    ours = np.stack([embed_query(q, model=E5_MODEL) for q in queries]) @ embed_documents(texts, model=E5_MODEL).T
    theirs = np.stack([embed_query(q, model=USE_MODEL) for q in queries]) @ embed_documents(texts, model=USE_MODEL).T
    mapped = (ours - fit.offset) * fit.scale
    assert np.percentile(mapped, 50) == pytest.approx(np.percentile(theirs, 50), abs=0.01)
    assert np.percentile(mapped, 99) == pytest.approx(np.percentile(theirs, 99), abs=0.01)
    assert fit.scale > 1  # e5 crowds its cosines into a narrow band


def test_it_embeds_through_an_openai_compatible_endpoint_in_index_order(httpserver):
    from embeddings.encoder import OpenAIEncoder

    rows = [{"object": "embedding", "index": i, "embedding": [0.0] * i + [2.0] + [0.0] * (511 - i)} for i in (1, 0)]
    httpserver.expect_request("/v1/embeddings", method="POST").respond_with_json(
        {"object": "list", "data": rows, "model": "text-embedding-3-small", "usage": {"prompt_tokens": 4, "total_tokens": 4}}
    )
    encoder = OpenAIEncoder(api_key="test", base_url=httpserver.url_for("/v1"), model="text-embedding-3-small")
    vectors = encoder.encode(["eerste", "tweede"], query=False)
    assert encoder.name == "openai-text-embedding-3-small-512"
    assert vectors.shape == (2, 512) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[0, 0] == 1.0 and vectors[1, 1] == 1.0  # answered out of order, returned in input order
    assert httpserver.log[0][0].get_json()["dimensions"] == 512
