"""Document-level fields stamped on every clause at build time: facets and ethical walls.

Both come from outside the clause text, so they are recomputed on every build for parsed
*and* reused documents: a changed wall policy or metadata file takes effect on the next
rebuild without re-reading or re-embedding anything (vectors are keyed by text).

* Facets (``document_type``, ``governing_law``, ``parties``, ``effective_date``...): the reader
  finds them in the whole parsed document (ingest/metadata.py); a firm's CSV overrides them
  here. A BEIR corpus is a bag of clauses from many contracts, so it gets none.
* Walls (``access_groups``, ``denied_groups``): from the policy file (ingest/policy.py),
  matched on the document's path inside the folder it was indexed from; for a document from
  a DMS (index_builder/sources/), from the DMS's own permissions, unless a policy rule names
  the document's path (the policy file stays for overrides).
* ``source_url``: where the document opens in its DMS (the DMS checks access again).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from index_builder.ingest import metadata as facets
from index_builder.ingest.policy import Access, WallPolicy, load_policy
from index_builder.model import Clause
from index_builder.settings import Settings
from index_builder.terms import VERSION as TERMS_VERSION


@dataclass
class Labeller:
    """Applies the configured facet extraction, overrides and wall policy to clauses."""

    policy: WallPolicy | None
    overrides: dict[str, dict[str, str]]
    overrides_digest: str
    # Set when the previous version's walls came from a policy that is now gone: its groups
    # must leave the reused clauses too, not linger as stale walls.
    clear_walls: bool = False

    @classmethod
    def from_settings(cls, settings: Settings, previous_params: dict[str, Any] | None = None
                      ) -> "Labeller":
        walls = getattr(settings, "walls", None)
        policy = load_policy(walls.policy_file, walls.default) if walls else None
        path = settings.metadata_file
        overrides = facets.load_overrides(path) if path else {}
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""
        clear = policy is None and bool((previous_params or {}).get("walls"))
        return cls(policy, overrides, digest, clear)

    def params(self) -> dict[str, Any]:
        """What a version records, so a changed policy or metadata file is never 'unchanged'."""
        return {"walls": self.policy.describe() if self.policy else None,
                "metadata_file": self.overrides_digest or None,
                # A new extractor version re-extracts every clause (carried documents too).
                "terms": TERMS_VERSION,
                # New facet rules re-read every document's fields (see build: reread).
                "facets": facets.VERSION}

    def label(self, clauses: list[Clause], kind: str, relative: str,
              access: Access | None = None, link: str = "") -> list[Clause]:
        """The clauses of one source with its document fields and walls in their metadata;
        ``access``: the DMS's permissions for the document, ``link``: where it opens."""
        walls = self._walls(kind, relative, access)
        out = []
        for clause in clauses:
            meta = dict(clause.metadata)
            if kind == "file" and self.overrides:
                # The reader found the fields; the firm's file wins. (A changed file makes the
                # build re-read every document, so an override removed from it is undone.)
                meta = {**meta, **facets.apply_overrides(
                    {k: v for k, v in meta.items() if k in facets.FIELDS}, self.overrides, relative)}
            if self.policy is not None or self.clear_walls or access is not None:
                meta = {k: v for k, v in meta.items() if k not in _WALLS}
            if walls is not None:
                meta.update(walls.metadata())
            elif self.policy is not None:
                # A BEIR row is addressed as <corpus folder>/<clause id> in the policy.
                where = relative if kind == "file" else f"{relative}/{clause.clause_id}"
                meta.update(self.policy.access(where).metadata())
            meta.pop(LINK_FIELD, None)
            if link:
                meta[LINK_FIELD] = link
            out.append(replace(clause, metadata=meta) if meta != clause.metadata else clause)
        return out


    def _walls(self, kind: str, relative: str, access: Access | None) -> Access | None:
        """A DMS document's walls: a policy rule naming its path wins, else the DMS's access."""
        if access is None or kind != "file":
            return None
        override = self.policy.rule_access(relative) if self.policy is not None else None
        return override or access


LINK_FIELD = "source_url"

# Wall fields are this module's: dropped from a reused clause before they are set again, so a
# rule that no longer applies disappears too (only when a policy set them).
_WALLS = frozenset({"access_groups", "denied_groups"})
