"""Words of the clause an ask names by themselves: the words it says go, and the names it swaps.

However a lawyer structures a message (a status list, a whiteboard, a checklist row, a quoted demand), two
asks name the clause's own words and so can be held to the draft without reading the rest of the limb:

* words said to go: "'substantially' goes", "Sole and absolute discretion goes", "'pursuant to the
  foregoing' and 'hereof' go", "take out 'as is'". The words are the clause's, word for word;
* names swapped: "Licensee = Customer", "'Chosen Courts' = their 'Courts'", "Minnesota becomes Georgia",
  "wherever the licence says JHU, read Company", "for 'Employer' read 'Company'", "X -> Y".

Only the words themselves are read here; whether the draft still has them is parts_limbs.py's question.
Each reading is accepted only where the old words are in the clause as written, so a case made in the
same message ("the supplier's 60 days becomes ...", "-> Only through 'or law'") names nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from index_builder.reading import binding

from addin_server.draft.instruction_scope import scope_of

if TYPE_CHECKING:
    from addin_server.draft.instruction_model import Part

# A quoted phrase: the closing mark is not an apostrophe inside a word ("Licensee's").
_Q = r"(?<![\w'’])['‘\"“](?P<{0}>[^'‘’\"“”\n]{{1,100}}?(?:['’]s\b[^'‘’\"“”\n]{{0,80}}?)*)['’\"”](?![\w])"
# A name said bare: a run of capitalised words ("Minnesota", "SINA Leju", "Licensed Content").
# (A run goes on within a line and never through an article: "Documentation The SLA" is two sentences run together.)
_NAME = (r"(?P<{0}>[A-Z][\w&-]*(?:\.[\w&-]+)*(?:['’]s)?(?:[ \t]+(?:of[ \t]+|and[ \t]+)?(?!(?:The|A|An|This|That|It)\b)"
         r"[A-Z][\w&-]*(?:\.[\w&-]+)*(?:['’]s)?){{0,3}})")


def _side(name: str) -> str:
    return rf"(?:{_Q.format(name + 'q')}|{_NAME.format(name + 'n')})"


_OLD, _NEW = _side("old"), _side("new")
_SWAPS = (
    re.compile(rf"{_OLD}\s*=\s*(?:(?:their|our|the|its)\s+)?{_NEW}"),
    # (Case-sensitive, as a bare name is read by its capitals: "[Ww]herever".)
    re.compile(rf"\b(?:[Ff]or|[Ww]herever\b[^;.]{{0,40}}?\bsays?|[Ww]here\b[^;.]{{0,40}}?\bsays?)\s+{_OLD},?\s+read\s+"
               rf"(?:(?:their|our|the)\s+)?{_NEW}"),
)
# "X becomes Y", "X -> Y", "replace X with Y" may move a right to another party ("Licensee becomes Licensor"):
# a swap of names only where the new name is not the clause's already.
_MOVES = (
    re.compile(rf"{_OLD}\s*(?:->|→|=>)\s*(?:(?:their|our|the|its)\s+)?{_NEW}"),
    re.compile(rf"{_OLD}\s+(?:becomes|will\s+become|should\s+become|is\s+to\s+become|turns\s+into)\s+(?:(?:their|our|the)\s+)?{_NEW}"),
    re.compile(rf"\b(?:[Rr]eplace|[Ss]wap)\s+(?:(?:the|all|every)\s+)?{_OLD}\s+(?:with|for|by)\s+(?:(?:their|our|the)\s+)?{_NEW}"),
)
# ("'Party' goes lower case", "the fee goes up to", "it goes to arbitration": a change of the words, not their end.)
_GO_VERB = (r"(?:goes|go|must\s+go|has\s+to\s+go|have\s+to\s+go|comes?\s+out|(?:is|are)\s+out|drops?\s+out|to\s+go)\b"
            r"(?!\s+(?:lower|upper|to|into|up|down|in|from|back|with|under|over|through|as|beyond|further|away|on|across|along|"
            r"capital|small|uppercase|lowercase|sentence|title|bold|italic)\b)")
# "'substantially' goes", "'pursuant to the foregoing' and 'hereof' go": quoted words, then the verb.
_QUOTED_GO = re.compile(rf"(?P<all>(?:{_Q.format('a')})(?:\s*(?:,|and|&)\s*{_Q.format('b')})?)\s+{_GO_VERB}")
# "Sole and absolute discretion goes": a short phrase opening its sentence or limb, then the verb.
# (Where the stops are gone, a capital still opens the phrase: "... or no deal Sole and absolute discretion goes".)
_BARE_GO = re.compile(rf"(?:^|[.;:!?)]\s+|\s[-–—]\s+|\s(?=[A-Z]))(?P<w>[A-Za-z][\w'’-]*(?:\s+[\w'’-]+){{0,5}})\s+{_GO_VERB}")
_DROP = re.compile(rf"\b(?:drop|delete|remove|strike(?:\s+out)?|take\s+out|get\s+rid\s+of|cut\s+out|scrap)\s+"
                   rf"(?:the\s+words?\s+)?{_Q.format('w')}", re.I)


def _in(clause: str, words: str) -> bool:
    return count(clause, words) > 0


def count(text: str, words: str) -> int:
    """How often ``words`` stand in ``text`` as words (any case, any spacing)."""
    pattern = r"\s+".join(re.escape(w) for w in words.split())
    return len(re.findall(rf"(?<![\w-]){pattern}(?![\w-])", text, re.I)) if pattern else 0


def said_to_go(text: str, clause: str) -> list[str]:
    """The clause's words the text says go ("'hereof' goes", "take out 'as is'"), word for word."""
    found = []
    for m in _QUOTED_GO.finditer(text):
        found += [g for g in (m.group("a"), m.group("b")) if g]
    found += [m.group("w") for m in _DROP.finditer(text)]
    for m in _BARE_GO.finditer(text):
        # ("Sole and absolute discretion goes": the words, never "it"/"that" pointing elsewhere.)
        words = re.sub(r"^(?:the|and|but|so|then|also)\s+", "", m.group("w"), flags=re.I)
        pointing = re.match(r"(?:it|this|that|these|those|everything|nothing|all)\b", words, re.I)
        if (len(words.split()) >= 2 or re.fullmatch(r"[A-Z][A-Z0-9&-]+", words)) and not pointing:
            found.append(words)
    return [w for w in dict.fromkeys(" ".join(f.split()) for f in found) if _in(clause, w)]


