"""Errors the room service reports to one client, each with an HTTP status."""

from __future__ import annotations


class RoomError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
