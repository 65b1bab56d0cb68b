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
from functools import lru_cache
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
        # Where each alias sits in that order, by its words: a query is looked up by its own
        # word runs that start with some alias's first word, instead of scanning every alias
        # (451) for every search, twice (the expansion and the ranker; issue 39). A needle
        # found after blanking is one found before (no alias holds "|"), so testing only these
        # in the same order finds the same definitions.
        self._needles = [(f" {alias} ", definition) for alias, definition in self._aliases]
        self._places: dict[tuple[str, ...], list[int]] = {}
        for place, (alias, _) in enumerate(self._aliases):
            self._places.setdefault(tuple(alias.split(" ")) if alias else (), []).append(place)
        self._always = self._places.pop((), [])  # an alias with no words: tested as before
        self._firsts = {words[0] for words in self._places}
        self._longest = max((len(words) for words in self._places), default=0)
        self._found = lru_cache(maxsize=1024)(self._definitions)

    @property
    def fingerprint(self) -> str:
        """A short hash of the aliases and definitions in match order (a ranker records the
        glossary it was trained with, to warn when it is served with another)."""
        return hashlib.sha256(json.dumps([self.max_words, self._aliases]).encode()).hexdigest()[:16]

    def definitions(self, query: str) -> list[str]:
        """Definitions of the terms in the query, longest match first, no overlaps, no repeats."""
        return list(self._found(query))  # a search asks twice (expansion, ranker)

    def _definitions(self, query: str) -> tuple[str, ...]:
        normal = _normalise(query)
        text = f" {normal} "
        words = normal.split(" ") if normal else []
        places = set(self._always)
        for start, word in enumerate(words):
            if word in self._firsts:
                for end in range(start + 1, min(start + self._longest, len(words)) + 1):
                    places.update(self._places.get(tuple(words[start:end]), ()))
        found: list[str] = []
        for place in sorted(places):
            needle, definition = self._needles[place]
            if needle in text:
                # Blank the match out so a shorter alias inside it does not match again.
                text = text.replace(needle, " | ")
                if definition not in found:
                    found.append(definition)
        return tuple(found)

    def expand(self, query: str) -> str:
        """The query followed by its definitions; long queries (whole clauses) unchanged."""
        if len(query.split()) > self.max_words:
            return query
        definitions = self.definitions(query)
        return query if not definitions else f"{query}. " + ". ".join(definitions)
