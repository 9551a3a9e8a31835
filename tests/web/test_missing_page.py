"""An address the site does not have: a browser gets a page in its language with the
way back to the lobby and the history; the API and scripts get ``{"error": ...}``."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import migrate

BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_a_browser_gets_a_page_and_a_script_json(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing.db'}"
    migrate(url)
    with TestClient(create_app(url)) as client:
        page = client.get("/no/such/place", headers=BROWSER)
        assert page.status_code == 404 and "text/html" in page.headers["content-type"]
        assert "There is no page here" in page.text and 'href="/history"' in page.text
        german = client.get("/no/such/place", headers={**BROWSER, "Accept-Language": "de"})
        assert german.status_code == 404 and "Diese Seite gibt es nicht" in german.text
        script = client.get("/no/such/place")
        assert script.status_code == 404 and set(script.json()) == {"error"}
        api = client.get("/api/no/such/place", headers=BROWSER)
        assert api.status_code == 404 and set(api.json()) == {"error"}
