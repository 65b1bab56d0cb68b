"""The clause-reading core: what a contract's words say, read once, used everywhere.

One home per legal idea, used by the index (ingest), conforming, the drafting operations and
checks, and Compare terms; nothing outside this folder reads these ideas again:

* ``parties``: the one table of party roles and their counterparts, and which parties a
  document or a clause names (definitions, cover-page rows, signature labels, possessives);
* ``legal_names``: who the parties are ("Acme Corp.", from "Party Name:" rows or the
  preamble's "between A and B"), for the index's facets; ``blanks``: a template's blanks,
  which no reader takes for a value;
* ``defined_terms``: the terms a text defines (quoted definitions, cover-page tables), their
  mentions in every form (plural, possessive, all capitals) and capitalised terms used
  without a definition; ``term_uses``: every term's uses in one scan, in any capitals (the
  document check's odd capitals and unused definitions);
* ``numbers``, ``figures``, ``caps`` (i38-figures): periods, amounts, percentages and
  liability caps with their spans;
* ``document``: a whole document read from its paragraphs as Word gives them (the pane's
  blocks or the index's clauses): definitions, parties, section map, its name for itself, a
  paragraph's run-in heading (the index's clause headings too); ``paragraphs``: the shape the
  readers take, and a clause number typed at a paragraph's start;
* ``sentences``: the one sentence splitter (search's matching spans, the drafting checks) and
  a sentence's parts; ``dates``: dates and month names (the index's effective-date facet);
* ``numbers``, ``figures``, ``caps``: periods, amounts, percentages and multiples in digits
  and words, and liability caps of every kind, each with its span; ``limitations``: the rest
  of a limitation of liability (carve-outs, the exclusion of consequential loss, a super-cap);
* ``binding``: who each sentence binds and who it protects (subjects, possessives, "its",
  passives, "each party"), and whether it states an obligation, a right or a protection.

``index_builder`` never imports ``addin_server``; the server and the index both import this.
"""

from index_builder.reading.paragraphs import Paragraph

__all__ = ["Paragraph"]
