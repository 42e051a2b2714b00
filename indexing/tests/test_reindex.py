"""Moving the index to another embedding model: staged, resumable, swapped in one go, never mixed."""

from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from catalog.models import Category, Delivery, Phase, Product
from embeddings.encoder import E5_MODEL, USE_MODEL, embed_documents, source_hash
from embeddings.models import EmbeddingIndex, StagedEmbedding
from embeddings.selectors import active_embedding_model, index_status, query_embedding
from embeddings.services import embedded_confirm, texts_embed
from guidelines.models import GuidelineChunk
from guidelines.services import document_ingest
from indexing.reindex import (
    ReindexBusyError,
    reindex_finish,
    reindex_run,
    reindex_start,
    reindex_step,
)
from indexing.services import product_index_refresh
from indexing.texts import product_embedding_text
from lexical.terms import query_terms
from search.models import ReferenceQuestion
from search.pipeline.passages import passages_retrieve
from search.pipeline.retrieval import candidates_fetch

PRODUCTS = [
    ("Vroegconsult fysiotherapie", "Een bedrijfsfysiotherapeut ziet de werknemer met rugklachten binnen enkele dagen.", ["rugklachten", "fysieke klachten"]),
    ("Herstelcoaching", "Coaching bij burn-out en overspannenheid, gericht op terugkeer naar werk.", ["burn-out", "stress"]),
    ("Mediation", "Een mediator begeleidt werknemer en leidinggevende bij een arbeidsconflict.", ["conflict"]),
]


@pytest.fixture
def small_index(transactional_db):
    """Three products and a two-article law, indexed with USE, alone in the database (emptied again after the test)."""
    call_command("flush", interactive=False, verbosity=0)
    Product.objects.bulk_create(
        Product(name=name, slug=name.lower().replace(" ", "-"), description=text, category=Category.BELASTBAARHEID,
                phase=Phase.KORT_VERZUIM, delivery=Delivery.OP_LOCATIE, problem_areas=areas)
        for name, text, areas in PRODUCTS
    )
    product_index_refresh()
    document_ingest(
        title="Arbeidsomstandighedenwet", source="Arbowet",
        texts=["### Artikel 3 – Arbobeleid\nDe werkgever zorgt voor de veiligheid en de gezondheid van de werknemers.\n\n"
               "### Artikel 14 – Deskundige bijstand\nDe werkgever laat zich bijstaan door een bedrijfsarts."],
    )
    ReferenceQuestion.objects.create(source="eigen_set", external_id="q-1", text="Hoeveel rust na een nachtdienst?")
    assert active_embedding_model() == USE_MODEL


def _models_in_use() -> set[str]:
    return set(Product.objects.values_list("embedding_model", flat=True)) | set(GuidelineChunk.objects.values_list("embedding_model", flat=True))


def test_it_moves_every_vector_to_the_new_model_and_then_searches_with_it(small_index):
    seen = []
    status = reindex_run(model=E5_MODEL, progress=seen.append)
    assert status.active_model == E5_MODEL and not status.reindexing
    assert _models_in_use() == {E5_MODEL}
    assert seen[-1].done == seen[-1].total == 5
    assert not StagedEmbedding.objects.exists()
    [stored] = Product.objects.filter(name="Herstelcoaching")
    [expected] = embed_documents([product_embedding_text(stored)], model=E5_MODEL)
    assert np.allclose(stored.embedding, expected, atol=1e-5)
    assert stored.embedding_source_hash == source_hash(product_embedding_text(stored), model=E5_MODEL)
    assert set(ReferenceQuestion.objects.values_list("embedding_model", flat=True)) == {E5_MODEL}

    assert query_embedding("rugklachten").model == E5_MODEL
    passages = passages_retrieve("wat moet de werkgever doen voor de gezondheid van werknemers").passages
    assert passages and passages[0].article == "3"
    document_ingest(title="Arbeidstijdenwet", source="ATW", texts=["### Artikel 5:8 – Nachtdienst\nNa een nachtdienst volgt rust."])
    assert _models_in_use() == {E5_MODEL}


def test_it_keeps_searching_the_old_model_while_staging_and_resumes_a_stopped_run(small_index):
    assert reindex_start(model=E5_MODEL)
    assert reindex_step(model=E5_MODEL, batch_size=2) == 2
    assert active_embedding_model() == USE_MODEL
    assert _models_in_use() == {USE_MODEL}
    assert index_status().done == 2 and index_status().total == 5
    with pytest.raises(ReindexBusyError):
        reindex_start(model=E5_MODEL)  # a second run toward the same model while the first is alive

    EmbeddingIndex.objects.update(updated_at=EmbeddingIndex.objects.get().started_at.replace(year=2000))  # the worker died
    seen = []
    reindex_run(model=E5_MODEL, progress=seen.append)
    assert seen[0].done >= 2  # the two staged vectors were kept, not computed again
    assert active_embedding_model() == E5_MODEL


def test_it_catches_up_rows_edited_or_added_during_the_run(small_index):
    assert reindex_start(model=E5_MODEL)
    while reindex_step(model=E5_MODEL):
        pass
    Product.objects.filter(name="Mediation").update(description="Mediation bij een verstoorde arbeidsrelatie.")
    Product.objects.bulk_create([Product(name="Nieuw", slug="nieuw", description="Loopbaanadvies", category=Category.VITALITEIT,
                                         phase=Phase.KORT_VERZUIM, delivery=Delivery.ONLINE, problem_areas=["loopbaan"])])
    reindex_finish(model=E5_MODEL)
    for product in Product.objects.prefetch_related("intervention_mappings"):
        [expected] = embed_documents([product_embedding_text(product)], model=E5_MODEL)
        assert product.embedding_model == E5_MODEL
        assert np.allclose(product.embedding, expected, atol=1e-5), product.name


def test_it_embeds_again_when_the_model_was_swapped_while_a_write_was_computing(small_index):
    texts = ["Werknemer met nekklachten"]
    computed = texts_embed(texts)
    EmbeddingIndex.objects.update(active_model=E5_MODEL)
    with transaction.atomic():
        confirmed = embedded_confirm(computed, texts)
    assert computed.model == USE_MODEL and confirmed.model == E5_MODEL
    assert np.allclose(confirmed.vectors, embed_documents(texts, model=E5_MODEL))


def test_it_never_compares_a_query_with_vectors_of_another_model(small_index):
    Product.objects.filter(name="Herstelcoaching").update(embedding_model=E5_MODEL)
    found = {c.name: c for c in candidates_fetch(terms=query_terms("burn-out"), query=query_embedding("burn-out"), limit=10)}
    assert found["Herstelcoaching"].similarity == 0.0  # found by its words only
    assert found["Mediation"].similarity != 0.0


def test_it_reports_progress_and_refuses_a_model_it_cannot_compute(small_index, settings):
    out = StringIO()
    call_command("reindex_embeddings", "--status", stdout=out)
    assert out.getvalue().startswith(f"Actief model: {USE_MODEL}\n")
    reindex_start(model=E5_MODEL)
    reindex_step(model=E5_MODEL, batch_size=1)
    out = StringIO()
    call_command("reindex_embeddings", "--status", stdout=out)
    assert f"Herindexering naar {E5_MODEL}: 1 van 5 (20%)" in out.getvalue()

    settings.EMBEDDING_API_KEY = ""
    with pytest.raises(CommandError, match="niet beschikbaar"):
        call_command("reindex_embeddings", "--model", "openai")
