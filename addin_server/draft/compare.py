"""What a draft changes in the lawyer's clause, read as a lawyer reads a blackline.

``compare(clause, draft)`` lines the two up word by word (difflib) and gives the changes as
regions (nearby edits read together). On that, two questions the checks ask:

* ``meaning_changes``: does a part the instruction did not touch now mean something else? A
  figure changed or dropped, a limit turned round ("lesser" -> "greater", "before" -> "after",
  "minimum" -> "maximum", a "not" gained or lost, "only" or "except" dropped), two terms or
  parties swapped, a provision that now binds another party, a provision dropped;
* ``additions``: does the draft add what nothing asked for and no cited precedent says? A new
  amount or period, a new obligation or right, a new condition or scope ("and notarized",
  "anywhere in the world").

Each finding says what changed in a lawyer's words; the caller (checks.py) knows which parts of
the instruction explain which changes and passes them in as ``Allowances``.
"""

from __future__ import annotations

# One import home for the checks: the comparison and its two questions (split by concern into compare_*.py).
from addin_server.draft.compare_additions import additions
from addin_server.draft.compare_base import (STOP, MERGE_GAP, OPPOSITES, SUBSTANCE, Allowances, Comparison, Region,
                                             raw_edits, short, stem_of, stem_list, stem_set, the_named, compare, words)
from addin_server.draft.compare_meaning import meaning_changes

__all__ = ["MERGE_GAP", "OPPOSITES", "SUBSTANCE", "Allowances", "Comparison", "Region", "STOP", "raw_edits", "short",
           "stem_of", "stem_list", "stem_set", "the_named", "additions", "compare", "meaning_changes", "words"]
