"""Recording link checks on products: status rules, the claim, the save trigger, admin and command."""

import re
import socket
import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from catalog.models import Product, UrlStatus
from catalog.selectors import product_export_rows
from catalog.services import product_import, product_save
from catalog.url_validation import product_url_validate

pytestmark = pytest.mark.django_db


@pytest.fixture
def product():
    """A demo product, its link not yet checked."""
    return Product.objects.order_by("id").first()


def _point(product: Product, url: str, **fields) -> Product:
    """Give the product a url without going through save(), so no check is triggered."""
    Product.objects.filter(pk=product.pk).update(url=url, **fields)
    return Product.objects.get(pk=product.pk)


def _validate(product: Product) -> Product:
    return product_url_validate(product_id=product.pk)


def _state(product: Product) -> tuple:
    return (product.url_status, product.url_http_status, product.url_final_url, product.url_failure_count, product.url_error)


def test_it_records_ok_for_a_page_that_answers(link_server, product):
    url = link_server.url_for("/product")
    link_server.expect_request("/product").respond_with_data("Welkom")
    checked = _validate(_point(product, url))
    assert _state(checked) == (UrlStatus.OK, 200, url, 0, "")
    assert checked.url_checked_at is not None
    assert checked.url_check_started_at is None


def test_it_follows_a_redirect_and_records_where_it_ends(link_server, product):
    link_server.expect_request("/old").respond_with_data("", status=301, headers={"Location": "/new"})
    link_server.expect_request("/new").respond_with_data("Nieuw adres")
    checked = _validate(_point(product, link_server.url_for("/old")))
    assert _state(checked) == (UrlStatus.OK, 200, link_server.url_for("/new"), 0, "")


