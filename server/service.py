"""Tables in memory, backed by the event store; every change is logged, then announced.

One process over an SQLite file owns its log: it replays every table at start and never reads
the log again. Several processes over one PostgreSQL database (`store.shared`) each keep the
tables they were asked about (loaded on first use, not at start), and before any read or change
catch up with the events the others wrote. A change is decided against the caught-up state and
appended as the next event number; if another process wrote that number first (`SeqTaken`), the
move is taken back in memory, the log read again and the move decided anew, so two moves on
one table are serialised by the database, never interleaved, lost or doubled."""
from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from rules.core import IllegalMove, Match, RulesError
from rules.registry import engine_for
from server.keys import ServerKeys
from server.snapshot import match_snapshot
from server.store import Event, SeqTaken, StoreError, TableRecord, moves_in_force
from server.table_board import Part

log = logging.getLogger("tablesight")
REMEMBERED_MOVE_IDS = 256  # per table: enough for any client's retries, small in memory
RACES = 64  # times a change may lose the race for its event number before the table is called busy
MAX_LOADED = 2000  # tables of a shared store kept in memory; the least recently used unwatched ones go


class TableNotFound(LookupError):
    """No table has this id."""


class AccessDenied(PermissionError):
    """The move belongs on a player's own private link."""


class TableBroken(RuntimeError):
    """The table's log no longer replays (a rules fix, a removed game): it is kept on disk, not served."""

    def __init__(self, table_id: str, reason: str):
        super().__init__(f"table {table_id!r} cannot be shown: its log no longer replays ({reason})")
        self.reason = reason


class MoveIdReused(ValueError):
    """A client move id already stands for a different move at this table."""


@dataclass
class Table:
    """A table's record, its match, who made each move, and its lock.

    What the camera thinks (its note, moves awaiting a click) is not here: it is on the store's
    board (server.table_board), which every process on the same database shares."""

    record: TableRecord
    match: Match
    sources: list[str]
    seq: int  # the number of events read from the log: the next event's number
    lock: threading.Lock = field(default_factory=threading.Lock)
    # Answers to recent moves by client move id, so a retried request gets the first answer again.
    answers: OrderedDict = field(default_factory=OrderedDict)
    logged_ids: set[str] = field(default_factory=set)  # client move ids in the log (answers are not kept across restarts)


