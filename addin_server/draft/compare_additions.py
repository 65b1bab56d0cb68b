"""Does the draft add what nothing asked for and no cited precedent says? (compare.py: ``additions``.)"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading import polarity as P
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.compare_base import (STOP, STOP_STEMS, SUBSTANCE, Allowances, Comparison, content_stems, same_figure, short, stem_of,
                                             stem_list, stem_set)


def additions(c: Comparison, allow: Allowances, parties: Sequence[str] = (), cited: Sequence[str] = ()) -> list[str]:
    """What the draft adds that neither the clause, the instruction nor a cited precedent says.

    ``cited``: the sentences of the draft that cite a precedent (the support check judges them)."""
    out: list[str] = []
    mine = F.figures(c.clause)
    backed = F.figures(allow.cited_text) if allow.cited_text else []
    # A number the instruction writes bare is given in any unit ("7 years asked; we'll meet them at 5": the
    # lawyer's "5" is the source of "5 years"), unless the instruction also writes that number with its unit
    # ("Two. ... at least two years" gives no "two months").
    said = F.mentions(allow.asked) if allow.asked else []
    asked = {("n", round(m.value, 6)) for m in said if m.kind == "count"} - \
        {("n", round(m.value, 6)) for m in said if m.kind != "count"}
    for g in F.figures(c.draft):
        if any(same_figure(g, f) for f in mine) or _written_in(g.text, c.clause) or \
                any(same_figure(g, v) for v in allow.figures) or ("n", round(g.value, 6)) in asked or \
                any(same_figure(g, b) for b in backed) or in_cited(c.draft, g.start, cited):
            continue
        if any(same_figure(f, o) for o in allow.old_figures for f in mine if f.kind == g.kind):
            pass
        replaced = [f for f in mine if f.kind == g.kind and (f.unit or "") == (g.unit or "")
                    and not any(same_figure(f, h) for h in F.figures(c.draft))]
        if replaced and not allow.figures:
            continue  # a figure changed for another: meaning_changes says so
        out.append(f"The draft adds “{g.text}”, which neither your clause, your instruction nor a cited "
                   "precedent gives.")
    out += _new_provisions(c, allow, parties, cited)
    out += _new_sentences(c, allow, cited)
    out += _exception_beyond_ask(c, allow, cited)
    if not allow.conform:
        out += _new_conditions(c, allow, cited)
    return list(dict.fromkeys(out))


def carve_out_alone(allow: Allowances) -> bool:
    """The ask is a carve-out and asks nothing else that brings words of its own (a value, a party's
    place, a rewording, a document's names): what the draft adds, the exception must account for."""
    return allow.exception and not (allow.figures or allow.parties or allow.rewrite or allow.plain or allow.conform
                                    or allow.delete or allow.mirror or allow.unread_scopes)


def _exception_beyond_ask(c: Comparison, allow: Allowances, cited: Sequence[str]) -> list[str]:
    """A limb of the added exception that neither the ask, the clause nor a precedent it names or the draft
    cites gives ("or from hiring any person who approaches the Consultant first" beside an ask for [1]'s
    general-advertisement exception): the new-words readers above excuse every new "except" under a
    carve-out, so what the exception lets through is read here (carve_limbs.py). Cited limbs are the
    support check's."""
    if not carve_out_alone(allow):
        return []
    from addin_server.draft.carve_limbs import unbacked_limbs
    out = []
    # A precedent the lawyer ticked is given, cited or not (the support check judges borrowing it uncited).
    for limb in unbacked_limbs(c.clause, c.draft, allow.asked + " " + allow.cited_text, also=allow.words):
        if not in_cited(c.draft, limb.start, cited):
            out.append(f"The exception the draft adds also covers “{short(limb.text, 70)}”, which neither your "
                       "instruction, your clause nor the precedent gives.")
    return out


def _written_in(figure: str, clause: str) -> bool:
    """The clause writes the figure word for word ("two (2) times" of "two (2) times per month"): the draft
    restates it, whichever way the figure reader takes the words around it."""
    return bool(re.search(rf"(?<![\w.]){re.escape(figure)}(?![\w.])", clause, re.IGNORECASE))


def in_cited(draft: str, at: int, cited: Sequence[str]) -> bool:
    return any(s and s in draft and draft.find(s) <= at < draft.find(s) + len(s) for s in cited)


def _new_provisions(c: Comparison, allow: Allowances, parties: Sequence[str], cited: Sequence[str]) -> list[str]:
    mine = binding.read(c.clause, parties)
    theirs = binding.read(c.draft, parties)
    known = set(allow.words) | stem_set(c.clause) | stem_set(allow.cited_text)
    # The clause's provisions the draft no longer says in like words: a new provision of the same party and
    # kind stands in the place of one of them, said another way ("may consult an attorney" -> "may talk to a
    # lawyer"); what changed in it is the meaning check's to judge, not a new promise. One for one.
    reworded = [p for p in mine.provisions if not any(binding.similar(p, q) for q in theirs.provisions)]
    out = []
    for q in theirs.provisions:
        sentence = c.draft[q.start:q.end]
        if in_cited(c.draft, q.start, cited) or any(binding.similar(q, p) for p in mine.provisions):
            continue
        twin = next((p for p in reworded if _same_place(p, q, allow.conform)), None)
        if twin is not None:
            reworded.remove(twin)
            continue
        if allow.exception and P.negation_or_exception().search(sentence):
            continue
        if any(v.text.lower() in sentence.lower() for v in allow.figures):
            continue  # the value the instruction asks for, stated as a provision of its own
        if (allow.rewrite or allow.conform) and not any(w.startswith(x) for w in re.findall(r"[a-z]{4,}", sentence.lower())
                                                        if stem_of(w) not in known for x in SUBSTANCE):
            continue  # reworded (plain English, shorter): a new sentence of old promises
        verb_new = q.verb and stem_of(q.verb) not in known
        # Stems against stems: "other" is a stop word, and its stem "othe" no new word of the provision.
        novel = [w for w in stem_list(sentence[q.subject[1] - q.start:]) if w not in known and w not in STOP_STEMS]
        if verb_new and len(novel) >= 2:
            out.append(f"The draft adds a new {_kind_word(q)}: “{short(sentence)}”, which nothing you gave asks for "
                       "or backs.")
    return out


def _same_place(p: binding.Provision, q: binding.Provision, conform: bool) -> bool:
    """``q`` may be ``p`` said another way: the same kind, the same "not", the same party bound (any party
    where the draft conforms the clause's names to the document's)."""
    return p.kind == q.kind and p.negated == q.negated and (p.bound == q.bound or conform) and bool(p.bound)


def _kind_word(p: binding.Provision) -> str:
    return {"obligation": "obligation", "prohibition": "restriction", "right": "right",
            "protection": "limit"}.get(p.kind, "term")


def _new_conditions(c: Comparison, allow: Allowances, cited: Sequence[str], only: bool = True) -> list[str]:
    known = set(allow.words) | stem_set(c.clause) | stem_set(allow.cited_text)
    out = []
    for r in c.regions:
        if not r.new.strip() or in_cited(c.draft, r.new_start, cited):
            continue
        # The value the instruction asks for is the lawyer's; what comes with it is judged like any words
        # ("5 years, each certified by the Secretary": the certification is new).
        new = r.new.lower()
        if allow.rewrite or allow.plain or c.rewritten:
            new = _money_reworded(c, r.new_start, new)
        new = _as_asked(new, allow, c.clause, only)
        novel = [w for w in re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])-(?=[a-z])", "", new))
                 if stem_of(w) not in known and w not in STOP]
        # ("paid" is "pay" by its stem: the past tense of a word of substance is one too.)
        hits = [w for w in novel if any(w.startswith(s) for s in SUBSTANCE) or stem_of(w) in SUBSTANCE]
        if hits and not (allow.exception and P.negation_or_exception(nothing=False).search(r.new)):
            out.append(f"The draft adds “{short(r.new, 70)}” (“{hits[0]}”), a condition or reach your clause does "
                       "not have and nothing you gave backs.")
    return out