def test_it_refuses_a_redirect_to_a_private_address_without_connecting_to_it(link_server, product, monkeypatch):
    link_server.expect_request("/escape").respond_with_data("", status=301, headers={"Location": "http://10.0.0.1/"})
    real_connect = socket.socket.connect

    def connect(sock, address):
        assert address[0] != "10.0.0.1", "the checker connected to the private address"
        return real_connect(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    checked = _validate(_point(product, link_server.url_for("/escape")))
    assert _state(checked) == (UrlStatus.UNREACHABLE, 301, "http://10.0.0.1/", 1, "blocked: private address (10.0.0.1)")


def test_it_marks_a_link_broken_only_after_the_second_http_error(link_server, product):
    link_server.expect_request("/gone").respond_with_data("Niet gevonden", status=404)
    url = link_server.url_for("/gone")
    first = _validate(_point(product, url))
    assert _state(first) == (UrlStatus.UNCHECKED, 404, url, 1, "HTTP 404")
    second = _validate(first)
    assert _state(second) == (UrlStatus.BROKEN, 404, url, 2, "HTTP 404")


def test_it_keeps_a_working_link_ok_after_a_single_http_error(link_server, product):
    link_server.expect_request("/hiccup").respond_with_data("", status=503)
    checked = _validate(_point(product, link_server.url_for("/hiccup"), url_status=UrlStatus.OK))
    assert (checked.url_status, checked.url_failure_count, checked.url_http_status) == (UrlStatus.OK, 1, 503)


def test_it_resets_the_failure_count_when_the_link_recovers(link_server, product):
    link_server.expect_oneshot_request("/flaky").respond_with_data("", status=500)
    link_server.expect_request("/flaky").respond_with_data("Weer online")
    url = link_server.url_for("/flaky")
    first = _validate(_point(product, url))
    assert (first.url_status, first.url_failure_count) == (UrlStatus.UNCHECKED, 1)
    second = _validate(first)
    assert _state(second) == (UrlStatus.OK, 200, url, 0, "")


def test_it_reports_a_slow_server_as_unreachable_not_broken(link_server, product):
    link_server.expect_request("/slow").respond_with_handler(lambda request: time.sleep(1.0))
    url = link_server.url_for("/slow")
    checked = _validate(_point(product, url))
    assert _state(checked) == (UrlStatus.UNREACHABLE, None, url, 1, "timed out after 0.5 s")


def test_it_needs_two_http_errors_in_a_row_for_broken(link_server, product):
    link_server.expect_oneshot_request("/mixed").respond_with_data("", status=404)
    link_server.expect_oneshot_request("/mixed").respond_with_handler(lambda request: time.sleep(1.0))
    link_server.expect_request("/mixed").respond_with_data("", status=404)
    checked = _point(product, link_server.url_for("/mixed"))
    for _ in range(3):
        checked = _validate(checked)
    assert (checked.url_status, checked.url_failure_count) == (UrlStatus.UNREACHABLE, 3)


def test_it_falls_back_to_get_when_head_is_refused(link_server, product):
    link_server.expect_request("/no-head", method="HEAD").respond_with_data("", status=405)
    link_server.expect_request("/no-head", method="GET").respond_with_data("Pagina")
    checked = _validate(_point(product, link_server.url_for("/no-head")))
    assert (checked.url_status, checked.url_http_status) == (UrlStatus.OK, 200)
    assert [request.method for request, _ in link_server.log] == ["HEAD", "GET"]


def test_it_records_a_blocked_url_as_unreachable_without_connecting(no_connections, product):
    checked = _validate(_point(product, "http://169.254.169.254/latest/meta-data"))
    assert _state(checked) == (
        UrlStatus.UNREACHABLE, None, "http://169.254.169.254/latest/meta-data", 1, "blocked: link-local address (169.254.169.254)"
    )


def test_it_skips_a_product_another_run_is_checking(no_connections, product):
    claimed = _point(product, "https://example.com/", url_check_id="other-run", url_check_started_at=timezone.now())
    after = _validate(claimed)
    assert _state(after) == _state(claimed)
    assert after.url_check_id == "other-run"


def test_it_takes_over_a_claim_abandoned_by_a_dead_run(link_server, product):
    link_server.expect_request("/p").respond_with_data("ok")
    abandoned = timezone.now() - timedelta(hours=1)
    after = _validate(_point(product, link_server.url_for("/p"), url_check_id="dead-run", url_check_started_at=abandoned))
    assert after.url_status == UrlStatus.OK
    assert after.url_check_started_at is None


def test_it_records_a_redelivered_run_only_once(link_server, product):
    link_server.expect_request("/gone").respond_with_data("", status=404)
    pointed = _point(product, link_server.url_for("/gone"))
    product_url_validate(product_id=pointed.pk, run_id="task-1")
    again = product_url_validate(product_id=pointed.pk, run_id="task-1")
    assert again.url_failure_count == 1
    assert len(link_server.log) == 1


def test_it_leaves_a_recently_checked_product_alone_in_a_repeated_round(no_connections, product):
    checked = _point(product, "https://example.com/", url_checked_at=timezone.now(), url_status=UrlStatus.OK)
    after = product_url_validate(product_id=checked.pk, skip_if_checked_within=timedelta(hours=6))
    assert after.url_checked_at == checked.url_checked_at


def test_it_checks_a_changed_url_after_the_save_commits(link_server, product, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    link_server.expect_request("/nieuw").respond_with_data("ok")
    product.url = link_server.url_for("/nieuw")
    with django_capture_on_commit_callbacks(execute=True):
        product_save(product=product, changed_fields=["url"])
    product.refresh_from_db()
    assert (product.url_status, product.url_http_status) == (UrlStatus.OK, 200)


def test_it_forgets_the_old_result_when_the_url_changes(product, django_capture_on_commit_callbacks):
    product = _point(product, "https://oud.example/", url_status=UrlStatus.BROKEN, url_failure_count=4, url_http_status=404)
    product.url = "https://nieuw.example/"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        product_save(product=product, changed_fields=["url"])
    stored = Product.objects.get(pk=product.pk)
    assert _state(stored) == (UrlStatus.UNCHECKED, None, "", 0, "")
    assert len(callbacks) == 1  # the URL check (the url is not part of the search index)


def test_it_does_not_check_again_when_the_url_is_unchanged(product, django_capture_on_commit_callbacks):
    product.description += " Aangevuld."
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        product_save(product=product, changed_fields=["description"])
    assert len(callbacks) == 1  # only the search-index refresh


def test_it_checks_the_url_of_a_new_product_after_the_save_commits(link_server, product, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    link_server.expect_request("/nieuw-product").respond_with_data("ok")
    new = Product(
        name="Nieuw product", slug="nieuw-product", url=link_server.url_for("/nieuw-product"), description="Een nieuw product.",
        category=product.category, phase=product.phase, audience=product.audience, delivery=product.delivery,
    )
    with django_capture_on_commit_callbacks(execute=True):
        product_save(product=new)
    new.refresh_from_db()
    assert (new.url_status, new.url_http_status) == (UrlStatus.OK, 200)


def test_it_defers_checks_during_an_import_but_forgets_old_results(product, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    _point(product, product.url, url_status=UrlStatus.OK, url_http_status=200)
    rows = [row for row in product_export_rows() if row["name"] == product.name]
    rows[0]["url"] = "https://nieuw.example/pad"
    with django_capture_on_commit_callbacks(execute=True):
        product_import(rows=rows)
    stored = Product.objects.get(pk=product.pk)
    assert (stored.url, stored.url_status, stored.url_checked_at) == ("https://nieuw.example/pad", UrlStatus.UNCHECKED, None)


def test_it_validates_the_selected_products_from_the_admin(client, staff, link_server, product, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    link_server.expect_request("/admin-check").respond_with_data("ok")
    _point(product, link_server.url_for("/admin-check"))
    without_url = _point(Product.objects.exclude(pk=product.pk).order_by("id").first(), "")
    client.force_login(staff)
    response = client.post(
        "/admin/catalog/product/",
        {"action": "validate_urls_selected", "_selected_action": [product.pk, without_url.pk]},
        follow=True,
    )
    assert "URL-controle van 1 product(en) ingepland. 1 product(en) zonder url overgeslagen." in response.content.decode()
    assert Product.objects.get(pk=product.pk).url_status == UrlStatus.OK


def test_it_shows_check_details_and_no_banner_while_redis_is_up(client, staff):
    from jobs.queue import broker_check_forget

    broker_check_forget()
    client.force_login(staff)
    page = client.get("/admin/catalog/product/").content.decode()
    assert "Opeenvolgende fouten" in page
    assert "Laatst gecontroleerd" in page
    assert "Achtergrondtaken draaien niet" not in page


def _only_linked(*products_and_urls):
    Product.objects.update(url="")
    for product, url in products_and_urls:
        _point(product, url)


def test_it_prints_a_dutch_summary_after_validating_all_urls(link_server, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    first, second = Product.objects.order_by("name")[:2]
    link_server.expect_request("/a").respond_with_data("ok")
    link_server.expect_request("/b").respond_with_data("", status=404)
    _only_linked((first, link_server.url_for("/a")), (second, link_server.url_for("/b")))
    out = StringIO()
    call_command("validate_urls", "--wait", stdout=out)
    lines = out.getvalue().splitlines()
    columns = [re.split(r"\s{2,}", line) for line in lines[:3]]
    assert columns == [
        ["Product", "Status", "HTTP-code", "Eind-url"],
        [first.name, "Werkt", "200", link_server.url_for("/a")],
        [second.name, "Niet gecontroleerd", "404", link_server.url_for("/b")],
    ]
    assert lines[-1] == "Overzicht van 2 product(en): 1 niet gecontroleerd, 1 werkt."


def test_it_says_in_dutch_when_no_worker_finishes_the_checks(product):
    from evi_site.celery import app

    _only_linked((product, "https://example.com/"))
    try:
        with pytest.raises(CommandError, match="Draait er een worker"):
            call_command("validate_urls", "--wait", "--timeout", "0.5", stdout=StringIO())
    finally:
        app.control.purge()
