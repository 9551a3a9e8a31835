"""Static files under names that change with their content.

At start every file under ``static/`` is read once: its bytes, a short hash of them
and, for text, its gzip-compressed bytes. Pages link ``static_url("css/app.css")``
= ``/static/css/app.3f2a9c1b04.css``; such a name is answered with
``Cache-Control: public, max-age=31536000, immutable`` (a new file is a new name,
so a browser never asks twice). The plain name (``/static/css/app.css``, for
references inside CSS and for anything outside the templates) is answered with an
ETag and ``no-cache``: the browser asks again and gets ``304 Not Modified``. A hashed
name whose hash is not the current one (a page from before an update) is redirected
to the current name. Text is sent gzip-compressed to clients that accept it.

With ``DEV=true`` a file edited while the server runs is read again on its next
request; otherwise nothing under ``static/`` is looked at after start.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.config import get_settings

STATIC = Path(__file__).resolve().parents[2] / "static"
PREFIX = "/static/"
HASH_LEN = 10
HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LEN}}})(?P<ext>\.[^./]+)$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml",
                "application/xml")
MIN_GZIP = 500  # bytes: below this gzip saves nothing worth a header

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("image/svg+xml", ".svg")


@dataclass(frozen=True)
class Asset:
    path: str  # relative to static/, with "/"
    body: bytes
    digest: str
    media_type: str
    gzipped: bytes | None
    mtime_ns: int
    hashed: str  # the path with the digest before the suffix: css/app.3f2a9c1b04.css

    @property
    def etag(self) -> str:
        return f'"{self.digest}"'


def _read(root: Path, file: Path) -> Asset:
    body = file.read_bytes()
    media_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type == "application/javascript":
        media_type += "; charset=utf-8"
    gzipped = None
    if len(body) >= MIN_GZIP and media_type.startswith(COMPRESSIBLE):
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        gzipped = packed if len(packed) < len(body) else None
    path = PurePosixPath(file.relative_to(root).as_posix())
    digest = hashlib.sha256(body).hexdigest()[:HASH_LEN]
    return Asset(path=str(path), body=body, digest=digest, media_type=media_type,
                 gzipped=gzipped, mtime_ns=file.stat().st_mtime_ns,
                 hashed=str(path.with_name(f"{path.stem}.{digest}{path.suffix}")))


class Assets:
    """Every file under one folder, read at start; looked up by plain or hashed name."""

    def __init__(self, root: Path = STATIC, dev: bool = False) -> None:
        self.root = root
        self.dev = dev
        self.files: dict[str, Asset] = {}
        self.load()

    def load(self) -> None:
        self.files = {a.path: a for a in (_read(self.root, f) for f in sorted(
            self.root.rglob("*")) if f.is_file() and not f.name.startswith("."))}

    def get(self, path: str) -> Asset | None:
        asset = self.files.get(path)
        if self.dev:  # a file edited (or added) while the server runs
            file = self.root / path
            try:
                fresh = file.is_file() and (asset is None
                                            or file.stat().st_mtime_ns != asset.mtime_ns)
            except OSError:
                fresh = False
            if fresh and file.resolve().is_relative_to(self.root.resolve()):
                asset = self.files[path] = _read(self.root, file)
        return asset

    def url(self, path: str) -> str:
        """``/static/<path>`` under its content-hashed name."""
        asset = self.get(path)
        if asset is None:
            raise LookupError(f"no static file {path!r}")
        return PREFIX + asset.hashed

    def resolve(self, name: str) -> tuple[Asset | None, bool]:
        """The file a request names and whether it named the current hash. A hashed
        name with an old hash comes back as (file, False) so it can be redirected."""
        asset = self.get(name)
        if asset is not None:
            return asset, False
        m = HASHED.match(name)
        if m is None:
            return None, False
        asset = self.get(m["stem"] + m["ext"])
        if asset is None:
            return None, False
        return asset, asset.digest == m["hash"]


_assets: Assets | None = None


def assets() -> Assets:
    global _assets
    if _assets is None:
        _assets = Assets(dev=get_settings().dev)
    return _assets


def static_url(path: str) -> str:
    """The Jinja global: ``{{ static_url('css/app.css') }}``."""
    return assets().url(path)


router = APIRouter()


@router.api_route("/static/{name:path}", methods=["GET", "HEAD"], include_in_schema=False)
async def static_file(name: str, request: Request) -> Response:
    asset, current = assets().resolve(name)
    if asset is None:
        return Response("Not Found", status_code=404, media_type="text/plain")
    if name != asset.path and not current:  # an old hash: the file as it is now
        return RedirectResponse(assets().url(asset.path), status_code=307,
                                headers={"Cache-Control": REVALIDATE})
    gzip_ok = asset.gzipped is not None and "gzip" in request.headers.get(
        "accept-encoding", "")
    headers = {"Cache-Control": IMMUTABLE if current else REVALIDATE,
               "ETag": asset.etag[:-1] + ('-gz"' if gzip_ok else '"')}
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    tags = [t.strip().removeprefix("W/") for t in
            request.headers.get("if-none-match", "").split(",")]
    if headers["ETag"] in tags or "*" in tags:
        return Response(status_code=304, headers=headers)
    body = asset.body
    if gzip_ok and asset.gzipped is not None:
        body = asset.gzipped
        headers["Content-Encoding"] = "gzip"
    if request.method == "HEAD":
        headers["Content-Length"] = str(len(body))
        return Response(status_code=200, headers=headers, media_type=asset.media_type)
    return Response(body, headers=headers, media_type=asset.media_type)
