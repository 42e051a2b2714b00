import numpy as np

from embeddings.encoder import _cached_query_embedding, embed_documents, embed_query


def test_it_embeds_deterministically_into_unit_length_512_d_vectors():
    first = embed_documents(["Werknemer met rugklachten", "Burn-out na reorganisatie"])
    second = embed_documents(["Werknemer met rugklachten", "Burn-out na reorganisatie"])
    assert first.shape == (2, 512)
    assert np.allclose(first, second)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)


def test_it_serves_a_repeated_query_from_the_cache():
    embed_query("Medewerker  met   nekklachten")
    hits_before = _cached_query_embedding.cache_info().hits
    vector = embed_query("Medewerker met nekklachten")
    assert _cached_query_embedding.cache_info().hits == hits_before + 1
    assert not vector.flags.writeable


def test_it_places_related_dutch_texts_closer_than_unrelated_ones():
    query, related, unrelated = embed_documents(["last van de rug bij tillen", "rugklachten door zwaar tilwerk", "recept voor appeltaart"])
    assert query @ related > query @ unrelated
