"""A request's fields, read as the page's server reads them: nothing in a request is trusted.

Apart from server.py (its routes) so that what each field may hold — a whole number in ASCII
digits, a seat's agent among those the server admits, variants named among the ruleset's own, a
seed a request may fix only for a practice table — is one place to read and to test.
"""
from __future__ import annotations

import re

from ..text.errors import Diagnostic, LegesError, Position
from .seating import AgentPolicy

MAX_NAME = 120


def people_and_agents(seats, names: list[str], policy: AgentPolicy) -> list[str]:
    """A spec per seat from `{seat name: "person" | agent spec}` ("" for a person's seat); a seat
    not named is a random agent's. Only the agents the policy admits."""
    if not isinstance(seats, dict):
        raise LegesError(Diagnostic(Position("seats"), "seats are {seat name: \"person\" or an agent}"))
    for name in seats:
        if name not in names:
            raise LegesError(Diagnostic(Position("seats"), f"no seat '{str(name)[:MAX_NAME]}' in a game of {len(names)}",
                                        "seats: " + ", ".join(names)))
    specs = []
    for name in names:
        spec = text_field(seats.get(name), "seats") or "random"
        if spec == "person":
            specs.append("")
        else:
            specs.append(policy.specs(spec, 1)[0])
    return specs


MAX_VARIANT_REQUESTS = 32


def variant_requests(value, default) -> list[str]:
    """The variants a table is played under: --variant requests (NAME, NAME=VALUE,
    NAME.PARAM=VALUE), each looked up among the ruleset's own variant files (nothing else is
    read); none given: the command line's."""
    from ..model.variants.choice import check_requests
    if value is None:
        return list(default)
    if not isinstance(value, list) or len(value) > MAX_VARIANT_REQUESTS or \
            not all(isinstance(v, str) and 0 < len(v) <= MAX_NAME for v in value):
        raise LegesError(Diagnostic(Position("variants"), f"variants are a list of at most {MAX_VARIANT_REQUESTS} texts",
                                    "NAME, NAME=VALUE or NAME.PARAM=VALUE, as leges play --variant takes them"))
    # read strictly, as the command line's (ASCII names, a parameter once, digits 0-9): a request is
    # echoed into the table's record as written, so a newline or a look-alike letter never gets there
    return check_requests(value, "variants")


def table_seed(requested, fixed: int | None, practice: bool) -> tuple[int, bool]:
    """(seed, secret) of a new table. The seed is drawn by the server from the operating system's
    cryptographic source (engine/rng.secret_seed): a seed a request chooses lets whoever chose it, or
    guesses it, replay the public history and read every hand. A request may fix the seed only of a
    practice table (one person against agents: the only one it could read is itself), and
    `leges serve --seed N` fixes every table's; the page then says the deal is not secret."""
    from ..engine.rng import secret_seed
    if requested is not None and requested != "":
        if not practice:
            raise LegesError(Diagnostic(Position("seed"), "a table with other people at it is dealt from a secret seed: "
                                        "a request does not choose it",
                                        "a fixed deal for every table: leges serve --seed N (the page says it is not secret)"))
        return whole_number(requested, 0, "seed"), False
    if fixed is not None:
        return fixed, False
    return secret_seed(), True


def whole_number(value, default: int, where: str) -> int:
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and len(value) > 20):
        raise LegesError(Diagnostic(Position(where), "not a whole number"))
    if isinstance(value, str) and not re.fullmatch(r"[+-]?[0-9]+", value.strip()):  # int() takes '٣' too
        raise LegesError(Diagnostic(Position(where), f"'{ascii(value)[1:-1]}' is not a whole number",
                                    "ASCII digits: 0-9"))
    number = int(value)
    if abs(number) > 2 ** 53:
        raise LegesError(Diagnostic(Position(where), "the number is too large"))
    return number


def text_field(value, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise LegesError(Diagnostic(Position(where), "not a text"))
    return value