class TableService:
    """Create, read, change and watch tables. Thread-safe; callable from any thread."""

    def __init__(self, store, preload: bool | None = None, max_loaded: int = MAX_LOADED):
        """`store`: server.store.EventStore or server.pg_store.PostgresEventStore. `preload`: replay
        every table now (default: when the store is this process's own; a shared database's tables
        load on first use, so start-up does not grow with the log). `max_loaded`: a shared store's
        tables kept in memory; beyond it the least recently used one that no page watches is let
        go (it loads again on its next use)."""
        self.store = store
        self.max_loaded = max_loaded
        self.board = store.board
        self.keys = ServerKeys(store.secret())
        self.preload = (not store.shared) if preload is None else preload
        self._tables: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        # Tables whose log no longer replays: reported and skipped, so the others still start.
        self.broken: dict[str, str] = {}
        self._subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = {}
        self._guard = threading.Lock()
        if self.preload:
            for rec in store.tables():
                self._load(rec)
            for tid, reason in store.unreadable.items():
                self.broken[tid] = reason
                log.warning("table %s skipped: %s", tid, reason)
        store.listen(self._heard)

    def _load(self, rec: TableRecord) -> Table | None:
        """Replay `rec`'s log into memory; a log that no longer replays is named in `broken`."""
        try:
            table = self._replay(rec)
        except StoreError:
            raise  # the log itself is unreadable: that is for the person running the server
        except Exception as exc:  # one table's log (a rules fix, a removed game) must not stop the rest
            reason = exc.reason if isinstance(exc, RulesError) else f"{type(exc).__name__}: {exc}"
            with self._guard:
                self.broken[rec.id] = reason
            log.warning("table %s (%s) skipped: its log no longer replays: %s", rec.id, rec.game, reason)
            return None
        with self._guard:
            table = self._tables.setdefault(rec.id, table)  # two threads loading it at once: the first one stays
            self._let_go()
            return table

    def _let_go(self) -> None:
        """Drop the least recently used unwatched tables beyond `max_loaded` (caller holds the guard).
        Only for a shared store: a copy still in use elsewhere in this process stays correct, since
        every change is checked against the log's event numbers, whoever holds which copy."""
        if not self.store.shared:
            return
        for tid in list(self._tables):
            if len(self._tables) <= self.max_loaded:
                return
            if not self._subscribers.get(tid):
                del self._tables[tid]

    def _replay(self, rec: TableRecord) -> Table:
        events = self.store.events(rec.id)
        standing = moves_in_force(events)
        engine = engine_for(rec.game)
        seed = self._match_seed(engine, rec.id, rec.seed)
        match = Match(engine, rec.players, rec.options, seed, moves=[ev.text for ev in standing])
        return Table(rec, match, [ev.source for ev in standing], len(events),
                     logged_ids={ev.move_id for ev in events if ev.move_id})

    def _catch_up(self, t: Table) -> None:
        """Apply the events other processes appended since `t.seq` (caller holds `t.lock`)."""
        if not self.store.shared:
            return  # nobody else writes this log
        for ev in self.store.events(t.record.id, since=t.seq):
            self._apply_logged(t, ev)

    @staticmethod
    def _apply_logged(t: Table, ev: Event) -> None:
        if ev.kind == "move":
            t.match.play(ev.text)
            t.sources.append(ev.source)
        elif t.match.moves:
            t.match.undo()
            t.sources.pop()
        t.seq = ev.seq + 1
        if ev.move_id:
            t.logged_ids.add(ev.move_id)

    def _match_seed(self, engine, table_id: str, seed: int) -> int | str:
        # A hidden-information game's draws must not follow from a seed players can read or choose.
        # Replay does not depend on it: the log holds every drawn outcome as its move text.
        if engine.secret_chance:
            return self.keys.mac("secret deal", table_id, seed)
        return seed

    # -- reading -------------------------------------------------------------------------
    def ids(self) -> list[str]:
        return [rec.id for rec in self.records()]

    def records(self) -> list[TableRecord]:
        """Every table that can be served, oldest first (without loading a shared store's tables)."""
        if self.preload:
            with self._guard:
                return [t.record for t in self._tables.values()]
        return [rec for rec in self.store.tables() if rec.id not in self.broken]

    def table(self, table_id: str) -> Table:
        """The table in memory (loaded from the log on first use); its state may lag behind other
        processes until `_catch_up` (every public read and change does it)."""
        with self._guard:
            t = self._tables.get(table_id)
            if t is not None:
                self._tables.move_to_end(table_id)
        if t is None:
            if table_id in self.broken:
                raise TableBroken(table_id, self.broken[table_id])
            rec = None if self.preload else self.store.table_record(table_id)
            t = None if rec is None else self._load(rec)
            if t is None:
                if table_id in self.broken:
                    raise TableBroken(table_id, self.broken[table_id])
                raise TableNotFound(f"no table {table_id!r}")
        return t

    def _current(self, table_id: str) -> Table:
        """The table, caught up with the log."""
        t = self.table(table_id)
        with t.lock:
            self._catch_up(t)
        return t

    def creator_token(self, table_id: str) -> str:
        """The token of whoever created the table (the page keeps it; it re-issues private links)."""
        return self.keys.mac("table creator", table_id)

    def match(self, table_id: str) -> Match:
        return self._current(table_id).match

    def candidates(self, table_id: str) -> list[list[str]]:
        """The camera's open question (its candidate move sequences), without building a snapshot."""
        self.table(table_id)
        return [list(c) for c in self.board.get(table_id)["candidates"]["moves"]]

    def knows_move_id(self, table_id: str, move_id: str) -> bool:
        """True when a move with this client id is in the table's log (through any process)."""
        t = self.table(table_id)
        with t.lock:
            self._catch_up(t)
            return move_id in t.logged_ids

    def snapshot(self, table_id: str, player: str | None = None) -> dict:
        """The shared state shape of the API (as `player` may see it; None: the shared screen)."""
        t = self.table(table_id)
        board = self.board.get(table_id)
        with t.lock:
            self._catch_up(t)
            return _snapshot(t, player, board)

    # -- changing ------------------------------------------------------------------------
    def create(self, game: str, players: list[str], options: dict | None = None, seed: int | None = None) -> str:
        """A new table; the engine refuses bad players or options before anything is stored."""
        options = dict(options or {})
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        engine = engine_for(game)
        engine.initial_state(list(players), dict(options))
        rec = self.store.create_table(game, players, options, seed)
        table = Table(rec, Match(engine, list(players), options, self._match_seed(engine, rec.id, seed)), [], 0)
        with self._guard:
            self._tables[rec.id] = table
            self._let_go()
        return rec.id

    def _write(self, t: Table, decide) -> Any:
        """Decide a change on the caught-up table and append it as the next event (caller holds
        `t.lock`); returns what `decide` said to return. `decide()` changes `t.match` and returns
        (event kind, text, source, move id, rollback, result), or kind None when there is nothing
        to write; when another process wrote that event number first, `rollback()` undoes the
        change in memory, and the table catches up and decides again."""
        for _ in range(RACES):
            self._catch_up(t)
            kind, text, source, move_id, rollback, result = decide()
            if kind is None:
                return result  # nothing to write (a repeated move id)
            try:
                self.store.append(t.record.id, t.seq, kind, text, source, move_id)
            except SeqTaken:
                rollback()
                continue
            except Exception:
                rollback()
                raise
            t.seq += 1
            return result
        raise StoreError("the table is too busy: other servers keep changing it; try again")

    def play(
        self, table_id: str, text: str, source: str = "api", player: str | None = None, move_id: str | None = None
    ) -> dict:
        """Play a move; committed to the event log before anyone hears of it. Returns the snapshot right after it.

        A client that may retry sends a `move_id`: a repeat of an id this table has seen gets the
        first answer again (marked "repeated") and plays nothing; the same id with another move is
        refused (MoveIdReused)."""
        t = self.table(table_id)
        with t.lock:
            def decide():
                if move_id is not None and move_id in t.answers:
                    first_text, first_player, answer = t.answers[move_id]
                    if (first_text, first_player) != (text, player):
                        raise MoveIdReused(f"move id {move_id!r} was used for another move at this table")
                    return None, "", "", None, None, dict(answer, repeated=True)
                if move_id is not None and move_id in t.logged_ids:
                    # Played before a restart, or through another process: the first answer is
                    # not here, the state it led to is.
                    return None, "", "", None, None, dict(_snapshot(t, player, self.board.get(table_id)), repeated=True)
                m = t.match
                move = m.canonical(text)
                owner = m.engine.private_player(m.state, move)
                if owner is not None and owner != player:
                    raise AccessDenied(f"this move is made on {owner}'s own link" if player is None else "a player can only make their own moves")
                if player is not None and owner is None:
                    raise AccessDenied("a private link only makes that player's own secret moves")
                logged = m.play(move)
                return "move", logged, source, move_id, m.undo, None

            repeated = self._write(t, decide)
            if repeated is not None:
                return repeated
            t.sources.append(source)
            # Built under the lock: the answer shows this move's version, not a later one.
            answer = _snapshot(t, player, self.board.get(table_id))
            if move_id is not None:
                t.logged_ids.add(move_id)
                t.answers[move_id] = (text, player, answer)
                while len(t.answers) > REMEMBERED_MOVE_IDS:
                    t.answers.popitem(last=False)
        self._notify(table_id)
        return answer

    def undo(self, table_id: str, source: str = "api") -> dict:
        """Take back the last move (an undo is itself logged); the snapshot right after, with
        "undone": the move as the public may read it."""
        t = self.table(table_id)
        with t.lock:
            def decide():
                m = t.match
                if not m.moves:
                    raise IllegalMove("there is no move to undo", rule="undo")
                last = m.moves[-1]
                refusal = m.engine.undo_refusal(m.state, last)
                if refusal:
                    raise IllegalMove(f"cannot undo: {refusal}", rule="undo")
                shown = m.engine.history_view(m.state, m.moves, None)[-1]
                m.undo()
                return "undo", last, source, None, lambda: m.play(last), shown

            shown = self._write(t, decide)
            t.sources.pop()
            answer = _snapshot(t, None, self.board.get(table_id))
        answer["undone"] = shown
        self._notify(table_id)
        return answer

    def set_camera_note(self, table_id: str, note: dict) -> None:
        """Show what the camera is doing on the table's page."""
        self._put_board(table_id, "camera", dict(note))

    def set_candidates(self, table_id: str, candidates: list[list[str]], reason: str) -> None:
        """Moves the camera could not choose between, for one click on the page."""
        self._put_board(table_id, "candidates", {"moves": [list(c) for c in candidates], "reason": reason})

    def _put_board(self, table_id: str, part: Part, value: dict) -> None:
        self.table(table_id)
        if self.board.get(table_id)[part] == value:
            return  # the camera says the same every frame: the pages need not redraw
        self.board.put(table_id, part, value)
        self._notify(table_id)

    def choose(self, table_id: str, index: int) -> dict:
        """Play the camera candidate a person picked."""
        candidates = self.candidates(table_id)
        if not 0 <= index < len(candidates):
            raise IllegalMove(f"there is no camera candidate {index}", rule="camera")
        chosen = candidates[index]
        for text in chosen:
            self.play(table_id, text, source="camera")
        self.set_candidates(table_id, [], "")
        return self.snapshot(table_id)

    # -- watching ------------------------------------------------------------------------
    def subscribe(self, table_id: str) -> asyncio.Queue:
        """A queue that gets the table's version after every change (call from the event loop)."""
        self.table(table_id)
        q: asyncio.Queue = asyncio.Queue(maxsize=64)
        with self._guard:
            self._subscribers.setdefault(table_id, set()).add((asyncio.get_running_loop(), q))
        return q

    def unsubscribe(self, table_id: str, queue: asyncio.Queue) -> None:
        with self._guard:
            subs = self._subscribers.get(table_id, set())
            for item in [s for s in subs if s[1] is queue]:
                subs.discard(item)

    def notify(self, table_id: str) -> None:
        """Wake every live watcher of the table (their pages re-read it), in every process."""
        self.store.announce(table_id)
        self._notify(table_id)

    def _heard(self, table_id: str | None) -> None:
        """Another process changed `table_id` (None: anything may have changed): wake its watchers
        here, whose pages then read it (catching up with the log)."""
        with self._guard:
            tids = list(self._subscribers) if table_id is None else [table_id]
        for tid in tids:
            self._notify(tid)

    def _notify(self, table_id: str) -> None:
        with self._guard:
            subs = list(self._subscribers.get(table_id, ()))
            t = self._tables.get(table_id)
            version = None if t is None else t.seq
        for loop, q in subs:
            try:
                loop.call_soon_threadsafe(_offer, q, version)
            except RuntimeError:  # that watcher's event loop has closed
                pass


def _snapshot(t: Table, player: str | None, board: dict) -> dict:
    """The API's state shape of `t` as `player` may see it, with its `board` (server.table_board);
    the caller holds `t.lock`."""
    snap = match_snapshot(t.match, player)
    snap["id"] = t.record.id
    snap["seed"] = t.record.seed
    snap["sources"] = list(t.sources)
    snap["version"] = t.seq
    snap["camera"] = dict(board["camera"])
    snap["candidates"] = [list(c) for c in board["candidates"]["moves"]]
    snap["candidates_reason"] = board["candidates"]["reason"]
    return snap


def _offer(q: asyncio.Queue, item: Any) -> None:
    # A slow watcher only needs the newest version: drop the oldest rather than block.
    if q.full():
        q.get_nowait()
    q.put_nowait(item)
