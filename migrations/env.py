"""Alembic environment: the URL comes from the app's settings (DATABASE_URL),
or from ``config.attributes["url"]`` when tests run migrations themselves."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context

from app.config import get_settings
from app.db.models import Base
from app.db.session import make_engine, normalize_url

config = context.config
if config.config_file_name is not None and not config.attributes.get("quiet"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

url = config.attributes.get("url") or get_settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=normalize_url(url), target_metadata=Base.metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