def _money_reworded(c: Comparison, at: int, new: str) -> str:
    """``new`` (the added words at ``at`` in the draft) less each "pay" said in a sentence that rewords one of
    the clause's about money: a rewording says "pay for together" for "jointly funds", "the extra payment" for
    "the new consideration", "will have to pay for lost profits" for "shall be liable for". A "pay" in a
    sentence that rewords none of them ("Employer has paid for the advice" beside "the opportunity to
    consult") is new money, judged like any words."""
    clause = [c.clause[a:b] for a, b in sentence_spans(c.clause)]
    out = new
    for m in _PAY.finditer(new):
        start = next(((a, b) for a, b in sentence_spans(c.draft) if a <= at + m.start() < b), None)
        if start is None:
            continue
        own = content_stems(c.draft[start[0]:start[1]])
        nearest = max(clause, key=lambda t: len(own & content_stems(t)), default="")
        if _MONEY.search(nearest) and own & content_stems(nearest):
            out = out[:m.start()] + " " * (m.end() - m.start()) + out[m.end():]
    return out


def _as_asked(new: str, allow: Allowances, clause: str, only: bool = True) -> str:
    """``new`` (lower case) less the words that say what the ask gives in its ordinary legal form, so that
    what is left is what nobody gave:

    * the value the instruction asks for, with the words that make it a ceiling or a floor: a cap "of
      $250,000 a year" is drafted "not exceeding $250,000 in any year", "at least 30 days" is a minimum
      of 30 (polarity.py's limit words: the figure's own framing, not a condition of its own);
    * "written"/"prior" on a consent or notice the ask brings and the clause lacks: a consent or notice
      a lawyer asks for is drafted "prior written consent", "written notice" (the form, not a new term);
    * a lawyer's everyday word for the drafted one: "tell the other in writing", "five days' warning" ask for
      a (written) notice; "a human sign-off", "their OK" for a (written) consent or approval;
    * "solely" where the ask says "only": "only", "solely", "exclusively" say one limit (polarity.py);
    * where the clause itself says what stays ("subject to 8.1 and 8.2 ... without derogating
      therefrom"), a "not" before a verb of changing: "nothing here reduces them" says the same.
    What comes with these (a certification, a new party, a new reach) is judged like any words."""
    for v in allow.figures:
        new = re.sub(rf"(?:(?:{P.CEILING.pattern}|{P.FLOOR.pattern})\s+(?:of\s+)?)?{re.escape(v.text.lower())}", " ", new)
    mine = stem_set(clause)
    for m in re.finditer(r"\b(?:prior\s+)?(?:written|writing)\s+(?:prior\s+)?([a-z]+)", new):
        if stem_of(m.group(1)) in allow.words and stem_of(m.group(1)) not in mine:
            new = new[:m.start()] + " " * (m.end() - m.start()) + new[m.end():]
    if _KEPT_AS_IS.search(clause):
        new = _KEPT_AS_IS.sub(" ", new)
    if only and allow.asked and _ONLY.search(allow.asked):
        new = _ONLY.sub(" ", new)
    for said, drafted in _EVERYDAY:
        if allow.asked and said.search(allow.asked):
            new = drafted.sub(" ", new)
    return new


