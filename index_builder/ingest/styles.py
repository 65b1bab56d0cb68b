"""styles.xml: what a paragraph or character style contributes (numbering, heading, bold).

Properties are inherited along w:basedOn, so each style is resolved against its ancestors
once, up front.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from index_builder.ingest.ooxml import W, attr, is_on
from index_builder.ingest.visibility import color_of, fill_of, hidden_in

_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
# Custom styles that say what they are ("OA Section Heading 2", "Contract Title").
_CUSTOM_HEADING = re.compile(r"\bheading\s*([1-9])?\b", re.IGNORECASE)
_CUSTOM_TITLE = re.compile(r"(?<!sub)title\b", re.IGNORECASE)
_MAX_DEPTH = 20  # basedOn chains are short; this only stops a cycle


@dataclass(frozen=True)
class StyleInfo:
    """The resolved properties of one style."""

    style_id: str
    name: str = ""
    num_id: str | None = None
    ilvl: int | None = None
    outline_level: int | None = None  # 0 = Heading 1; None = body text
    is_title: bool = False
    bold: bool = False
    underline: bool = False
    size: int = 0  # font size in half-points (w:sz); 0 = not set
    hidden: bool = False  # w:vanish / w:specVanish / w:webHidden
    color: str = ""  # text colour, 6 hex digits or "auto"; "" = not set
    fill: str = ""  # paragraph shading behind the text; "" = none
    run_fill: str = ""  # run shading or highlight; "" = none


class Styles:
    """Lookup of resolved paragraph and character styles."""

    def __init__(self, root: etree._Element | None) -> None:
        self._raw: dict[str, etree._Element] = {}
        self._resolved: dict[str, StyleInfo] = {}
        self.default_paragraph = ""
        self.defaults = StyleInfo("")  # w:docDefaults: what every run starts from
        if root is None:
            return
        defaults = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
        if defaults is not None:
            self.defaults = StyleInfo("", size=font_size(defaults), hidden=bool(hidden_in(defaults)),
                                      color=color_of(defaults))
        for style in root.iter(W + "style"):
            style_id = attr(style, "styleId") or ""
            self._raw[style_id] = style
            if attr(style, "type") == "paragraph" and is_on_attr(style, "default"):
                self.default_paragraph = style_id

    def get(self, style_id: str | None) -> StyleInfo:
        """Resolved style (the default paragraph style when style_id is empty)."""
        style_id = style_id or self.default_paragraph
        if style_id not in self._resolved:
            self._resolved[style_id] = self._resolve(style_id, 0)
        return self._resolved[style_id]

    def numbering_style_num_ids(self) -> dict[str, str]:
        """numId of every numbering style, for templates that link to one (numStyleLink)."""
        out = {}
        for style_id, style in self._raw.items():
            num_id = attr(style.find(f"{W}pPr/{W}numPr/{W}numId"))
            if attr(style, "type") == "numbering" and num_id:
                out[style_id] = num_id
        return out

    def _resolve(self, style_id: str, depth: int) -> StyleInfo:
        style = self._raw.get(style_id)
        if style is None:
            return StyleInfo(style_id)
        based_on = attr(style.find(W + "basedOn"))
        parent = (
            self._resolve(based_on, depth + 1)
            if based_on and based_on != style_id and depth < _MAX_DEPTH
            else StyleInfo(style_id)
        )
        return _merge(style_id, style, parent)


def _merge(style_id: str, style: etree._Element, parent: StyleInfo) -> StyleInfo:
    name = attr(style.find(W + "name")) or style_id
    ppr = style.find(W + "pPr")
    rpr = style.find(W + "rPr")
    num_pr = ppr.find(W + "numPr") if ppr is not None else None
    num_id, ilvl = parent.num_id, parent.ilvl
    if num_pr is not None:
        num_id = attr(num_pr.find(W + "numId")) or num_id
        ilvl_text = attr(num_pr.find(W + "ilvl"))
        ilvl = int(ilvl_text) if ilvl_text and ilvl_text.isdigit() else None
    outline = parent.outline_level
    outline_text = attr(ppr.find(W + "outlineLvl")) if ppr is not None else None
    if outline_text is not None and outline_text.isdigit():
        outline = int(outline_text) if int(outline_text) < 9 else None  # 9 = body text
    heading = _HEADING_NAME.match(name)
    custom = _CUSTOM_HEADING.search(name)
    if heading:
        outline = int(heading.group(1)) - 1
    elif custom and outline is None:
        outline = int(custom.group(1)) - 1 if custom.group(1) else 1
    return StyleInfo(
        style_id=style_id,
        name=name,
        num_id=num_id,
        ilvl=ilvl,
        outline_level=outline,
        is_title=parent.is_title or bool(_CUSTOM_TITLE.search(name)),
        bold=_toggle(rpr, "b", parent.bold),
        underline=_toggle(rpr, "u", parent.underline),
        size=font_size(rpr) or parent.size,
        hidden=parent.hidden if (hidden := hidden_in(rpr)) is None else hidden,
        color=color_of(rpr) or parent.color,
        fill=fill_of(ppr) or parent.fill,
        run_fill=fill_of(rpr, highlight=True) or parent.run_fill,
    )


def _toggle(rpr: etree._Element | None, tag: str, inherited: bool) -> bool:
    element = rpr.find(W + tag) if rpr is not None else None
    return inherited if element is None else is_on(element)


def font_size(rpr: etree._Element | None) -> int:
    """w:sz of a run or style in half-points, 0 when absent or unreadable."""
    value = attr(rpr.find(W + "sz")) if rpr is not None else None
    return int(value) if value and value.isdigit() else 0


def is_on_attr(element: etree._Element, name: str) -> bool:
    """A w: boolean attribute such as w:default="1"."""
    return attr(element, name) in ("1", "true", "on")
