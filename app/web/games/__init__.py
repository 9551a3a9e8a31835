"""One presentation module per game: ``app/web/games/<game>.py`` exposing
``PRESENTATION``. Modules here are found by :mod:`app.web.presentation`; nothing
lists them."""