# Words of money a clause's sentence speaks of (_money_reworded). Outside a rewording, a new "pay" is judged.
_MONEY = re.compile(r"\b(?:fund(?:s|ed|ing)?|costs?|expenses?|fees?|charges?|prices?|consideration|compensat\w*|"
                    r"reimburs\w*|liab(?:le|ilit\w*)|damages|remunerat\w*|sums?|amounts?|paid|pay\w*)\b|[$€£]", re.I)
_PAY = re.compile(r"\b(?:pay(?:s|ing|ment|ments)?|paid)\b")
# (what the ask says, what a draft says for it)
_EVERYDAY = ((re.compile(r"\b(?:tell|tells|told|inform\w*|warn|warns|warning|notify|notifies|notified|heads[- ]up|"
                         r"let\s+\w+\s+know)\b", re.I), re.compile(r"\b(?:notice|notif\w+|written|writing)\b")),
             (re.compile(r"\b(?:sign[- ]?off|ok|okay|say-so|permission|approve|approval|green[- ]light)\b", re.I),
              re.compile(r"\b(?:consent\w*|approv\w+|written|writing)\b")))
_ONLY = re.compile(rf"\b(?:{'|'.join(sorted(P.ONLY_WORDS))})\b", re.I)
# A "not" before a verb of changing ("nothing here reduces them", "without derogating therefrom"): the
# thing stays as it is (polarity.py), and a clause that says "subject to" says so of what it is subject to.
_KEPT_AS_IS = re.compile(rf"\b(?:{P.NOT_WORDING}|without)\b(?:\s+[\w.’']+){{0,4}}?\s+(?:{P.UNCHANGED_AFTER_NOT.pattern})|"
                         r"\bsubject\s+to\b", re.I)


