"""Who holds each seat of a table: a seat's link is claimed by the first browser that opens it.

A link is a secret only until it is shared, and whoever sets the table up holds every link (to
hand them out). So a link alone cannot be what seats a person: the first browser that opens it
claims the seat — by the client cookie the page's server gives each browser (HttpOnly: no script
reads it, and it is never written into an answer), the credential boardgame.io keeps per player —
and after that the seat answers that browser alone. A browser holds one seat at a table, so the
host cannot sit in a friend's seat by opening its link first in the same browser. The host may
hand a seat to someone else — a fresh link, the claim cleared — only openly: every seat is told.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ..text.errors import Diagnostic, LegesError, Position

WHERE = Position("seat")


class Forbidden(LegesError):
    """A request for a seat its browser does not hold (HTTP 403)."""

    status = 403


@dataclass
class Claims:
    """The browser (client credential) holding each seat of one table, and the handovers told."""

    holders: dict[int, str] = field(default_factory=dict)  # seat (HOT at a hot seat) → its browser's credential
    handovers: list[str] = field(default_factory=list)  # what every seat was told of seats handed over
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)  # not the match's: a page polling never waits on an agent

    def admit(self, seat: int, client: str, seat_name: str) -> bool:
        """Let `client` act as `seat`, claiming it if nobody holds it (True when it was just
        claimed); raise Forbidden otherwise."""
        with self.lock:
            return self._admit(seat, client, seat_name)

    def _admit(self, seat: int, client: str, seat_name: str) -> bool:
        if not client:
            raise Forbidden(Diagnostic(WHERE, "this request comes from no browser this server knows",
                                       "open the page first: it gives the browser the cookie that holds its seat"))
        holder = self.holders.get(seat)
        if holder == client:
            return False
        if holder is not None:
            raise Forbidden(Diagnostic(WHERE, f"{seat_name}'s seat is taken: its link was first opened in another browser",
                                       "a link seats one browser; ask whoever set the table up to hand the seat over "
                                       "(every seat is told)"))
        if client in self.holders.values():
            raise Forbidden(Diagnostic(WHERE, "this browser already holds a seat at this table",
                                       "a seat's link is for another person's browser"))
        self.holders[seat] = client
        return True

    def is_claimed(self, seat: int) -> bool:
        return seat in self.holders

    def release(self, seat: int, told: str) -> None:
        """The seat freed for the next browser to open its (new) link; `told` to every seat."""
        with self.lock:
            self.holders.pop(seat, None)
            self.handovers.append(told)
