"""Errors the room service reports to one client, each with an HTTP status.

``message`` is the English text (the JSON API's default, the logs); ``key`` and
``params`` are its template and parameters, so the web layer can show it in the
client's language (:func:`app.web.messages.error_text`). A refusal of the engine
(:class:`app.games.IllegalAction`) or of an option (:class:`app.games.OptionError`)
keeps its own template through :meth:`RoomError.of`.
"""

from __future__ import annotations

from typing import Any


class RoomError(Exception):
    status = 400

    def __init__(self, message: str, **params: Any) -> None:
        key = getattr(message, "key", None)
        if key is not None:  # an engine's Reason: English text, template, parameters
            self.key: str = key
            self.params: dict[str, Any] = {**getattr(message, "params", {}), **params}
            text = str(message)
        else:
            self.key = message
            self.params = params
            text = message.format(**params) if params else message
        super().__init__(text)
        self.message = text
        # the options (or "players") the error is about, when it is about some
        self.fields: tuple[str, ...] = ()

    @classmethod
    def of(cls, exc: Exception) -> RoomError:
        """This error carrying the message of an engine's exception (and its template,
        parameters and the options it is about when it has them)."""
        err = cls(str(exc))
        err.key = getattr(exc, "key", str(exc))
        err.params = dict(getattr(exc, "params", {}))
        err.fields = tuple(getattr(exc, "fields", ()))
        return err


class BadRequest(RoomError):
    status = 400


class Unauthorized(RoomError):
    status = 401


class Forbidden(RoomError):
    status = 403


class NotFound(RoomError):
    status = 404


class Stale(RoomError):
    """The action was made from an older view (stale tab or double submit)."""

    status = 409


class Illegal(RoomError):
    status = 422


class TooMany(RoomError):
    """A client (or the whole server) went past a limit; ``retry_after`` seconds
    until trying again makes sense, when known."""

    status = 429

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Unavailable(Illegal):
    """The move cannot be made now: the database is not answering, and the table
    resumes by itself (a kind of Illegal, so that whoever stops on a refused move
    stops on this one too)."""

    status = 503


class ServedElsewhere(Unavailable):
    """Another server process serves the room just now (``ROOM_LEASES``,
    :mod:`app.rooms.leases`): ask again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Conflict(RoomError):
    """The request collides with the table as it is (say, a seat that is taken)."""

    status = 409
