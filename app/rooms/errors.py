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


class Conflict(RoomError):
    """The request collides with the table as it is (say, a seat that is taken)."""

    status = 409
