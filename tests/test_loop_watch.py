"""The event loop's stall probe (app.loop_watch): what it keeps and what it logs,
fed stalls by hand (no timing is asserted)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.loop_watch import WARN_EVERY_S, WINDOW_S, LoopWatch
from app.main import create_app
from tests.conftest import migrate


def test_recent_is_the_last_one_or_two_windows_and_since_start_everything() -> None:
    watch = LoopWatch()
    watch.stalled(30.0, 30.0, now=1000.0)
    watch.stalled(5.0, 5.0, now=1000.0 + WINDOW_S)  # the next window
    assert (watch.recent_ms, watch.since_start_ms) == (30.0, 30.0)
    watch.stalled(8.0, 8.0, now=1000.0 + 2 * WINDOW_S)  # the 30 ms is two windows back
    assert (watch.recent_ms, watch.since_start_ms) == (8.0, 30.0)
    watch.stalled(1.0, 1.0, now=1000.0 + 5 * WINDOW_S)  # nothing for minutes
    assert (watch.recent_ms, watch.since_start_ms) == (1.0, 30.0)


def test_a_long_stall_is_a_warning_and_a_run_of_them_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    watch = LoopWatch()
    caplog.set_level(logging.INFO, logger="stammtisch.loop")
    watch.stalled(99.0, 90.0, now=10.0)
    assert not caplog.records, "below 100 ms: no line"
    watch.stalled(250.0, 240.0, now=11.0)
    for second in range(12, 12 + int(WARN_EVERY_S) - 2):
        watch.stalled(150.0, 1.0, now=float(second))
    watch.stalled(120.0, 100.0, now=11.0 + WARN_EVERY_S)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and all(r.levelno == logging.WARNING for r in caplog.records)
    assert "250 ms" in lines[0] and "240 ms" in lines[0]
    assert (watch.since_start_ms, watch.busiest_ms) == (250.0, 240.0)
    assert f"{int(WARN_EVERY_S) - 2} more" in lines[1]


def test_healthz_says_how_long_the_loop_was_held_up(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'watch.db'}"
    migrate(url)
    with TestClient(create_app(url)) as client:
        answer = client.get("/healthz").json()
    assert answer["status"] == "ok"
    assert set(answer["loop_stall_ms"]) == {"recent", "since_start", "busiest"}
    assert answer["loop_stall_ms"]["since_start"] >= answer["loop_stall_ms"]["recent"] >= 0
