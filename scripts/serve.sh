#!/bin/sh
# Start Stammtisch the one way it is started everywhere (`make run`, the Docker
# image): bring the database to the newest migration, then serve with uvicorn.
# alembic and uvicorn must be on PATH (the Makefile puts .venv/bin first).
#   HOST, PORT            where to listen (0.0.0.0, 8000)
#   FORWARDED_ALLOW_IPS   proxies whose X-Forwarded-* headers are trusted (127.0.0.1)
#   WS_COMPRESSION        permessage-deflate on the table sockets (true)
# (their defaults here are app.config.Settings'; tests/test_deploy.py checks that)
# Every other setting is read by the app itself (see .env.example).
set -eu
cd "$(dirname "$0")/.."
alembic upgrade head
exec uvicorn app.main:app \
  --host "${HOST:-0.0.0.0}" --port "${PORT:-8000}" \
  --ws-max-size 65536 --ws-per-message-deflate "${WS_COMPRESSION:-true}" \
  --proxy-headers --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
  --timeout-graceful-shutdown 5
