"""Host names and public addresses: what a ``Host`` header or ``PUBLIC_URL`` may be.

A link the server hands out (the room link, its QR code, the API's ``url``) is made
from ``PUBLIC_URL`` when it is set, else from the request's own scheme and ``Host``.
A ``Host`` header is the client's to choose, so it is used only when it is a host
name as DNS and URLs have them: a name of at most 253 characters in labels of at
most 63 (letters, digits, ``-``, and ``_`` as some local names have), an IPv4
address, or an IPv6 address in brackets, with an optional port.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

NAME_MAX = 253  # the longest DNS name
_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_NAME = re.compile(rf"(?:{_LABEL}\.)*{_LABEL}\.?")
_HOST = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^:\[\]]+)(?::(?P<port>[0-9]{1,5}))?")


def valid_host(value: str | None) -> bool:
    """Whether ``value`` (a ``Host`` header or a URL's netloc) is ``host[:port]`` with
    a real host name or address."""
    if not value:
        return False
    found = _HOST.fullmatch(value)
    if found is None:
        return False
    port = found["port"]
    if port is not None and not 0 < int(port) < 65536:
        return False
    host = found["host"]
    if host.startswith("["):
        try:
            return ipaddress.ip_address(host[1:-1]).version == 6
        except ValueError:
            return False
    return len(host) <= NAME_MAX and _NAME.fullmatch(host) is not None


def public_origin(url: str) -> str:
    """``url`` as an origin (``scheme://host[:port]``, lower case, no slash at the
    end); ValueError unless it is an http(s) address of a valid host with no path,
    query or fragment (``PUBLIC_URL``)."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("PUBLIC_URL must start with http:// or https://")
    if not valid_host(parts.netloc) or parts.username or parts.password:
        raise ValueError("PUBLIC_URL must name a valid host (and port), nothing else")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("PUBLIC_URL is the server's address alone, without a path "
                         "(https://cards.example.org)")
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"
