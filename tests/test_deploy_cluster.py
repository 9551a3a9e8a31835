"""The cluster a club runs when one process is not enough (issue 29,
docs/scaling.md): the compose profile ``cluster`` (three app instances with room
leases behind Caddy, only the proxy published) and its Caddyfile
(deploy/Caddyfile.cluster), which sends every request and socket naming a room to
one instance. tests/web/test_cluster.py runs both for real."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.main import create_app
from tests.conftest import ROOT
from tests.test_deploy import _published

CADDYFILE = ROOT / "deploy" / "Caddyfile.cluster"
INSTANCES = ("app1", "app2", "app3")


def _services() -> dict[str, Any]:
    services: dict[str, Any] = yaml.safe_load(
        (ROOT / "docker-compose.yml").read_text())["services"]
    return services


def _room_pattern() -> re.Pattern[str]:
    """The proxy's pattern for a path that names a room (group 1: the room id)."""
    found = re.search(r"path_regexp room (\S+)", CADDYFILE.read_text())
    assert found, "the Caddyfile extracts the room id with a path_regexp named room"
    return re.compile(found[1])


def _adapted(env: dict[str, str], tmp_path: Path) -> dict[str, Any]:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("checking the Caddyfile needs caddy (apt-get install caddy)")
    run_env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
               "XDG_CONFIG_HOME": str(tmp_path / "config"), **env}
    args = ["--config", str(CADDYFILE), "--adapter", "caddyfile"]
    valid = subprocess.run([caddy, "validate", *args], capture_output=True, text=True,
                           env=run_env, timeout=60)
    assert valid.returncode == 0, valid.stderr
    out = subprocess.run([caddy, "adapt", *args], capture_output=True, text=True,
                         env=run_env, timeout=60)
    assert out.returncode == 0, out.stderr
    adapted: dict[str, Any] = json.loads(out.stdout)
    return adapted


def _paths(routes: list[Any]) -> set[str]:
    """Every route's path, through the routers the app includes."""
    paths: set[str] = set()
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            paths |= _paths(included.routes)
        elif isinstance(getattr(route, "path", None), str):
            paths.add(route.path)
    return paths


def _handlers(node: Any) -> list[dict[str, Any]]:
    """Every handler in an adapted config, depth first."""
    found = []
    if isinstance(node, dict):
        if "handler" in node:
            found.append(node)
        for value in node.values():
            found += _handlers(value)
    elif isinstance(node, list):
        for value in node:
            found += _handlers(value)
    return found


def test_the_cluster_caddyfile_is_valid_as_compose_runs_it(tmp_path: Path) -> None:
    proxy = _services()["proxy"]
    env = {k: str(v) for k, v in proxy["environment"].items()}
    env["STAMMTISCH_DOMAIN"] = "cards.example.org"
    config = _adapted(env, tmp_path)
    [server] = config["apps"]["http"]["servers"].values()
    assert server["routes"][0]["match"] == [{"host": ["cards.example.org"]}]
    [rp] = [h for h in _handlers(config) if h["handler"] == "reverse_proxy"]
    assert [u["dial"] for u in rp["upstreams"]] == [f"{n}:8000" for n in INSTANCES]
    assert rp["load_balancing"]["selection_policy"] == {"policy": "header",
                                                         "field": "X-Stammtisch-Room"}
    # a dead instance: the request goes on to the next choice, which is marked down
    assert rp["load_balancing"]["try_duration"] >= 2_000_000_000
    assert rp["health_checks"]["passive"]["max_fails"] == 1
    assert rp["health_checks"]["active"]["uri"] == "/readyz"
    assert rp["flush_interval"] == -1, "table frames go out at once"
    # the header is the proxy's own: deleted first, then set from the path
    headers = [h for h in _handlers(config) if h["handler"] == "headers"]
    assert headers[0]["request"] == {"delete": ["X-Stammtisch-Room"]}
    assert headers[1]["request"] == {"set": {"X-Stammtisch-Room": ["{http.regexp.room.1}"]}}


