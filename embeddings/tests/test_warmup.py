import pytest
from django.db import connection

from embeddings.encoder import encoder_for
from embeddings.models import EmbeddingIndex
from embeddings.selectors import active_embedding_model
from embeddings.warmup import encoder_warm


def test_it_loads_the_active_local_model_before_any_search_and_closes_the_connection(demo_data):
    model = active_embedding_model()
    encoder_for.cache_clear()  # a fresh process: nothing loaded yet
    assert encoder_warm() == model
    assert connection.connection is None  # a forked worker must not inherit it
    assert encoder_for(model)._model is not None


@pytest.mark.django_db

def test_it_does_not_call_a_remote_model_at_start():
    EmbeddingIndex.objects.update_or_create(id=EmbeddingIndex.SINGLETON_ID, defaults={"active_model": "openai-text-embedding-3-small-512"})
    encoder_for.cache_clear()
    assert encoder_warm() is None
    assert encoder_for.cache_info().currsize == 0  # no encoder (and no client) was made
