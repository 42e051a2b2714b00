"""Link checks and re-indexing through a real Celery worker on the test Redis."""

import threading
import uuid
from io import StringIO

import numpy as np
import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from catalog.models import Category, Delivery, Phase, Product, UrlStatus
from catalog.tasks import validate_product_url
from catalog.tests.conftest import wait_until
from indexing.services import product_index_refresh
from search.pipeline.links import BROKEN_NOTE, display_link

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def product(transactional_db):
    """A product of its own: after each transactional test the tables are emptied, and reloading the
    demo catalog (demo_data) costs many times what these tests take. bulk_create sends no signals,
    so nothing is queued before the test starts."""
    [product] = Product.objects.bulk_create([
        Product(
            name="Werkplekonderzoek fysieke belasting",
            slug="werkplekonderzoek-fysieke-belasting",
            description="Een ergonoom beoordeelt tillen, duwen en trekken op de werkplek en adviseert aanpassingen.",
            category=Category.ARBEIDSOMSTANDIGHEDEN,
            phase=Phase.PREVENTIE,
            delivery=Delivery.OP_LOCATIE,
            problem_areas=["fysieke belasting", "tillen"],
        )
    ])
    product_index_refresh(product_ids=[product.pk])
    return Product.objects.get(pk=product.pk)


def _point(product: Product, url: str) -> Product:
    Product.objects.filter(pk=product.pk).update(url=url)
    return Product.objects.get(pk=product.pk)


def test_it_validates_product_urls_through_the_worker(celery_worker, link_server, product):
    url = link_server.url_for("/werkt")
    link_server.expect_request("/werkt").respond_with_data("ok")
    Product.objects.exclude(pk=product.pk).update(url="")  # nothing but the local server is contacted
    _point(product, url)
    result = validate_product_url.delay(product.pk).get(timeout=15)
    assert result == {"product_id": product.pk, "url_status": UrlStatus.OK, "http_status": 200, "final_url": url}

    out = StringIO()
    call_command("validate_urls", "--wait", "--timeout", "15", stdout=out)
    assert out.getvalue().endswith("Overzicht van 1 product(en): 1 werkt.\n")
    assert len(link_server.log) == 2


def test_it_records_concurrent_runs_of_one_check_once(celery_worker, link_server, product, settings):
    settings.URL_VALIDATION_TIMEOUT_S = 10
    arrived, both_arrived, release = [], threading.Event(), threading.Event()

    def hold_until_released(request):
        arrived.append(request.path)
        if len(arrived) == 2:
            both_arrived.set()
        release.wait(timeout=10)
        return _not_found()

    link_server.expect_request("/traag-weg").respond_with_handler(hold_until_released)
    _point(product, link_server.url_for("/traag-weg"))

    # The same message delivered twice at once (Celery redelivers): both fetch, one records. The server
    # answers neither until both requests are in, so the two runs really overlap.
    release_when_both_arrived = threading.Thread(target=lambda: both_arrived.wait(timeout=10) and release.set())
    release_when_both_arrived.start()
    task_id = str(uuid.uuid4())
    queued = validate_product_url.apply_async(args=(product.pk,), task_id=task_id)
    validate_product_url.apply(args=(product.pk,), task_id=task_id)
    queued.get(timeout=15)
    release_when_both_arrived.join()
    assert both_arrived.is_set()
    stored = Product.objects.get(pk=product.pk)
    assert (stored.url_status, stored.url_failure_count, stored.url_check_started_at) == (UrlStatus.UNCHECKED, 1, None)

    # Two different checks at once: the worker's run is held at the server while the second starts;
    # the second finds the first one's claim and sends no request.
    arrived.clear()
    both_arrived.clear()
    release.clear()
    queued = validate_product_url.delay(product.pk)
    assert wait_until(lambda: len(arrived) == 1)
    validate_product_url.apply(args=(product.pk,))
    release.set()
    queued.get(timeout=15)
    stored = Product.objects.get(pk=product.pk)
    assert (stored.url_status, stored.url_failure_count, stored.url_http_status) == (UrlStatus.BROKEN, 2, 404)
    assert len(arrived) == 1


def _not_found():
    from werkzeug import Response

    return Response("Niet gevonden", status=404)


def test_it_marks_a_dead_link_broken_from_the_admin_action(celery_worker, link_server, product, client, staff):
    link_server.expect_request("/bestaat-niet").respond_with_data("", status=404)
    _point(product, link_server.url_for("/bestaat-niet"))
    client.force_login(staff)
    for failures in (1, 2):
        response = client.post(
            "/admin/catalog/product/", {"action": "validate_urls_selected", "_selected_action": [product.pk]}, follow=True
        )
        assert "URL-controle van 1 product(en) ingepland." in response.content.decode()
        wait_until(lambda: Product.objects.get(pk=product.pk).url_failure_count == failures)

    stored = Product.objects.get(pk=product.pk)
    assert stored.url_status == UrlStatus.BROKEN
    link = display_link(stored)
    assert (link.url, link.note) == (django_settings.CATALOG_HOME_URL, BROKEN_NOTE)
    assert BROKEN_NOTE == "(Directe link niet beschikbaar, zie algemene catalogus)"


def test_it_reembeds_a_product_saved_in_the_admin(celery_worker, product, client, staff, admin_change_data):
    before = np.array(product.embedding)
    client.force_login(staff)
    data = admin_change_data(client, product)
    data["description"] = "Fysiotherapeut begeleidt herstel van knieletsel bij magazijnmedewerkers met oefenschema's."
    response = client.post(f"/admin/catalog/product/{product.pk}/change/", data)
    assert response.status_code == 302

    refreshed = wait_until(lambda: Product.objects.filter(pk=product.pk).exclude(embedded_at=product.embedded_at).first())
    assert refreshed.description == data["description"]
    assert not np.allclose(before, np.array(refreshed.embedding))


def test_it_moves_the_index_to_another_model_in_the_background(celery_worker, product):
    from embeddings.encoder import E5_MODEL
    from embeddings.selectors import active_embedding_model

    out = StringIO()
    call_command("reindex_embeddings", "--model", "e5", "--background", stdout=out)
    assert "op de achtergrond" in out.getvalue()
    wait_until(lambda: active_embedding_model() == E5_MODEL, timeout=60)
    assert Product.objects.get(pk=product.pk).embedding_model == E5_MODEL


def test_it_reports_the_workers_heartbeat_and_redis_on_health(celery_worker, client):
    data = wait_until(lambda: (lambda d: d if d["worker"]["last_heartbeat_s"] is not None else None)(client.get("/health/").json()))
    assert data["redis"] == "ok" and 0 <= data["worker"]["last_heartbeat_s"] < 60
    assert isinstance(data["embedding_model_loaded"], bool)
