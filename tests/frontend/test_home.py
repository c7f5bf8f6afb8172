import pytest

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_four_games(client):
    page = client.get("/")
    assert page.status_code == 200
    for name in ("skyjo", "dominoes", "kazino", "pitch"):
        assert f'data-game="{name}"' in page.content.decode()


def test_the_home_page_offers_every_language(client):
    html = client.get("/").content.decode()
    for code in ("en", "ht", "tl"):
        assert f'value="{code}"' in html
    assert "Kreyòl ayisyen" in html
