"""The compose profile ``cluster`` without Docker: N app instances started as the
image starts them (``scripts/serve.sh``, with ``ROOM_LEASES`` on) on one PostgreSQL
database, behind Caddy running ``deploy/Caddyfile.cluster`` as the ``proxy`` service
does (``caddy run --config ... --adapter caddyfile``), all on free loopback ports.
Used by ``tests/web/test_cluster.py`` and ``bench/load.py --instances N``.

With three instances the Caddyfile runs as it is, its upstreams given by APP1..APP3
as compose gives them; with another number its one upstream line names them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.conftest import ROOT, Server, free_port

CADDYFILE = ROOT / "deploy" / "Caddyfile.cluster"
UPSTREAMS = "{$APP1:app1:8000} {$APP2:app2:8000} {$APP3:app3:8000}"
INSTANCE_HEADER = "x-stammtisch-instance"  # which instance answered (the proxy says)


class Instance(Server):
    """One app instance: ``scripts/serve.sh`` (migrate, then uvicorn with the image's
    flags) on a free loopback port; its name is the proxy's for it (host:port)."""

    def __init__(self, db_url: str, log_path: Path, env: dict[str, str]) -> None:
        super().__init__(db_url, log_path, env)
        self.name = f"127.0.0.1:{self.port}"
        self.env.update({"PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
                         "HOST": "127.0.0.1", "PORT": str(self.port),
                         "FORWARDED_ALLOW_IPS": "127.0.0.1"})  # the proxy's address

    def uvicorn_args(self, app: str = "app.main:app") -> list[str]:
        return ["sh", str(ROOT / "scripts" / "serve.sh")]


class Cluster:
    """``instances`` app instances behind the cluster's Caddy, started and stopped
    together; ``base`` and ``ws_base`` are the proxy's."""

    def __init__(self, db_url: str, workdir: Path, instances: int = 3,
                 env: dict[str, str] | None = None) -> None:
        caddy = shutil.which("caddy")
        if caddy is None:
            raise RuntimeError("the cluster needs caddy on PATH")
        self.caddy_bin = caddy
        self.workdir = workdir
        settings = {"ROOM_LEASES": "true", "MAX_SOCKETS_PER_CLIENT": "100000",
                    "MAX_SOCKETS_PER_ROOM": "1000", **(env or {})}
        self.instances = [Instance(db_url, workdir / f"app{i + 1}.log", settings)
                          for i in range(instances)]
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.caddy: subprocess.Popen[bytes] | None = None
        self.caddy_log = workdir / "caddy.log"

    def caddy_config(self) -> tuple[Path, dict[str, str]]:
        """The Caddyfile to run and its environment, as the ``proxy`` service has them."""
        env = {**os.environ, "STAMMTISCH_DOMAIN": self.base, "CADDY_ADMIN": "off",
               "XDG_DATA_HOME": str(self.workdir / "caddy-data"),
               "XDG_CONFIG_HOME": str(self.workdir / "caddy-config")}
        if len(self.instances) == 3:
            env.update({f"APP{i + 1}": inst.name for i, inst in enumerate(self.instances)})
            return CADDYFILE, env
        text = CADDYFILE.read_text()
        assert UPSTREAMS in text
        path = self.workdir / "Caddyfile.cluster"
        path.write_text(text.replace(UPSTREAMS, " ".join(i.name for i in self.instances)))
        return path, env

    def start(self) -> Cluster:
        try:
            with ThreadPoolExecutor(len(self.instances)) as starting:  # side by side
                list(starting.map(Instance.start, self.instances))
            config, env = self.caddy_config()
            self.caddy = subprocess.Popen(
                [self.caddy_bin, "run", "--config", str(config), "--adapter", "caddyfile"],
                env=env, stdout=self.caddy_log.open("ab"), stderr=subprocess.STDOUT)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                assert self.caddy.poll() is None, self.caddy_log.read_text()[-3000:]
                try:
                    if httpx.get(self.base + "/readyz", timeout=2).status_code == 200:
                        return self
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            raise RuntimeError("the proxy did not come up")
        except BaseException:
            self.stop()
            raise

    def by_name(self, name: str) -> Instance:
        return next(i for i in self.instances if i.name == name)

    def stop(self) -> None:
        if self.caddy is not None and self.caddy.poll() is None:
            self.caddy.send_signal(signal.SIGTERM)
            try:
                self.caddy.wait(10)
            except subprocess.TimeoutExpired:
                self.caddy.kill()
                self.caddy.wait(5)
        for inst in self.instances:
            inst.stop()
