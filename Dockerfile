# Stammtisch in one small image: front-end packages from package-lock.json,
# the app installed with pip, migrations run at start, then uvicorn on :8000.
FROM node:20-slim AS vendor
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund \
 && mkdir -p vendor \
 && cp node_modules/htmx.org/dist/htmx.min.js vendor/htmx.min.js \
 && cp node_modules/htmx-ext-ws/dist/ws.js vendor/ws.js

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/stammtisch.db
WORKDIR /app
COPY pyproject.toml babel.cfg ./
COPY app ./app
# the message catalogues: .po are committed, .mo are compiled here
RUN pip install --no-cache-dir . \
 && pybabel compile -d app/locale --statistics
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY docs/rules ./docs/rules
COPY static ./static
COPY --from=vendor /build/vendor ./static/vendor
RUN mkdir -p /data
VOLUME ["/data"]
EXPOSE 8000
CMD ["sh", "-c", "alembic upgrade head && exec uvicorn app.main:app --host 0.0.0.0 --port 8000 --ws-max-size 65536 --ws-per-message-deflate false --proxy-headers --timeout-graceful-shutdown 5"]
