"""Word automatic numbering: rebuild the labels ("12.2", "(a)") Word draws but never stores.

numbering.xml holds list templates (w:abstractNum, one w:lvl per indent level) and list
instances (w:num) that point at a template and may override a level's start value or
definition. A paragraph joins a list through w:numPr (its own or its style's). Counters
belong to the template, so two instances of one template continue each other's count
unless an instance overrides the start; a level restarts when a higher level advances.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Mapping

from lxml import etree

from index_builder.ingest.ooxml import W, attr, is_on

log = logging.getLogger(__name__)

_PLACEHOLDER = re.compile(r"%([1-9])")
MAX_LEVELS = 9


@dataclass(frozen=True)
class Level:
    """One w:lvl: how a level counts and how its label is written."""

    start: int = 1
    fmt: str = "decimal"
    text: str = "%1."
    restart_after: int | None = None  # w:lvlRestart; None = after any higher level
    legal: bool = False  # w:isLgl: show every referenced level as decimal
    style: str = ""  # w:pStyle: the paragraph style that selects this level


@dataclass(frozen=True)
class ListInstance:
    """One w:num after its overrides are applied."""

    template: str
    levels: Mapping[int, Level]
    start_overrides: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class NumberedItem:
    """What numbering gives one paragraph."""

    label: str  # as displayed, e.g. "1.2" or "(a)"; "" for bullets and unlabeled levels
    level: int
    template: str  # identifies the counter sequence the paragraph belongs to
    number_format: str = "decimal"  # w:numFmt of the level
    bullet: bool = False


@dataclass(frozen=True)
class _RawNum:
    template: str
    replaced_levels: Mapping[int, Level]  # lvlOverride/lvl
    start_overrides: Mapping[int, int]  # lvlOverride/startOverride


class NumberingDefinitions:
    """Parsed numbering.xml: templates and instances, with style links followed."""

    def __init__(
        self, root: etree._Element | None, style_num_ids: Mapping[str, str] | None = None
    ) -> None:
        self._templates: dict[str, dict[int, Level]] = {}
        self._links: dict[str, str] = {}  # template id -> numbering style it borrows from
        self._instances: dict[str, ListInstance] = {}
        if root is not None:
            self._parse(root, style_num_ids or {})

    def _parse(self, root: etree._Element, style_num_ids: Mapping[str, str]) -> None:
        for template in root.iter(W + "abstractNum"):
            template_id = attr(template, "abstractNumId") or ""
            self._templates[template_id] = dict(map(_parse_level, template.iter(W + "lvl")))
            link = attr(template.find(W + "numStyleLink"))
            if link:
                self._links[template_id] = link
        raw = {attr(num, "numId") or "": _parse_num(num) for num in root.iter(W + "num")}
        for num_id, found in raw.items():
            target = self._resolve_link(found.template, raw, style_num_ids)
            levels = {**self._templates.get(target, {}), **found.replaced_levels}
            self._instances[num_id] = ListInstance(target, levels, found.start_overrides)

    def _resolve_link(
        self, template_id: str, raw: Mapping[str, _RawNum], style_num_ids: Mapping[str, str]
    ) -> str:
        """Follow w:numStyleLink: the template borrows its levels from a numbering style."""
        seen: set[str] = set()
        while template_id in self._links and template_id not in seen:
            seen.add(template_id)
            linked = raw.get(style_num_ids.get(self._links[template_id], ""))
            if linked is None:
                break
            template_id = linked.template
        return template_id

    def instance(self, num_id: str) -> ListInstance | None:
        """The list instance for a numId, or None when numbering.xml does not define it."""
        return self._instances.get(num_id)

    def level_for_style(self, num_id: str, style_id: str) -> int | None:
        """The level whose w:pStyle names this paragraph style, if any."""
        found = self.instance(num_id)
        if found is None:
            return None
        return next((i for i, level in found.levels.items() if level.style == style_id), None)


def _parse_num(num: etree._Element) -> _RawNum:
    replaced: dict[int, Level] = {}
    starts: dict[int, int] = {}
    for override in num.iter(W + "lvlOverride"):
        index = _int(attr(override, "ilvl"), 0)
        replacement = override.find(W + "lvl")
        if replacement is not None:
            replaced[index] = _parse_level(replacement)[1]
        start = attr(override.find(W + "startOverride"))
        if start is not None:
            starts[index] = _int(start, 1)
    return _RawNum(attr(num.find(W + "abstractNumId")) or "", replaced, starts)


class NumberingCounter:
    """Walks paragraphs in document order and hands out the label each one shows."""

    def __init__(self, definitions: NumberingDefinitions) -> None:
        self._defs = definitions
        self._counts: dict[str, dict[int, int]] = {}
        self._started: set[str] = set()

    def next_item(self, num_id: str, level: int) -> NumberedItem | None:
        """Advance the counter for (numId, ilvl) and return the paragraph's label."""
        if num_id in ("", "0"):  # numId 0 explicitly removes numbering
            return None
        found = self._defs.instance(num_id)
        if found is None:
            log.debug("numId %s is not defined in numbering.xml; ignoring it", num_id)
            return None
        level = min(max(level, 0), MAX_LEVELS - 1)
        counts = self._counts.setdefault(found.template, {})
        if num_id not in self._started:
            self._started.add(num_id)
            for index, start in found.start_overrides.items():
                counts[index] = start - 1  # the next paragraph at that level shows `start`
        definition = found.levels.get(level, Level())
        counts[level] = counts[level] + 1 if level in counts else _start(found, level)
        self._restart_deeper(found, counts, level)
        if definition.fmt == "bullet":
            return NumberedItem("", level, found.template, "bullet", bullet=True)
        label = _render(found, counts, level)
        return NumberedItem(label, level, found.template, definition.fmt)

    @staticmethod
    def _restart_deeper(found: ListInstance, counts: dict[int, int], level: int) -> None:
        for deeper in [index for index in counts if index > level]:
            rule = found.levels.get(deeper, Level()).restart_after
            # w:lvlRestart is 1-based: restart when a level numbered <= it advances; 0 = never.
            if rule is None or (rule != 0 and level < rule):
                del counts[deeper]


