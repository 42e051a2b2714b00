"""The insight page: who may see it, the period choice, what it shows, and the links that lead to it."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from catalog.models import Product, UrlStatus
from insight.forms import INVALID_PERIOD
from insight.tests.factories import local_noon, recommendation, stored_search, vote
from search.models import FeedbackVote

pytestmark = pytest.mark.django_db

URL = "/inzicht/"


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def test_it_lives_at_inzicht():
    assert reverse("insight:overview") == URL


def test_it_sends_anonymous_visitors_to_the_login(client):
    response = client.get(URL)

    assert response.status_code == 302
    assert response["Location"] == reverse("login") + "?next=/inzicht/"


def test_it_refuses_a_logged_in_specialist_who_is_not_staff(client, owner):
    client.force_login(owner)

    response = client.get(URL)

    assert response.status_code == 403
    assert "Geen toegang" in response.content.decode()


def test_it_shows_staff_the_charts_and_what_found_nothing(staff_client):
    stored_search("Appeltaart recept met kaneel", at=local_noon(1), results="none", total_ms=25.0)
    stored_search("Werknemer met burn-out", at=local_noon(2), total_ms=35.0)

    response = staff_client.get(URL)

    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('role="img"') == 2  # searches per day and search time
    assert 'class="bar"' in page and 'class="point"' in page
    assert "appeltaart recept met kaneel" in page
    assert "Nog geen zoekvragen in deze periode" not in page
    assert response.context["overview"].searches == 2


def test_it_says_in_dutch_when_the_period_has_no_searches(staff_client):
    stored_search(at=local_noon(40))

    page = staff_client.get(URL).content.decode()

    assert "Nog geen zoekvragen in deze periode." in page
    assert "Nog geen stemmen in deze periode." in page
    assert 'role="img"' not in page


def test_it_shows_the_chosen_period_of_seven_days(staff_client):
    stored_search(at=local_noon(2))
    stored_search(at=local_noon(20))

    response = staff_client.get(URL, {"dagen": "7"})

    assert response.context["overview"].period.days == 7
    assert response.context["overview"].searches == 1
    assert 'href="?dagen=7" aria-current="page"' in response.content.decode()


@pytest.mark.parametrize("bad", ["abc", "14", "-30", "7; drop table"])
def test_it_falls_back_to_thirty_days_with_a_dutch_message_for_a_bad_period(staff_client, bad):
    response = staff_client.get(URL, {"dagen": bad})

    page = response.content.decode()
    assert response.status_code == 200
    assert response.context["overview"].period.days == 30
    assert INVALID_PERIOD in page and "u ziet nu de laatste 30 dagen" in INVALID_PERIOD
    assert 'href="?dagen=30" aria-current="page"' in page


def test_it_escapes_a_situation_text(staff_client):
    stored_search('<img src=x onerror="alert(1)">', at=local_noon(1), results="none")

    page = staff_client.get(URL).content.decode()

    assert "<img src=x" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page


def test_it_shows_the_votes_per_product(staff_client, staff):
    product = Product.objects.order_by("name").first()
    advice = recommendation(stored_search(at=local_noon(1)), product)
    vote(advice, FeedbackVote.Value.UP, at=local_noon(1), username="a")
    vote(advice, FeedbackVote.Value.DOWN, at=local_noon(1), username="b")

    page = staff_client.get(URL).content.decode()

    assert f"{escape(product.name)}: 1 bruikbaar · 1 niet bruikbaar" in page
    assert f"<title>{escape(product.name)}: stemmen per dag</title>" in page


def test_it_lists_broken_links_with_a_link_to_the_product_in_the_admin(staff_client):
    Product.objects.update(url_status=UrlStatus.OK)
    product = Product.objects.order_by("name").first()
    Product.objects.filter(pk=product.pk).update(url_status=UrlStatus.BROKEN, url_http_status=410, url_error="Gone")

    page = staff_client.get(URL).content.decode()

    assert reverse("admin:catalog_product_change", args=[product.pk]) in page
    assert "Kapot: 1" in page and "Gone" in page


def test_it_only_answers_get(staff_client):
    assert staff_client.post(URL).status_code == 405


def test_it_links_to_the_page_from_the_navigation_for_staff_only(client, staff, owner):
    client.force_login(owner)
    assert URL not in client.get(reverse("search:new")).content.decode()

    client.force_login(staff)
    assert f'<a href="{URL}">Inzicht</a>' in client.get(reverse("search:new")).content.decode()
    assert f'<a href="{URL}" aria-current="page">Inzicht</a>' in client.get(URL).content.decode()


def test_it_links_to_the_page_from_the_admin_start_page(staff_client):
    page = staff_client.get(reverse("admin:index")).content.decode()

    assert f'<a href="{URL}" class="section">Inzicht</a>' in page
    assert 'id="content-main"' in page  # the admin's own list of apps is still there
