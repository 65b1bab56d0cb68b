"""Expand short jargon queries ("as-is clause", "Rofr/Rofo/Rofn") with glossary definitions.

Short legal phrases retrieve badly because clauses rarely use the jargon itself, while a
description in clause language retrieves well. The expansion appends the definitions of
the glossary terms a query contains; a whole clause (the add-in's usual query) is already
in clause language and is left as it is.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Mapping

from index_builder.retrieve.glossary import DEFAULT_GLOSSARY


def _normalise(text: str) -> str:
    """Lower case, hyphens/slashes/quotes to spaces, single spaces: 'As-Is' == 'as is'."""
    return " ".join(re.findall(r"[a-z0-9']+", text.casefold().replace("'", " ' ")))


class QueryExpander:
    """Appends glossary definitions to queries of at most ``max_words`` words."""

    def __init__(self, glossary: Mapping[str, str] = DEFAULT_GLOSSARY, max_words: int = 30) -> None:
        self.max_words = max_words
        self._aliases: list[tuple[str, str]] = []  # (normalised alias, definition), longest first
        for aliases, definition in glossary.items():
            for alias in aliases.split("|"):
                self._aliases.append((_normalise(alias), definition))
        self._aliases.sort(key=lambda item: -len(item[0]))

    @property
    def fingerprint(self) -> str:
        """A short hash of the aliases and definitions in match order (a ranker records the
        glossary it was trained with, to warn when it is served with another)."""
        return hashlib.sha256(json.dumps([self.max_words, self._aliases]).encode()).hexdigest()[:16]

    def definitions(self, query: str) -> list[str]:
        """Definitions of the terms in the query, longest match first, no overlaps, no repeats."""
        text = f" {_normalise(query)} "
        found: list[str] = []
        for alias, definition in self._aliases:
            needle = f" {alias} "
            if needle in text:
                # Blank the match out so a shorter alias inside it does not match again.
                text = text.replace(needle, " | ")
                if definition not in found:
                    found.append(definition)
        return found

    def expand(self, query: str) -> str:
        """The query followed by its definitions; long queries (whole clauses) unchanged."""
        if len(query.split()) > self.max_words:
            return query
        definitions = self.definitions(query)
        return query if not definitions else f"{query}. " + ". ".join(definitions)