def swaps(text: str, clause: str) -> list[tuple[str, str]]:
    """The names the text swaps (old, new), where the old one is the clause's as written."""
    out = []
    for rx in _SWAPS + _MOVES:
        for m in rx.finditer(text):
            old = " ".join((m.group("oldq") or m.group("oldn") or "").split())
            new = " ".join((m.group("newq") or m.group("newn") or "").split())
            if old and new and old.lower() != new.lower() and _in(clause, old) and (old, new) not in out and \
                    (rx in _SWAPS or not _in(clause, re.sub(r"['’]s$", "", new))):
                out.append((old, new))
    return out


_NOT_PAIR = re.compile(r"\b([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?),?\s+(?:not|instead\s+of|rather\s+than|in\s+place\s+of)\s+"
                       r"(?:the\s+)?([A-Z][\w&.-]*)")


def renames_read_as_moves(parts: list["Part"], clause: str, parties: Sequence[str]) -> list["Part"]:
    """Parts read as a right moved or shared that swap names instead (below), read as what they are."""
    parts = _renames_read_as_flips(parts, clause, parties)
    out = []
    for part in parts:
        pairs = swaps(part.text, clause)
        # (A swap to a role, "replace 'The Licensee' with 'Neither party'", shares the right: it stays as read.)
        if part.kind in ("flip", "mutual") and pairs and all(len(old.split()) <= 4 and len(new.split()) <= 4 and
                                                             not re.search(r"\bpart(?:y|ies)\b", new) for old, new in pairs):
            # "wherever the licence says JHU, read Company", "Minnesota becomes Georgia": names swapped word for
            # word, never a right moved or shared: an unread part, held to the names it swaps (parts_limbs.py).
            # (Not a conform: that would hold the draft to the document's defined terms, which a swap of two
            # names does not ask, and fails a sound draft where the document's terms were not sent.)
            part = type(part)("other", part.text, {}, scope_of("other", part.text, parties))
        out.append(part)
    return out


def _renames_read_as_flips(parts: list["Part"], clause: str, parties: Sequence[str]) -> list["Part"]:
    """"Contractor, not Employee; Company, not Employer" moving a clause into another agreement: the
    party a "flip" would give the right to is not in the clause at all, but is the lawyer's document's,
    and the one it would take it from is the clause's and not the document's. That is a rename (a
    conform part), read from each "X, not Y" pair whose Y the clause uses; never a right moved."""
    if not clause or not parties:
        return parts
    out: list["Part"] = []
    for part in parts:
        holder, other = part.params.get("holder"), part.params.get("other")
        if part.kind == "flip" and holder and other and holder in parties and other not in parties and \
                not binding.uses(clause, holder) and binding.uses(clause, other):
            renames = {m.group(2): m.group(1) for m in _NOT_PAIR.finditer(part.text)
                       if binding.uses(clause, m.group(2)) and not binding.uses(clause, m.group(1))}
            renames.setdefault(other, holder)
            if out and out[-1].kind == "conform":
                merged = {**out[-1].params.get("renames", {}), **renames}
                out[-1] = type(part)("conform", out[-1].text + " " + part.text, {"renames": merged}, out[-1].scope)
            else:
                out.append(type(part)("conform", part.text, {"renames": renames}, scope_of("conform", part.text, parties)))
            continue
        out.append(part)
    return out
