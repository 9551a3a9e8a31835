# Stammtisch in one small image: front-end packages from package-lock.json, the app
# installed with pip, run as an unprivileged user; scripts/serve.sh migrates the
# database and starts uvicorn (the same command as `make run`). Data lives in /data.
FROM node:20-slim AS vendor
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && mkdir -p vendor/swagger-ui \
 && cp node_modules/htmx.org/dist/htmx.min.js vendor/htmx.min.js \
 && cp node_modules/htmx-ext-ws/dist/ws.js vendor/ws.js \
 && cp node_modules/swagger-ui-dist/swagger-ui-bundle.js node_modules/swagger-ui-dist/swagger-ui.css \
       node_modules/swagger-ui-dist/LICENSE vendor/swagger-ui/

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/stammtisch.db \
    HOST=0.0.0.0 PORT=8000 \
    WS_COMPRESSION=true
WORKDIR /app
COPY pyproject.toml babel.cfg ./
COPY app ./app
# the message catalogues: .po are committed, .mo are compiled here
RUN pip install --no-cache-dir . \
 && pybabel compile -d app/locale --statistics \
 && groupadd --system --gid 10001 stammtisch \
 && useradd --system --uid 10001 --gid stammtisch --home-dir /data --shell /usr/sbin/nologin stammtisch \
 && mkdir -p /data && chown stammtisch:stammtisch /data
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY docs/rules ./docs/rules
COPY static ./static
COPY scripts ./scripts
COPY --from=vendor /build/vendor ./static/vendor
USER stammtisch
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["sh", "scripts/serve.sh"]
