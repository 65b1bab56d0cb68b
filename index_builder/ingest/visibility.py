"""Runs that Word lays out but a reader cannot see: hidden, coloured like what lies behind
them, or too small to read. Their text never reaches the index (or a model's prompt).

A run is invisible when it is hidden (w:vanish, w:specVanish, w:webHidden, directly or by
style), when its colour barely differs from its background (run shading or highlight, else
paragraph shading, else table cell shading, else the page colour, else white), or when its
font is 2 points or smaller. "auto" colour is Word's automatic contrast: always visible.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lxml import etree

from index_builder.ingest.ooxml import W, attr

MAX_INVISIBLE_HALF_POINTS = 4  # w:sz counts half-points: 2 pt or less cannot be read
MIN_CONTRAST = 1.25  # WCAG contrast ratio; F2F2F2 on white is 1.12, light grey D9D9D9 is 1.41
WHITE = "FFFFFF"

_THEME = {"background1": WHITE, "bg1": WHITE, "light1": WHITE, "background2": "E7E6E6",
          "text1": "000000", "tx1": "000000", "dark1": "000000"}
_HIGHLIGHT = {
    "white": WHITE, "black": "000000", "yellow": "FFFF00", "green": "00FF00", "cyan": "00FFFF",
    "magenta": "FF00FF", "blue": "0000FF", "red": "FF0000", "darkBlue": "000080",
    "darkCyan": "008080", "darkGreen": "008000", "darkMagenta": "800080", "darkRed": "800000",
    "darkYellow": "808000", "darkGray": "808080", "lightGray": "C0C0C0",
}
_HIDING = ("vanish", "specVanish", "webHidden")


def color_of(rpr: etree._Element | None) -> str:
    """The run colour as 6 hex digits, "auto" for Word's automatic colour, "" when unset."""
    element = rpr.find(W + "color") if rpr is not None else None
    if element is None:
        return ""
    value = (attr(element) or "").upper()
    if _is_hex(value):
        return value  # Word writes the theme colour's computed value (shades included) here
    if value == "AUTO":
        return "auto"
    if attr(element, "themeShade") or attr(element, "themeTint"):
        return ""  # a shaded theme colour with no computed value: not knowable, so visible
    return _THEME.get(attr(element, "themeColor") or "", "")


def fill_of(properties: etree._Element | None, highlight: bool = False) -> str:
    """The shading (or, for a run, highlight) behind text, 6 hex digits or ""."""
    if properties is None:
        return ""
    shd = properties.find(W + "shd")
    if shd is not None:
        pattern_color = (attr(shd, "color") or "").upper()
        if attr(shd) == "solid" and _is_hex(pattern_color):
            return pattern_color
        fill = (attr(shd, "fill") or "").upper()
        if _is_hex(fill):
            return fill
        theme = _THEME.get(attr(shd, "themeFill") or "", "")
        if theme:
            return theme
    if highlight:
        return _HIGHLIGHT.get(attr(properties.find(W + "highlight")) or "", "")
    return ""


def hidden_in(rpr: etree._Element | None) -> bool | None:
    """True/False when the properties switch hiding on/off, None when they say nothing."""
    if rpr is None:
        return None
    found = None
    for tag in _HIDING:
        element = rpr.find(W + tag)
        if element is not None:
            on = attr(element) not in ("0", "false", "off")
            found = on or bool(found)
    return found


def page_color(document: etree._Element) -> str:
    background = document.find(W + "background")
    value = (attr(background, "color") or "").upper() if background is not None else ""
    return value if _is_hex(value) else WHITE


def cell_fill(paragraph: etree._Element) -> str:
    """Shading of the innermost table cell holding the paragraph, "" outside tables."""
    for cell in paragraph.iterancestors(W + "tc"):
        fill = fill_of(cell.find(W + "tcPr"))
        if fill:
            return fill
    return ""


def invisible_reason(hidden: bool, color: str, background: str, size: int) -> str:
    """Why a run cannot be seen ("hidden", "white on white", "1 pt"), "" when it can."""
    if hidden:
        return "hidden"
    if color and color != "auto" and contrast(color, background) < MIN_CONTRAST:
        return f"{_name(color)} on {_name(background)}"
    if 0 < size <= MAX_INVISIBLE_HALF_POINTS:
        return f"{size / 2:g} pt"
    return ""


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 = identical, 21 = black on white)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _luminance(color: str) -> float:
    channels = []
    for i in (0, 2, 4):
        c = int(color[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _name(color: str) -> str:
    channels = [int(color[i:i + 2], 16) for i in (0, 2, 4)]
    if min(channels) >= 0xF0:
        return "white"
    if max(channels) <= 0x10:
        return "black"
    return f"#{color}"


def _is_hex(value: str) -> bool:
    return len(value) == 6 and all(c in "0123456789ABCDEF" for c in value)


@dataclass
class LeftOut:
    """Invisible runs left out of one document, counted by reason (for the build report)."""

    reasons: Counter[str]

    def note(self) -> str:
        runs = sum(self.reasons.values())
        if not runs:
            return ""
        why = ", ".join(reason for reason, _ in self.reasons.most_common())
        return f"left out {runs} run{'s' if runs != 1 else ''} of invisible text ({why})"
