#!/bin/sh
# Start Stammtisch the one way it is started everywhere (`make run`, the Docker
# image): bring the database to the newest migration, then serve with uvicorn.
# alembic and uvicorn must be on PATH (the Makefile puts .venv/bin first).
#   HOST, PORT            where to listen (0.0.0.0, 8000)
#   FORWARDED_ALLOW_IPS   proxies whose X-Forwarded-* headers are trusted (127.0.0.1)
#   WS_COMPRESSION        permessage-deflate on the table sockets (true)
#   KEEPALIVE_S           seconds an idle HTTP connection is kept open (5)
# (their defaults here are app.config.Settings'; tests/test_deploy.py checks that)
# Every other setting is read by the app itself (see .env.example).
set -eu
cd "$(dirname "$0")/.."
# every connection is an open file: as many as the system lets this process have
# (Compose sets 65536; Docker's default soft limit is often 1024)
ulimit -n "$(ulimit -H -n)" 2>/dev/null || true
alembic upgrade head
# h11: its handshake leaves no reference cycle behind (httptools' does, 5 KiB a
# socket, until a pass of the cycle collector) and it caps a request's headers
# at 16 KiB; it closes an idle connection after KEEPALIVE_S (see README, Limits)
exec uvicorn app.main:app \
  --host "${HOST:-0.0.0.0}" --port "${PORT:-8000}" \
  --http h11 --timeout-keep-alive "${KEEPALIVE_S:-5}" \
  --ws-max-size 65536 --ws-per-message-deflate "${WS_COMPRESSION:-true}" \
  --proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
  --timeout-graceful-shutdown 5
