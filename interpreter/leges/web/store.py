"""The games and records the page's server keeps, per client, within a bound on memory.

A fixed count of games for everybody (the server once kept 20) lets fifty clients evict each
other's games in turn; no bound at all lets one client fill the memory. So each client (a cookie
the page gets with its HTML) keeps its own most recent games, and when all of them together
weigh more than the bound, the least recently used go first, whoever they belong to.

Weights are estimates in bytes — a state's JSON size, times the copies kept — not measurements:
good enough to bound memory to the order of the setting, cheap enough to take on every add.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Protocol, TypeVar


class Weighed(Protocol):
    def weight(self) -> int: ...


T = TypeVar("T", bound=Weighed)


class Store(Generic[T]):
    def __init__(self, max_bytes: int, per_client: int):
        self.max_bytes, self.per_client = max_bytes, per_client
        self.items: OrderedDict[str, tuple[str, T]] = OrderedDict()  # id → (client, item), least recent first

    def add(self, client: str, key: str, item: T) -> None:
        self.items[key] = (client, item)
        self.items.move_to_end(key)
        mine = [k for k, (c, _) in self.items.items() if c == client]
        for old in mine[:max(0, len(mine) - self.per_client)]:
            del self.items[old]
        total = sum(it.weight() for _, it in self.items.values())
        while total > self.max_bytes and len(self.items) > 1:
            old = next(iter(self.items))
            if old == key:
                break
            total -= self.items.pop(old)[1].weight()

    def get(self, key: str) -> T | None:
        found = self.items.get(key)
        if found is None:
            return None
        self.items.move_to_end(key)
        return found[1]

    def values(self) -> list[T]:
        return [item for _, item in self.items.values()]

    def __len__(self) -> int:
        return len(self.items)