def test_the_cluster_caddyfile_serves_plain_http_on_a_port_for_the_test(
        tmp_path: Path) -> None:
    """tests/web/test_cluster.py runs the file as it is, with these settings."""
    config = _adapted({"STAMMTISCH_DOMAIN": "http://127.0.0.1:18080", "CADDY_ADMIN": "off",
                       "APP1": "127.0.0.1:18081", "APP2": "127.0.0.1:18082",
                       "APP3": "127.0.0.1:18083"}, tmp_path)
    assert config["admin"]["disabled"] is True
    [server] = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":18080"]
    [rp] = [h for h in _handlers(config) if h["handler"] == "reverse_proxy"]
    assert [u["dial"] for u in rp["upstreams"]] == [f"127.0.0.1:1808{i}" for i in (1, 2, 3)]


def test_every_path_naming_a_room_is_routed_by_its_room() -> None:
    """Every route of the app with a room in its path (pages, the socket, the API,
    the QR code, reviews, the next table) gives the proxy that room's id; no other
    route does (they go to any instance)."""
    pattern = _room_pattern()
    app = create_app("sqlite://")
    paths = _paths(app.routes)
    paths.add("/r/{room_id}/ws")  # the table socket, served before the routes
    rooms = {p for p in paths if "{room_id}" in p}
    assert {"/r/{room_id}", "/r/{room_id}/ws", "/r/{room_id}/qr.svg", "/r/{room_id}/next",
            "/r/{room_id}/reviews", "/api/rooms/{room_id}/actions",
            "/api/rooms/{room_id}/view"} <= rooms
    for path in sorted(paths):
        concrete = path.replace("{room_id}", "Abc-9_z").replace("{", "").replace("}", "")
        found = pattern.match(concrete)
        if path in rooms:
            assert found and found[1] == "Abc-9_z", path
        else:
            assert found is None, path
    assert pattern.match("/r/Abc/ws?x=1")[1] == "Abc"  # type: ignore[index]
    assert pattern.match("/rules/schafkopf") is None
    assert pattern.match("/api/rooms") is None, "opening a room: any instance"
    # the one-time player links are kept in one instance's memory
    assert "@players path /players/*" in CADDYFILE.read_text()
    assert any(p.startswith("/players/") for p in paths)


def test_the_cluster_profile_runs_three_instances_behind_the_proxy_only() -> None:
    services = _services()
    for name in INSTANCES:
        app = services[name]
        assert app["profiles"] == ["cluster"], name
        assert app["environment"]["ROOM_LEASES"] == "true", name
        assert app["environment"]["DATABASE_URL"].startswith("postgresql://"), name
        assert "ports" not in app, f"{name} is reached through the proxy only"
        assert "/readyz" in app["healthcheck"]["test"][-1]
        assert app["restart"] == "unless-stopped"
    proxy = services["proxy"]
    assert proxy["profiles"] == ["cluster"]
    assert "./deploy/Caddyfile.cluster:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert {proxy["environment"][f"APP{i}"] for i in (1, 2, 3)} == {
        f"{n}:8000" for n in INSTANCES}
    ip = proxy["networks"]["stammtisch"]["ipv4_address"]
    assert all(services[n]["environment"]["FORWARDED_ALLOW_IPS"] == ip for n in INSTANCES)
    assert ip != services["caddy"]["networks"]["stammtisch"]["ipv4_address"]
    # one migration at a time: app1 first, the others once it is healthy
    assert services["app1"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    for name in ("app2", "app3"):
        assert services[name]["depends_on"] == {"app1": {"condition": "service_healthy"}}
    assert set(proxy["depends_on"]) == set(INSTANCES)
    cluster = {"COMPOSE_PROFILES": "cluster", "STAMMTISCH_DOMAIN": "cards.example.org"}
    public = sorted({port for name in ("db", *INSTANCES, "proxy")
                     for _ip, port in _published(services[name], cluster)})
    assert public == ["443", "80"], "only the proxy answers the network"
    # `docker compose up` without a profile is what it was: db and app
    assert [n for n, s in services.items() if "profiles" not in s] == ["db", "app"]
    assert "docker compose --profile cluster up -d proxy" in (
        ROOT / "docker-compose.yml").read_text()
