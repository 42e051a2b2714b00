"""With Redis down, admin saves still work: re-indexing runs eagerly, the link check waits for a later
run (the save never waits on someone else's server), and the admin says so."""

import pytest

from catalog.models import Product, UrlStatus

pytestmark = pytest.mark.django_db

BANNER = (
    "Achtergrondtaken draaien niet: Redis is niet bereikbaar. "
    "Wijzigingen worden direct verwerkt; nieuwe links worden gecontroleerd zodra Redis terug is "
    "(nachtelijke ronde of <code>manage.py validate_urls</code>)."
)
DEAD_REDIS = "redis://127.0.0.1:1/0"


@pytest.fixture
def dead_redis(settings):
    """Redis gone for publishers and for the admin's ping, through the settings alone; restored afterwards."""
    from jobs.queue import broker_check_forget

    settings.REDIS_URL = settings.CELERY_BROKER_URL = DEAD_REDIS
    broker_check_forget()
    yield
    broker_check_forget()


def test_it_saves_and_reindexes_eagerly_leaves_the_link_check_for_later_and_shows_the_banner(
    dead_redis, client, staff, link_server, admin_change_data, django_capture_on_commit_callbacks
):
    link_server.expect_request("/zonder-redis").respond_with_data("ok")
    product = Product.objects.order_by("id").first()
    client.force_login(staff)
    data = admin_change_data(client, product)
    data["url"] = link_server.url_for("/zonder-redis")
    data["description"] = product.description + " Bijgewerkt terwijl Redis plat lag."
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/admin/catalog/product/{product.pk}/change/", data)
    assert response.status_code == 302

    stored = Product.objects.get(pk=product.pk)
    assert (stored.url, stored.url_status, stored.url_checked_at) == (data["url"], UrlStatus.UNCHECKED, None)
    assert link_server.log == []  # the save did not contact the product's server
    assert stored.embedded_at > product.embedded_at
    for page in ("/admin/catalog/product/", "/admin/"):
        assert BANNER in client.get(page).content.decode()


def test_it_stays_healthy_for_the_load_balancer_but_reports_redis_down(dead_redis, client):
    response = client.get("/health/")
    assert response.status_code == 200
    data = response.json()
    assert data["database"] == "ok" and data["redis"] == "unavailable" and data["worker"]["last_heartbeat_s"] is None
