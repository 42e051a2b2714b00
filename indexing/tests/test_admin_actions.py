"""The admin's rebuild actions reach the indexer through the apps' signals (catalog and guidelines
do not import the indexer), and really recompute what was selected."""

import pytest

from catalog.models import Product
from guidelines.models import GuidelineChunk

pytestmark = pytest.mark.django_db


def test_it_rebuilds_the_selected_products_index_from_the_admin(client, staff, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    product = Product.objects.order_by("id").first()
    untouched = Product.objects.order_by("id").last()
    client.force_login(staff)
    response = client.post("/admin/catalog/product/", {"action": "reindex_selected", "_selected_action": [product.pk]}, follow=True)
    assert "Herindexering van 1 product(en) ingepland." in response.content.decode()
    assert Product.objects.get(pk=product.pk).embedded_at > product.embedded_at
    assert Product.objects.get(pk=untouched.pk).embedded_at == untouched.embedded_at


def test_it_embeds_the_selected_passages_again_from_the_admin(client, staff, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    chunk = GuidelineChunk.objects.order_by("id").first()
    GuidelineChunk.objects.filter(pk=chunk.pk).update(embedding=None)
    client.force_login(staff)
    response = client.post("/admin/guidelines/guidelinechunk/", {"action": "reembed_selected", "_selected_action": [chunk.pk]}, follow=True)
    assert "1 passage(s) ingepland voor een nieuwe embedding." in response.content.decode()
    assert GuidelineChunk.objects.get(pk=chunk.pk).embedding is not None
