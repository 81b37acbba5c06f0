"""Where the values a variant patched in come from: an overlay of one key's parts, and a rule text
rewritten at a label whose every character keeps its file position."""
from __future__ import annotations

from ...text.errors import Position
from ...text.offsets import line_col, offset_at
from ...text.origin import TextOrigin
from ...text.yaml_source import YamlDoc


class RoutedDoc(YamlDoc):
    """A document whose paths lead into other documents (`_resolve`): each located where it leads."""

    def _resolve(self, path) -> tuple:
        raise NotImplementedError

    def position(self, path, key: bool = False) -> Position:
        doc, at = self._resolve(path)
        return doc.position(at, key=key)

    def text_origin(self, path) -> TextOrigin:
        doc, at = self._resolve(path)
        return doc.text_origin(at)


class OverlayDoc(RoutedDoc):
    """Where the parts of one key of an item come from, after a variant set a part inside it.

    Paths under `sub` are the variant's value (`target`); every other path is the key as it was
    (`base`, itself possibly an overlay of an earlier patch)."""

    def __init__(self, base: tuple, sub: tuple, target: tuple):
        super().__init__(file=target[0].file, data=None)
        self.base, self.sub, self.target = base, tuple(sub), target

    def _resolve(self, path) -> tuple:
        path = tuple(path)
        if path[:len(self.sub)] == self.sub:
            doc, at = self.target
            return doc, tuple(at) + path[len(self.sub):]
        doc, at = self.base
        return doc, tuple(at) + path

    def data_at(self, path):
        doc, at = self._resolve(path)
        return doc.data_at(at)


class SpliceOrigin(TextOrigin):
    """A rule text rewritten at a label: every character is located in the file it came from."""

    def __init__(self, text: str, places: list, file: str):
        super().__init__(file, 1, 1)
        self.new_text = text
        self.places = places  # per character of `text`: (origin, text of that origin, offset in it)

    def locate(self, line: int, col: int) -> Position:
        if not self.places:
            return Position(self.file, 1, 1)
        offset = min(offset_at(self.new_text, line, col), len(self.places) - 1)
        origin, text, at = self.places[offset][:3]
        return origin.locate(*line_col(text, at))


class SpliceDoc(YamlDoc):
    """The place of a rule text a variant rewrote at a label (the variant's value stands for the whole)."""

    def __init__(self, origin: SpliceOrigin, value: tuple):
        super().__init__(file=value[0].file, data=None)
        self.origin, self.value = origin, value

    def position(self, path, key: bool = False) -> Position:
        doc, at = self.value
        return doc.position(at, key=key)

    def text_origin(self, path) -> TextOrigin:
        if not tuple(path):
            return self.origin
        doc, at = self.value
        return doc.text_origin(at)

    def data_at(self, path):
        return None
