"""Cut placed paragraphs into clause-sized drafts.

Granularity follows how ACORD annotators cut contracts: a clause is a numbered section of
the first or second level with everything nested in it ((a), (i), continuation
paragraphs). A first-level section with children contributes its own lead-in only when it
says something beyond its heading, and stays whole when its children are the items of an
enumeration ("The Recipient shall: (a) ...; (b) ..."). Over-long clauses are split one
level deeper, then by paragraphs. Paragraphs outside numbered sections are grouped under
their headings, one to three paragraphs at a time, never cutting a table row; groups that
hold only a label and fill-in placeholders are form fields and dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import groupby
from typing import Iterable, Sequence

from index_builder.ingest.headings import heading_text
from index_builder.ingest.outline import Placed, Section
from index_builder.reading.template import remove

MAX_CLAUSE_CHARS = 4000
MAX_GROUP_PARAGRAPHS = 3
# Words beyond the number and heading below which a numbered unit is "just a heading".
MIN_CLAUSE_WORDS = 2
# Letters outside placeholders below which an unnumbered group is only a form field.
MIN_SUBSTANCE_CHARS = 30
_CLAUSE_LEVELS = 2
_WORD = re.compile(r"\w{2,}")


@dataclass(frozen=True)
class Draft:
    """A clause before ids and metadata are attached."""

    parts: tuple[Placed, ...]
    section: str = ""
    heading: str = ""

    @property
    def text(self) -> str:
        return "\n".join(part.text for part in self.parts)


def segment(placed: Sequence[Placed]) -> list[Draft]:
    """All clause drafts of a document, in document order; never empty for a non-empty doc."""
    drafts: list[Draft] = []
    body = [p for p in placed if p.role != "title"]
    for numbered, parts in groupby(body, key=lambda p: bool(p.path)):
        run = list(parts)
        if numbered:
            for _, section in groupby(run, key=lambda p: _unit_key(p, 1)):
                drafts.extend(_top_level_drafts(list(section)))
        else:
            drafts.extend(_groups(run))
    return drafts or _last_resort(placed)


def _top_level_drafts(section: list[Placed]) -> list[Draft]:
    """A first-level section: one clause when it is an enumeration ("shall: (a) ...;
    (b) ..."), whose items mean nothing alone; otherwise one per second-level unit."""
    if _is_enumeration(section) and len(_numbered_draft(section, 1).text) <= MAX_CLAUSE_CHARS:
        return _numbered_drafts(section, 1)
    drafts = []
    for _, group in groupby(section, key=lambda p: _unit_key(p, _CLAUSE_LEVELS)):
        unit = list(group)
        drafts.extend(_numbered_drafts(unit, _depth(unit)))
    return drafts


def _is_enumeration(section: list[Placed]) -> bool:
    """The lead-in introduces a list ("... as follows:") or the items are sentence
    fragments ("(a) use it only for the Purpose;")."""
    lead = [part for part in section if len(part.path) == 1]
    items = [part for part in section if len(part.path) == 2 and part.role == "numbered"]
    if not lead or not items:
        return False
    first_item = items[0].text[len(items[0].path[-1].label) :].lstrip()
    return lead[-1].text.rstrip().endswith((":", "\u2014")) or first_item[:1].islower()


def _unit_key(part: Placed, levels: int) -> tuple[int, ...]:
    return tuple(section.key for section in part.path[:levels])


def _depth(unit: list[Placed]) -> int:
    return min(len(part.path) for part in unit)


def _numbered_drafts(unit: list[Placed], depth: int) -> list[Draft]:
    """One draft for the unit, or several when it is too long."""
    draft = _numbered_draft(unit, depth)
    if len(draft.text) <= MAX_CLAUSE_CHARS:
        return [draft] if _substantive(unit) else []
    children = [list(group) for _, group in groupby(unit, key=lambda p: _unit_key(p, depth + 1))]
    if len(children) == 1:
        return _chunks(unit, draft)
    out: list[Draft] = []
    for child in children:
        out.extend(_numbered_drafts(child, _depth(child)))
    return out


def _numbered_draft(unit: list[Placed], depth: int) -> Draft:
    path = unit[0].path[:depth]
    return Draft(tuple(unit), path[-1].section, _heading(path, unit[0].heading))


def _heading(path: Iterable[Section], context: str) -> str:
    """The unit's own heading, else the nearest enclosing one."""
    for section in reversed(tuple(path)):
        if section.heading:
            return section.heading
    return context


def _substantive(unit: list[Placed]) -> bool:
    """False for a unit that is only a number and a heading ("7. Confidentiality")."""
    own = unit[0].path[-1]
    first = unit[0].text.replace(own.label, "", 1).replace(own.heading, "", 1)
    rest = [first] + [part.text for part in unit[1:]]
    return sum(len(_WORD.findall(text)) for text in rest) >= MIN_CLAUSE_WORDS


def _alnum(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _chunks(unit: list[Placed], draft: Draft) -> list[Draft]:
    """Split a unit with no deeper sections at paragraph boundaries."""
    out: list[Draft] = []
    current: list[Placed] = []
    size = 0
    for part in unit:
        if current and size + len(part.text) > MAX_CLAUSE_CHARS:
            out.append(Draft(tuple(current), draft.section, draft.heading))
            current, size = [], 0
        current.append(part)
        size += len(part.text) + 1
    out.append(Draft(tuple(current), draft.section, draft.heading))
    return out


def _groups(run: list[Placed]) -> list[Draft]:
    """Paragraph groups under headings for text outside numbered sections."""
    groups: list[list[Placed]] = []
    for part in run:
        if not groups or _starts_group(groups[-1], part):
            groups.append([])
        groups[-1].append(part)
    drafts = []
    heading, table = run[0].heading, _table_of(run[0])
    for group in groups:
        if _table_of(group[0]) != table:
            # A bold cell heads the rows of its own table only.
            heading, table = group[0].heading, _table_of(group[0])
        named = [part for part in group if part.role == "heading"]
        if named:
            # "# Agreement" then "## Background": the deeper heading is the more specific.
            deepest = max(named, key=lambda part: part.heading_level or 0)
            heading = heading_text(deepest.block)
        if _group_substance(group) >= MIN_SUBSTANCE_CHARS:
            drafts.append(Draft(tuple(group), "", heading))
    return drafts


def _group_substance(group: list[Placed]) -> int:
    """Letters in the body paragraphs, not counting fill-in placeholders."""
    # {party_name}, [Fill in state], [[ field ]]: a cover-page row holding only these and a
    # label is a form field, not a clause (whatever is bracketed counts as a fill-in here).
    # Notes to the drafter are left to ingest/template.py, which takes them out after this
    # and reports them (a unit of notes alone is its "drafting note", not dropped here unsaid).
    return sum(_alnum(remove(p.text, brackets="all", notes=False)) for p in group if p.role == "body")


def _starts_group(group: list[Placed], part: Placed) -> bool:
    if _table_of(group[-1]) != _table_of(part):
        return True
    bodies = sum(p.role == "body" for p in group)
    if part.role == "heading":
        return bodies > 0
    size = sum(len(p.text) + 1 for p in group) + len(part.text)
    if size > MAX_CLAUSE_CHARS:
        return True
    # A table row ("Duration | 12 months") is never cut; groups close between rows.
    same_row = bool(part.block.row_id) and part.block.row_id == group[-1].block.row_id
    return bodies >= MAX_GROUP_PARAGRAPHS and not same_row


def _table_of(part: Placed) -> str:
    return part.block.table_id


def _last_resort(placed: Sequence[Placed]) -> list[Draft]:
    """Every paragraph counts as body: a document with text always yields a clause."""
    parts = [Placed(p.block, p.text, "body", (), p.heading) for p in placed]
    return [
        Draft(tuple(parts[i : i + MAX_GROUP_PARAGRAPHS]), "", parts[i].heading)
        for i in range(0, len(parts), MAX_GROUP_PARAGRAPHS)
    ]
