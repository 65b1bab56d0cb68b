"""The clause-reading core: what a contract's words say, read once, used everywhere.

One home per legal idea, used by the index (ingest), conforming, the drafting operations and
checks, and Compare terms; nothing outside this folder reads these ideas again:

* ``parties``: the one table of party roles and their counterparts, and which parties a
  document or a clause names (definitions, cover-page rows, signature labels, possessives);
* ``defined_terms``: the terms a text defines (quoted definitions, cover-page tables), their
  mentions in every form (plural, possessive, all capitals) and capitalised terms used
  without a definition;
* ``document``: a whole document read from its paragraphs as Word gives them (the pane's
  blocks or the index's clauses): definitions, parties, section map, its name for itself.

``index_builder`` never imports ``addin_server``; the server and the index both import this.
"""

from index_builder.reading.paragraphs import Paragraph

__all__ = ["Paragraph"]
