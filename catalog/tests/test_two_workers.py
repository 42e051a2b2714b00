"""Two Celery workers on one Redis and one PostgreSQL, as on two hosts (docs/deploy.md): one in this
process, one a separate `celery worker` process. A nightly round planned twice checks each link
once, and a re-index asked for twice swaps the model once."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from catalog.models import Category, Delivery, Phase, Product, UrlStatus
from catalog.tasks import validate_all_product_urls
from catalog.tests.conftest import wait_until
from indexing.services import product_index_refresh

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
PRODUCTS = 6


@pytest.fixture
def second_worker(celery_worker, link_server):
    """A `celery worker` process on the test database and the test Redis, ready before the test runs."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"postgresql://{db['USER']}@/{db['NAME']}?host={db['HOST']}&port={db['PORT']}",
        "REDIS_URL": settings.REDIS_URL,
        "URL_VALIDATION_ALLOWED_HOSTS": ",".join(settings.URL_VALIDATION_ALLOWED_HOSTS),
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "evi_site", "worker", "--pool=solo", "--hostname=twee@evi-test", "--loglevel=info"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    ready = threading.Event()

    def watch() -> None:
        for line in process.stderr:
            if "twee@evi-test ready" in line:
                ready.set()

    threading.Thread(target=watch, daemon=True).start()
    try:
        assert ready.wait(timeout=120), "the second worker did not start"
        yield process
    finally:
        process.terminate()
        process.wait(timeout=60)


@pytest.fixture
def linked_products(link_server, transactional_db):
    Product.objects.update(url="")  # nothing but the local server is contacted
    products = Product.objects.bulk_create([
        Product(
            name=f"Werkplekonderzoek {number}", slug=f"werkplekonderzoek-{number}", url=link_server.url_for(f"/product-{number}"),
            description="Een ergonoom beoordeelt de werkplek.", category=Category.ARBEIDSOMSTANDIGHEDEN, phase=Phase.PREVENTIE,
            delivery=Delivery.OP_LOCATIE, problem_areas=["fysieke belasting"],
        )
        for number in range(PRODUCTS)
    ])
    for number in range(PRODUCTS):
        link_server.expect_request(f"/product-{number}").respond_with_data("ok")
    product_index_refresh(product_ids=[p.pk for p in products])
    return products


def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def _stored_results() -> int:
    return len(_redis().keys("celery-task-meta-*"))


def test_it_checks_each_link_once_when_the_nightly_round_is_planned_twice(linked_products, second_worker, link_server):
    for key in _redis().keys("celery-task-meta-*"):
        _redis().delete(key)
    validate_all_product_urls.delay()
    validate_all_product_urls.delay()  # a second beat by mistake
    wait_until(lambda: _stored_results() == 2 + 2 * PRODUCTS, timeout=60)  # both rounds and all their checks finished
    assert sorted(request.path for request, _ in link_server.log) == sorted(f"/product-{n}" for n in range(PRODUCTS))
    assert set(Product.objects.filter(pk__in=[p.pk for p in linked_products]).values_list("url_status", flat=True)) == {UrlStatus.OK}


def test_it_swaps_the_index_model_once_when_a_reindex_is_asked_for_twice(linked_products, second_worker):
    from embeddings.encoder import E5_MODEL
    from embeddings.selectors import active_embedding_model
    from guidelines.models import GuidelineChunk, InterventionMapping
    from indexing.tasks import reindex_embeddings

    # Only this test's products to index, so the e5 model is quick (the database is emptied afterwards anyway).
    GuidelineChunk.objects.all().delete()
    InterventionMapping.objects.all().delete()
    Product.objects.exclude(pk__in=[p.pk for p in linked_products]).delete()

    first, second = reindex_embeddings.delay(E5_MODEL), reindex_embeddings.delay(E5_MODEL)
    outcomes = sorted([first.get(timeout=180), second.get(timeout=180)], key=lambda outcome: outcome in ("done", "continuing"))
    assert outcomes[0] == "unchanged" or outcomes[0].startswith("busy"), outcomes  # the second one did nothing …
    assert outcomes[1] in ("done", "continuing"), outcomes  # … the first moved the index
    wait_until(lambda: active_embedding_model() == E5_MODEL, timeout=120)
    assert set(Product.objects.values_list("embedding_model", flat=True)) == {E5_MODEL}
