"""Which spans a search may return: globs, languages and kinds, checked on creation."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import UnknownValue
from ..languages import LANGUAGES, known_language
from ..spans import KINDS, known_kind
from ..store import Scope, Store, StoredSpan


def checked_languages(names: Iterable[str]) -> list[str]:
    """``names`` as the registry spells them ("Python", "py" -> "python"); raises :class:`UnknownValue`
    listing the valid languages if one is unknown."""
    return _checked(names, known_language, "language", LANGUAGES, " (any case; aliases such as py, ts work too)")


def checked_kinds(names: Iterable[str]) -> list[str]:
    """``names`` as span kinds in any case ("Function" -> "function"); raises :class:`UnknownValue` listing
    the valid kinds if one is unknown."""
    return _checked(names, known_kind, "kind", KINDS)


def _checked(names: Iterable[str], known, what: str, valid: Iterable[str], hint: str = "") -> list[str]:
    out = []
    for name in names:
        value = known(name)
        if value is None:
            raise UnknownValue(f"unknown {what} {name!r}; valid {what}s{hint}: {', '.join(sorted(valid))}")
        out.append(value)
    return list(dict.fromkeys(out))


@dataclass
class SearchFilters:
    """Which spans a search may return. Languages and kinds are checked and normalised on creation (an
    unknown one raises :class:`UnknownValue`), so a typo never silently matches nothing."""

    globs: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.languages = checked_languages(self.languages)
        self.kinds = checked_kinds(self.kinds)

    def accepts(self, span: StoredSpan) -> bool:
        if self.languages and span.language not in self.languages:
            return False
        if self.kinds and span.kind not in self.kinds:
            return False
        return self.accepts_path(span.path)

    def accepts_path(self, path: str) -> bool:
        return not self.globs or any(fnmatch.fnmatch(path, g) for g in self.globs)

    def scope(self, store: Store) -> Scope | None:
        """The index's spans these filters let through, for the retrievers to search within (None: all)."""
        if not self.active:
            return None
        files = None
        if self.globs:
            files = tuple(sorted(i for path, i in store.indexed_paths().items() if self.accepts_path(path)))
        return Scope(files, tuple(self.kinds), tuple(self.languages))

    @property
    def active(self) -> bool:
        return bool(self.globs or self.languages or self.kinds)
