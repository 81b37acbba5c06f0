"""Items of a ruleset's list sections as read, before they become declarations — what variants patch.

Shared by the loader (which reads a ruleset's files into entries) and by variants (which change
those entries before the declarations are built from them).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..text.yaml_source import YamlDoc
from .sections import LIST_SECTIONS


@dataclass
class Entry:
    """One item of a list section, with the document it comes from (a ruleset file or a variant)."""

    section: str
    doc: YamlDoc
    path: tuple
    item: dict
    overrides: dict = field(default_factory=dict)  # key → (doc, path) of a value a variant set


def entries_of(docs: list[YamlDoc]) -> list[Entry]:
    return [Entry(section, doc, (section, i), item)
            for doc in docs for section in LIST_SECTIONS
            for i, item in enumerate(doc.data.get(section, []) or [])]