def _start(found: ListInstance, level: int) -> int:
    if level in found.start_overrides:
        return found.start_overrides[level]
    return found.levels.get(level, Level()).start


def _render(found: ListInstance, counts: Mapping[int, int], level: int) -> str:
    definition = found.levels.get(level, Level())
    if definition.fmt == "none":
        return _PLACEHOLDER.sub("", definition.text).strip()

    def value(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        # A level never reached since its last restart shows its start value, as Word does.
        number = counts.get(index, _start(found, index))
        fmt = found.levels.get(index, Level()).fmt
        if definition.legal and index != level:
            fmt = "decimal"
        return format_number(number, fmt)

    return _PLACEHOLDER.sub(value, definition.text).strip()


def format_number(number: int, fmt: str) -> str:
    """Write a counter value in a w:numFmt (decimal, lowerLetter, upperRoman, ...)."""
    if fmt in ("lowerLetter", "upperLetter"):
        text = _letters(number)
        return text.upper() if fmt == "upperLetter" else text
    if fmt in ("lowerRoman", "upperRoman"):
        text = to_roman(number)
        return text.lower() if fmt == "lowerRoman" else text
    if fmt == "decimalZero":
        return f"{number:02d}"
    if fmt == "ordinal":
        return f"{number}{_ordinal_suffix(number)}"
    if fmt in ("bullet", "none"):
        return ""
    return str(number)  # decimal and every format we do not spell out


def _letters(number: int) -> str:
    # Word repeats the letter past z: 27 -> "aa", 28 -> "bb".
    if number <= 0:
        return str(number)
    repeat, index = divmod(number - 1, 26)
    return chr(ord("a") + index) * (repeat + 1)


_ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip


def to_roman(number: int) -> str:
    """Upper-case Roman numeral; numbers outside 1..3999 stay decimal."""
    if not 0 < number < 4000:
        return str(number)
    out = []
    for value, numeral in _ROMAN:
        count, number = divmod(number, value)
        out.append(numeral * count)
    return "".join(out)


def _ordinal_suffix(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def _parse_level(element: etree._Element) -> tuple[int, Level]:
    text_element = element.find(W + "lvlText")
    restart = attr(element.find(W + "lvlRestart"))
    return _int(attr(element, "ilvl"), 0), Level(
        start=_int(attr(element.find(W + "start")), 1),
        fmt=attr(element.find(W + "numFmt")) or "decimal",
        text=(attr(text_element) or "") if text_element is not None else "",
        restart_after=None if restart is None else _int(restart, 0),
        legal=is_on(element.find(W + "isLgl")),
        style=attr(element.find(W + "pStyle")) or "",
    )


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default
