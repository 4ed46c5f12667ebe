"""Dreams' private link tokens: derived, checked and revoked.

A player's token is the MAC, under the server's "dreams link" key, of (table id, player,
generation). Re-issuing a link moves the player to the next generation, which revokes the old
token at once (it is no longer what the MAC gives). Generations are kept in the event log's meta
table, so a restart neither revives a revoked link nor kills a live one. Tokens themselves are
never stored.

Links handed out before this scheme (HMAC of the raw secret over "table:player") keep working
for the tables made before the upgrade, until that player's link is issued again: a game in
progress is not stranded. They are harmless now, since deals no longer use that text or key.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re

from server.keys import ServerKeys
from server.store import EventStore

TOKEN_FORM = re.compile(r"[0-9a-f]{64}")


def token_for(keys: ServerKeys, table_id: str, player: str, generation: int = 0) -> str:
    """The private token of `player` at `table_id` in link generation `generation`."""
    return keys.mac("dreams link", table_id, player, generation)


class LinkBook:
    """The current link generation of every Dreams player, and the token checks that use it."""

    def __init__(self, store: EventStore, keys: ServerKeys):
        self.store = store
        self.keys = keys
        since = store.get_meta("derived keys since")
        self._legacy_before = float(since) if since else 0.0
        self._legacy_secret = store.secret() if since else b""

    @staticmethod
    def _key(table_id: str, player: str) -> str:
        return "dreams link generation:" + json.dumps([table_id, player])

    def generation(self, table_id: str, player: str) -> int:
        value = self.store.get_meta(self._key(table_id, player))
        return int(value) if value else 0

    def token(self, table_id: str, player: str) -> str:
        """The player's valid token now."""
        return token_for(self.keys, table_id, player, self.generation(table_id, player))

    def reissue(self, table_id: str, player: str) -> str:
        """A new token for `player`; the one before stops working now."""
        generation = self.store.increment_meta(self._key(table_id, player))  # atomic: two re-issues, two generations
        return token_for(self.keys, table_id, player, generation)

    def _legacy(self, table_id: str, player: str, created: float) -> str | None:
        """The pre-upgrade token, while it is still valid (an old table, link never issued again)."""
        if created >= self._legacy_before or self.generation(table_id, player) != 0:
            return None
        return hmac.new(self._legacy_secret, f"{table_id}:{player}".encode(), hashlib.sha256).hexdigest()

    def owner(self, table_id: str, players: list[str], token: object, created: float) -> str | None:
        """The player whose valid token this is, or None (`created`: when the table was made)."""
        if not isinstance(token, str) or not TOKEN_FORM.fullmatch(token):
            return None
        found = None
        for p in players:  # every player is compared, so the time says nothing about which one matched
            valid = [self.token(table_id, p), self._legacy(table_id, p, created)]
            if any(v is not None and hmac.compare_digest(v.encode(), token.encode()) for v in valid):
                found = p
        return found
