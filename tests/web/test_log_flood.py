"""A client cannot flood the log: deeply nested JSON is refused before any
recursive parsing (no RecursionError, no traceback), a refused frame logs at most
one line, and a client that goes away is logged at debug level only."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.web.limits import json_too_deep
from tests.conftest import migrate
from tests.web.frames import frame_flash


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'flood.db'}"
    migrate(url)
    with TestClient(create_app(url)) as c:
        yield c


def _noisy(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    return [r for r in records if (r.levelno >= logging.INFO or r.exc_info)
            and r.name != "stammtisch.loop"]  # the machine's stalls, not the client's


def test_deep_json_frames_are_refused_without_a_traceback(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    room = client.post("/api/rooms", json={"game": "schafkopf"}).json()["room"]
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    frames = ["[" * 2000, "{\"a\":" * 600 + "1" + "}" * 600, "[" * 2000 + "]" * 2000,
              "{\"action\": " + "[" * 3000, "not json", "\"text\"", "[]"] * 5
    with client.websocket_connect(f"/r/{room}/ws") as ws:
        ws.receive_text()  # the table as it is
        for frame in frames:
            ws.send_text(frame)
            answer = ws.receive_text()
            assert frame_flash(answer) == "That message was not understood."
    records = [r for r in caplog.records if r.name.startswith("stammtisch")]
    assert not any(r.exc_info for r in records), "no traceback for a refused frame"
    assert len(_noisy(records)) <= len(frames), "at most one line per refused frame"
    assert not any("Recursion" in r.getMessage() for r in caplog.records)


def test_deep_json_api_bodies_are_refused_quietly(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    for _ in range(5):
        r = client.post("/api/rooms", content="[" * 2000,
                        headers={"Content-Type": "application/json"})
        assert 400 <= r.status_code < 500
    assert not any(r.exc_info for r in caplog.records)
    assert client.get("/api/games").status_code == 200


def test_a_client_that_goes_away_is_not_an_error(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    room = client.post("/api/rooms", json={"game": "schafkopf"}).json()["room"]
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    for _ in range(10):
        with client.websocket_connect(f"/r/{room}/ws") as ws:
            ws.receive_text()
            ws.send_text('{"action": "play:EO", "version": 0}')  # an answer is pending
    # (a stall of the event loop on a busy machine, app.loop_watch, is not the client's)
    records = [r for r in caplog.records
               if r.name.startswith("stammtisch") and r.name != "stammtisch.loop"]
    assert not [r for r in records if r.levelno >= logging.WARNING or r.exc_info]


def test_the_depth_scan_reads_strings_as_strings() -> None:
    assert not json_too_deep('{"a": "[[[[[[[[[[[[[[[[[[[["}', 2)
    assert not json_too_deep('{"a": "\\"[[[[[[[[[[[[["}', 2)
    assert json_too_deep('{"a": [[[1]]]}', 3)
    assert not json_too_deep('{"a": [[1]]}', 3)