def only_unsure(c: Comparison, allow: Allowances, cited: Sequence[str] = ()) -> str | None:
    """An "only" the draft adds that the ask's own "only" accounts for ("solely for its own internal use" for
    "internal use only"): the additions reader takes it as asked, but an "only" bites where it stands (it may
    limit what the ask did not, beside a grant turned round), so where nothing else was found the check says
    "not checked", not "passed". None where the draft adds no such word."""
    if allow.conform or not (allow.asked and _ONLY.search(allow.asked)):
        return None
    found = _new_conditions(c, allow, cited, only=False)
    return found[0] if found else None


def _new_sentences(c: Comparison, allow: Allowances, cited: Sequence[str]) -> list[str]:
    """A sentence of the draft about nothing the clause is about and nothing the lawyer asked for in any
    words ("Any dispute shall be finally resolved by arbitration ..." beside a governing-law change): a new
    provision whether or not the binding reader finds a party in it. Read on the sentence's ordinary words
    (names left out: a place the lawyer names is not an ask for what the draft says of it). A sentence
    that shares two of those words with the instruction is the ask in the draft's words ("seek interim
    injunctive relief in any court of competent jurisdiction" for "run to any competent court for an
    urgent injunction"); one that shares half of them with the clause restates it."""
    if allow.plain or c.rewritten:
        return []  # a rewording says the clause's promises in new sentences of new words
    mine = stem_set(c.clause) | stem_set(allow.cited_text)
    out = []
    for start, end in sentence_spans(c.draft):
        sentence = c.draft[start:end]
        if in_cited(c.draft, start, cited) or not _OPERATIVE.search(sentence) or sentence.rstrip().endswith(":"):
            continue  # cited (the support check's), stating nothing, or a lead-in to what follows
        if any(v.text.lower() in sentence.lower() for v in allow.figures):
            continue  # the value the instruction asks for, in a sentence of its own
        capitals = not re.search(r"[a-z]", sentence)
        own = {stem_of(w) for w in re.findall(r"(?<![\w-])[a-z][a-z]{3,}\b", sentence.lower() if capitals else sentence)
               if w not in STOP}
        novel = own - mine - set(allow.words)
        asked = (own & set(allow.words)) - mine
        shared = len(own & mine) - (_repeated_pairs(sentence, c.clause) if capitals else 0)
        if len(novel) >= 3 and shared * 2 < len(own) and len(asked) < 2:
            out.append(f"The draft adds a new sentence: “{short(sentence)}”, which your clause does not have and "
                       "nothing you gave asks for or backs.")
    return out


def _repeated_pairs(sentence: str, clause: str) -> int:
    """How many of a capitals sentence's word pairs the clause has side by side ("CONFIDENTIAL INFORMATION"):
    in capitals a name cannot be told from words by its case, and a name the clause repeats is one thing
    the sentence shares with it, not two."""
    pairs = set(zip(*(lambda w: (w, w[1:]))(re.findall(r"[a-z]{4,}", clause.lower()))))
    words = [w for w in re.findall(r"[a-z]{4,}", sentence.lower())]
    return sum(1 for p in zip(words, words[1:]) if p in pairs and p[0] not in STOP and p[1] not in STOP)


# A sentence that binds: a modal, or a promise in the present tense ("Discloser warrants that ...").
_OPERATIVE = re.compile(r"(?<![\w-])(?:shall|must|will|may|agrees?|warrants|represents|covenants|undertakes)(?![\w-])",
                        re.IGNORECASE)
