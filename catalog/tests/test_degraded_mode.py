"""With Redis down, admin saves still work: follow-up tasks run eagerly and the admin says so."""

import pytest

from catalog.models import Product, UrlStatus

pytestmark = pytest.mark.django_db

BANNER = (
    "Achtergrondtaken draaien niet: Redis is niet bereikbaar. "
    "Wijzigingen worden direct verwerkt; URL-controles lopen trager."
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


def test_it_saves_checks_and_reindexes_eagerly_and_shows_the_banner(
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
    assert (stored.url_status, stored.url_http_status) == (UrlStatus.OK, 200)
    assert stored.url_checked_at is not None
    assert stored.embedded_at > product.embedded_at
    for page in ("/admin/catalog/product/", "/admin/"):
        assert BANNER in client.get(page).content.decode()
