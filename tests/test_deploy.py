"""The deploy a home-server owner runs: every setting documented with its default
(.env.example and the README's table list exactly the fields of Settings), the
start script the image and `make run` use (migrate, then uvicorn with proxy
headers), the image and compose files, and a backup taken while the server runs
that restores open tables, history and chip balances on a fresh server."""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from app.config import Settings
from tests.conftest import ROOT, Server, free_port, migrate
from tests.web.apiclient import Table

VENV_BIN = Path(sys.executable).parent


def _env_example() -> dict[str, str]:
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name] = value
    return values


def _readme_settings() -> dict[str, str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([A-Z_]+)` \| ([^|]*) \|", section, re.M)
    return {name: default.strip() for name, default in rows}


def _default_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_every_setting_is_in_env_example_and_the_readme_with_its_default() -> None:
    fields = {name.upper(): f.default for name, f in Settings.model_fields.items()}
    example = _env_example()
    assert set(example) == set(fields), "exactly the fields of app.config.Settings"
    for name, default in fields.items():
        assert example[name] == _default_text(default), name
    readme = _readme_settings()
    assert set(readme) == set(fields)
    for name, default in fields.items():
        shown = readme[name].strip("`*")
        expected = _default_text(default)
        assert shown == expected or (expected == "" and shown == "(empty)"), (name, shown)


def test_the_image_and_compose_files_do_what_the_readme_says() -> None:
    docker = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^USER stammtisch$", docker, re.M), "runs as a non-root user"
    assert "HEALTHCHECK" in docker and "/healthz" in docker
    assert 'CMD ["sh", "scripts/serve.sh"]' in docker
    assert "DATABASE_URL=sqlite:////data/stammtisch.db" in docker
    assert 'VOLUME ["/data"]' in docker
    # the image's front-end files are the ones the Makefile copies
    make = (ROOT / "Makefile").read_text()
    for asset in ("htmx.min.js", "ws.js", "swagger-ui-bundle.js", "swagger-ui.css"):
        assert asset in docker and asset in make, asset
    assert "sh scripts/serve.sh" in make, "make run starts the same way as the image"
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert services["app"]["depends_on"]["db"]["condition"] == "service_healthy"
    for name in ("app", "db", "caddy"):
        assert services[name]["restart"] == "unless-stopped", name
    assert "healthcheck" in services["app"] and "healthcheck" in services["db"]
    assert services["caddy"]["profiles"] == ["https"], "Caddy is off by default"
    # the table sockets' compression: on unless .env or the shell switch it off
    assert "WS_COMPRESSION=true" in docker
    assert services["app"]["environment"]["WS_COMPRESSION"] == "${WS_COMPRESSION:-true}"
    caddy_ip = services["caddy"]["networks"]["stammtisch"]["ipv4_address"]
    assert services["app"]["environment"]["FORWARDED_ALLOW_IPS"] == caddy_ip
    assert "reverse_proxy app:8000" in (ROOT / "Caddyfile").read_text()


def _interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's interpolation of the forms the compose file uses: ``${VAR}``,
    ``${VAR:-default}`` and ``${VAR:+replacement}`` (innermost first)."""
    braced = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\+)([^${}]*))?\}")

    def one(m: re.Match[str]) -> str:
        name, op, word = m[1], m[2], m[3] or ""
        set_ = bool(env.get(name))
        if op == ":-":
            return env[name] if set_ else word
        if op == ":+":
            return word if set_ else ""
        return env.get(name, "")

    while braced.search(value):
        value = braced.sub(one, value)
    return value


def _published(service: dict[str, Any], env: dict[str, str]) -> list[tuple[str, str]]:
    """(host address, host port) of each port a service publishes ("" = every address)."""
    out = []
    for entry in service.get("ports", []):
        parts = _interpolate(str(entry), env).split("/")[0].split(":")
        host_ip = parts[0] if len(parts) == 3 else ""
        out.append((host_ip, parts[-2]))
    return out


def test_with_the_https_profile_only_the_proxy_is_published() -> None:
    """Issue 25 item 9: the app's plain-HTTP port is on every address without the
    https profile (phones on the home network), on the loopback only with it, so only
    Caddy answers from the network; the README says which port to forward."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert "ports" not in services["db"], "the database is never published"
    plain = {}  # docker compose up -d
    assert _published(services["app"], plain) == [("", "8000")]
    assert _published(services["app"], {"APP_PORT": "9000"}) == [("", "9000")]
    https = {"STAMMTISCH_DOMAIN": "cards.example.org", "COMPOSE_PROFILES": "https"}
    assert _published(services["app"], https) == [("127.0.0.1", "8000")]
    assert services["caddy"]["profiles"] == ["https"]
    public = [port for name in ("db", "app", "caddy")
              for ip, port in _published(services[name], https) if ip in ("", "0.0.0.0")]
    assert sorted(set(public)) == ["443", "80"], "only the proxy answers the network"
    assert services["caddy"]["environment"]["STAMMTISCH_DOMAIN"].startswith(
        "${STAMMTISCH_DOMAIN")
    readme = (ROOT / "README.md").read_text()
    deployment = readme.split("\n## Deployment", 1)[1].split("\n## ", 1)[0]
    assert "Which port to forward on the router: the proxy's, 443" in deployment
    assert "Never 8000" in deployment and "`0.0.0.0`" in deployment
    assert "make run HOST=127.0.0.1" in deployment
    assert "COMPOSE_PROFILES=https" in deployment
    assert "`make run` binds 0.0.0.0:8000" in readme, "make run keeps serving the LAN"
    make = (ROOT / "Makefile").read_text()
    assert re.search(r"^HOST \?= 0\.0\.0\.0$", make, re.M), make[:400]


def test_the_caddyfile_is_valid() -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("checking the Caddyfile needs caddy (apt-get install caddy)")
    out = subprocess.run([caddy, "adapt", "--config", str(ROOT / "Caddyfile"),
                          "--adapter", "caddyfile"], capture_output=True, text=True,
                         env={**os.environ, "STAMMTISCH_DOMAIN": "cards.example.org"},
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert '"dial":"app:8000"' in out.stdout and "cards.example.org" in out.stdout


def _serve(db_url: str, port: int, log: Path, **env: str) -> subprocess.Popen[bytes]:
    """scripts/serve.sh exactly as the image runs it (alembic and uvicorn on PATH)."""
    return subprocess.Popen(
        ["sh", str(ROOT / "scripts" / "serve.sh")],
        env={**os.environ, "PATH": f"{VENV_BIN}:{os.environ['PATH']}",
             "DATABASE_URL": db_url, "HOST": "127.0.0.1", "PORT": str(port), **env},
        stdout=log.open("ab"), stderr=subprocess.STDOUT, cwd="/")


def _wait_up(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the server did not come up")


def test_the_start_script_migrates_then_serves_behind_a_trusted_proxy(tmp_path: Path) -> None:
    db = tmp_path / "data" / "fresh.db"  # neither the folder nor the file exist yet
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    proc = _serve(f"sqlite:///{db}", port, log)
    try:
        _wait_up(base, proc, log)
        ready = httpx.get(base + "/readyz")
        assert ready.status_code == 200, ready.text  # migrated to head at start
        http = httpx.Client(base_url=base, follow_redirects=False)
        form = {"game": "schafkopf"}
        plain = http.post("/rooms", data=form, headers={"Origin": base})
        assert plain.status_code == 303 and "secure" not in plain.headers["set-cookie"].lower()
        # the proxy on this host says the player came over HTTPS: cookies are Secure
        proxied = http.post("/rooms", data=form, headers={
            "Origin": "https://cards.example.org", "Host": "cards.example.org",
            "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"})
        assert proxied.status_code == 303, proxied.text
        assert "; secure" in proxied.headers["set-cookie"].lower()
        assert proxied.headers["strict-transport-security"]
        http.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    # uvicorn shuts down gracefully, then re-raises the signal it was stopped with
    assert proc.returncode in (0, -signal.SIGTERM)
    assert "Finished server process" in log.read_text()
    assert "Running upgrade" in log.read_text() or "alembic" in log.read_text().lower()


def test_the_start_scripts_defaults_are_the_settings_defaults() -> None:
    """The settings scripts/serve.sh reads itself (uvicorn's flags) fall back to the
    same defaults as app.config.Settings and the README."""
    script = (ROOT / "scripts" / "serve.sh").read_text()
    fields = {name.upper(): f.default for name, f in Settings.model_fields.items()}
    defaults = dict(re.findall(r"\$\{([A-Z_]+):-([^}]*)\}", script))
    read = {name: value for name, value in defaults.items() if name in fields}
    assert {"FORWARDED_ALLOW_IPS", "WS_COMPRESSION"} <= set(read)
    for name, value in read.items():
        assert value == _default_text(fields[name]), name


def _deflate_offered(ws_url: str) -> str | None:
    """The Sec-WebSocket-Extensions the server answers a client that offers
    permessage-deflate (as every browser does) with; None when it declines."""
    from websockets.sync.client import connect

    with connect(ws_url, compression="deflate", proxy=None, open_timeout=10) as ws:
        assert 'id="version"' in str(ws.recv(timeout=10))  # a working table socket
        assert ws.response is not None
        extensions = ws.response.headers.get("Sec-WebSocket-Extensions")
        assert bool(ws.protocol.extensions) == (extensions is not None)
        return extensions


@pytest.mark.parametrize("setting", [None, "false", "true"])
def test_table_sockets_are_compressed_unless_switched_off(
        tmp_path: Path, setting: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """WS_COMPRESSION (default on): the start script lets uvicorn accept a client's
    permessage-deflate on the table socket, or not."""
    monkeypatch.delenv("WS_COMPRESSION", raising=False)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    env = {"WS_COMPRESSION": setting} if setting is not None else {}
    proc = _serve(f"sqlite:///{tmp_path / 'ws.db'}", port, log, **env)
    try:
        _wait_up(base, proc, log)
        room = httpx.post(base + "/api/rooms", json={"game": "schafkopf"}).json()["room"]
        extensions = _deflate_offered(f"ws://127.0.0.1:{port}/r/{room}/ws")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    if setting == "false":
        assert extensions is None
    else:
        assert extensions is not None and extensions.startswith("permessage-deflate")


def _play(table: Table, tokens: list[str], steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        states = [table.view(t) for t in tokens]
        acting = [i for i, st in enumerate(states) if st["legal"]]
        if not acting:
            time.sleep(0.02)
            continue
        seat = rng.choice(acting)
        st = states[seat]
        r = table.act(tokens[seat], rng.choice(st["legal"]), st["version"])
        assert r.status_code in (200, 409), r.text


def test_a_backup_taken_while_playing_restores_tables_history_and_chips(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    migrate(url)
    live = Server(url, tmp_path / "live.log").start()
    try:
        finished = Table(live.base, "mauscheln", players=3, seed=8)
        for name in ("Anna", "Bert", "Cilli"):
            finished.join(name)
        assert finished.start().status_code == 200
        end = finished.http.post(f"/api/rooms/{finished.room}/end",
                                 headers={"Authorization": f"Bearer {finished.host_token}"})
        assert end.status_code == 200
        table = Table(live.base, "mauscheln", players=3, seed=9)
        tokens = [table.join(n)[1] for n in ("Vroni", "Sepp", "Resi")]
        assert table.start().status_code == 200
        rng = random.Random(3)
        while table.view(tokens[0])["view"]["deal_no"] < 3:  # chips have moved
            _play(table, tokens, 5, rng)
        before = {t: table.view(t) for t in tokens}
        ledger_before = httpx.get(f"{live.base}/r/{table.room}/ledger").text
        out = tmp_path / "backups" / "copy.db"
        done = subprocess.run([sys.executable, "-m", "app.backup", str(out)], cwd=ROOT,
                              env={**os.environ, "DATABASE_URL": url},
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "backup written" in done.stdout
        # the live server plays on after the copy was taken
        _play(table, tokens, 3, rng)
    finally:
        live.stop()
    restored = Server(f"sqlite:///{out}", tmp_path / "restored.log").start()
    try:
        again = Table.attach(restored.base, table.room)
        for token in tokens:
            st = again.view(token)
            assert st["version"] == before[token]["version"]
            assert st["view"]["scores"] == before[token]["view"]["scores"], "chip balances"
            assert st["view"]["hand"] == before[token]["view"]["hand"]
        assert httpx.get(f"{restored.base}/r/{table.room}/ledger").text == ledger_before
        history = httpx.get(f"{restored.base}/history?game=mauscheln").text
        assert finished.room in history
        assert httpx.get(f"{restored.base}/history/{finished.room}").status_code == 200
        # and the table plays on
        st = again.view(tokens[0])
        seat_tokens = [t for t in tokens if again.view(t)["legal"]]
        assert seat_tokens, "somebody may move"
        mover = again.view(seat_tokens[0])
        r = again.act(seat_tokens[0], mover["legal"][0], mover["version"])
        assert r.status_code == 200, r.text
        assert st["status"] == "playing"
    finally:
        restored.stop()
