"""The rule language's grammar (`grammar.lark`) and the Lark parser built from it, with what the
indenter sees of a text: its indentation rules, and its comments blanked out."""
from __future__ import annotations

import io
from functools import lru_cache

import lark
from lark import Lark
from lark.indenter import Indenter

from ...text import cache


def grammar_text() -> str:
    """The rule language's grammar, read as package data (it ships in the wheel beside this module)."""
    from importlib.resources import files
    return files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


class RuleIndenter(Indenter):
    """The rule language's indentation: blocks by indent, none inside brackets (also used by leges mutate)."""
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The parser, its tables kept in Leges' signed cache (cache.py). Not Lark's own `cache=True`: that
    unpickles a file of a predictable name in the shared temporary folder, which anyone could plant."""
    def build() -> Lark:
        return Lark(grammar_text(), parser="lalr", postlex=RuleIndenter(), start=["program", "expression"],
                    propagate_positions=True, maybe_placeholders=True)
    return cache.cached("parser", f"{lark.__version__}\0{fingerprint()}", build, _save, _restore)


def _save(parser: Lark) -> bytes:
    buffer = io.BytesIO()
    parser.save(buffer)
    return buffer.getvalue()


def _restore(data: bytes) -> Lark:
    return Lark.load(io.BytesIO(data))


@lru_cache(maxsize=1)
def fingerprint() -> str:
    return cache.parser_fingerprint()


def without_comments(text: str) -> str:
    """Blank out `# ...` comments (outside strings), keeping every other character where it was."""
    out, quote, i = [], None, 0
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == "#":
            while i < len(text) and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)
