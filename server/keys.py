"""One key per purpose, derived from the server's secret, so that no two uses can meet.

Before, the Dreams link of player X was HMAC(secret, "table:X") and the secret deal's seed was
HMAC(secret, "table:seed"): a player named like the seed held the deal (issue 12, item 2). Now each
purpose has its own key, HMAC(secret, "tablesight key: <purpose>"), and every MAC input is a
length-prefixed list of fields, so no choice of name or seed turns one message into another.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Literal

Purpose = Literal["dreams link", "secret deal", "table creator", "camera token"]


def _fields(parts: tuple[str | int, ...]) -> bytes:
    # Length-prefixed: ("a:b", "c") and ("a", "b:c") are different messages.
    out = bytearray()
    for part in parts:
        data = str(part).encode("utf-8", "surrogatepass")
        out += len(data).to_bytes(4, "big") + data
    return bytes(out)


class ServerKeys:
    """The keys derived from one server secret (kept in the event log's db, readable by its owner only)."""

    def __init__(self, secret: bytes):
        self._keys = {
            purpose: hmac.new(secret, f"tablesight key: {purpose}".encode(), hashlib.sha256).digest()
            for purpose in Purpose.__args__  # type: ignore[attr-defined]
        }

    def mac(self, purpose: Purpose, *parts: str | int) -> str:
        """HMAC-SHA256 (hex) of `parts` under the key of `purpose`."""
        return hmac.new(self._keys[purpose], _fields(parts), hashlib.sha256).hexdigest()
