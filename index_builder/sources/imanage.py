"""iManage Work (REST API v2) as a source: workspaces as the library, latest versions only.

Calls (iManage "Universal API" / Work API v2 reference, help.imanage.com, which needs an
iManage sign-in: the shapes here were written from it and from iManage's published
connector operations, and are checked only against the loopback emulation in
tests/sources/; docs/sources.md lists what to verify first in a test library):

* sign-in: ``POST /auth/oauth2/token`` (grant_type=password: the service account, with the
  registered application's client id and secret); the token goes in ``X-Auth-Token``.
* discovery: ``GET /api`` gives the customer id when it is not configured.
* workspace: ``GET /work/api/v2/customers/{c}/libraries/{l}/workspaces/{id}`` and its
  ``/security`` (default security and ACL).
* documents: ``GET .../documents?workspace_id=&latest=true&edit_date_from=&limit=&offset=``
  (changes since a timestamp, paged), a document's ``/security`` when it is private,
  its ``/download`` streamed.

Access: default security ``public`` or ``view`` opens a document to everyone (minus ACL
entries with ``no_access``); ``private`` keeps it to its ACL (groups by id, users as
``user:<id>``; ``no_access`` entries are denied); ``inherit`` takes the workspace's.

The edit-date feed reports neither deletions nor security changes, so each sync also reads
each workspace's security (a change there lists the workspace again: a matter closed) and
every ``PRECEDENT_IMANAGE_FULL_EVERY``-th sync lists everything (metadata only), retiring what
is gone and reading each private document's security again. The default, 1, does so every
sync: a deletion or a document's own security change reaches the index within one sync.
Set higher, the lag is bounded by that many syncs and shown on /health (``access_lag_s``).
No change feed for deletions or security (iManage's event or audit APIs) is used: none could
be checked here against a real library.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import requests

from index_builder.errors import ConfigError, SourceUnavailableError
from index_builder.ingest.policy import EVERYONE
from index_builder.sources.base import ChangePage, SourceItem
from index_builder.sources.http import ApiClient

log = logging.getLogger(__name__)

PAGE = 500


class IManageTokens:
    """OAuth2 tokens for the service account, renewed when refused or expired."""

    def __init__(self, url: str, client_id: str, client_secret: str, username: str,
                 password: str, session: requests.Session, timeout_s: float = 60.0) -> None:
        if not password:
            raise ConfigError("iManage sign-in needs the service account's password in "
                              "PRECEDENT_IMANAGE_PASSWORD or PRECEDENT_IMANAGE_PASSWORD_FILE.")
        self.url = url.rstrip("/") + "/auth/oauth2/token"
        self.form = {"grant_type": "password", "username": username, "password": password,
                     "client_id": client_id, "client_secret": client_secret, "scope": "user"}
        self.session = session
        self.timeout_s = timeout_s
        self._token = ""
        self._expires = 0.0

    def token(self, refresh: bool = False) -> str:
        if self._token and not refresh and time.time() < self._expires - 60:
            return self._token
        try:
            response = self.session.post(self.url, data=self.form, timeout=self.timeout_s)
        except requests.RequestException as exc:
            raise SourceUnavailableError(
                f"iManage sign-in at {self.url.rsplit('/auth/', 1)[0]} cannot be reached "
                f"({type(exc).__name__}); check PRECEDENT_IMANAGE_URL and the network; the live "
                f"index keeps serving.") from None
        if response.status_code != 200:
            raise SourceUnavailableError(
                f"iManage refused the service account's sign-in ({response.status_code}); check "
                f"PRECEDENT_IMANAGE_USERNAME, its password and the application's client id and "
                f"secret (docs/deployment.md).")
        body = response.json()
        self._token = str(body["access_token"])
        self._expires = time.time() + float(body.get("expires_in", 1800))
        return self._token


class IManageSource:
    """``imanage:<workspace id>[,<workspace id>...]`` in one library."""

    def __init__(self, spec: str, client: ApiClient, url: str, customer_id: str = "",
                 library: str = "", page_size: int | None = None, full_every: int = 1) -> None:
        self.workspaces = [w.strip() for w in spec.split(",") if w.strip()]
        if not library:
            raise ConfigError("PRECEDENT_IMANAGE_LIBRARY is not set: name the library (database) "
                              "the workspaces are in, e.g. ACTIVE.")
        self.name = f"imanage:{library}:{','.join(self.workspaces)}"
        self.client = client
        self.url = url.rstrip("/")
        self.customer_id = customer_id
        self.library = library
        self.page_size = page_size or PAGE
        self.full_every = full_every

    def _api(self) -> str:
        if not self.customer_id:
            self.customer_id = str(self.client.get_json(f"{self.url}/api")["data"]["user"]["customer_id"])
        return (f"{self.url}/work/api/v2/customers/{quote(self.customer_id)}/libraries/"
                f"{quote(self.library)}")

    # --- listing ----------------------------------------------------------------------
    def changes(self, cursor: str | None) -> Iterator[ChangePage]:
        """Documents edited since the cursor's time (or all, in a full round), page by page;
        an unfinished round (a crash) is resumed from its workspace and offset."""
        api = self._api()
        state = json.loads(cursor) if cursor else {}
        spaces = {ws: self._workspace(api, ws) for ws in self.workspaces}
        digests = {ws: info["digest"] for ws, info in spaces.items()}
        syncs = int(state.get("syncs", 0))
        round_ = state.get("round")
        if round_ is None:
            full = not state or syncs % self.full_every == 0 or digests != state.get("ws")
            round_ = {"full": full, "since": "" if full else state.get("since", ""),
                      "ws_pos": 0, "offset": 0, "newest": state.get("since", "")}
        for position, ws in enumerate(self.workspaces):
            if position < round_["ws_pos"]:
                continue  # listed before a crash in this round
            offset = round_["offset"] if position == round_["ws_pos"] else 0
            while True:
                params = {"workspace_id": ws, "latest": "true", "limit": str(self.page_size),
                          "offset": str(offset)}
                if round_["since"]:
                    params["edit_date_from"] = round_["since"]
                docs = self.client.get_json(f"{api}/documents", params=params).get("data", [])
                offset += len(docs)
                round_["newest"] = max([round_["newest"]] + [str(d.get("edit_date", "")) for d in docs])
                more = len(docs) == self.page_size
                last = not more and position == len(self.workspaces) - 1
                if last:
                    after: dict[str, Any] = {"since": round_["newest"] or round_["since"],
                                             "ws": digests, "syncs": syncs + 1}
                else:
                    round_.update(ws_pos=position if more else position + 1,
                                  offset=offset if more else 0)
                    after = {**state, "round": round_}
                yield ChangePage([self._item(api, d, spaces[ws]) for d in docs], [],
                                 json.dumps(after), final=last, full=round_["full"])
                if not more:
                    break

    def _workspace(self, api: str, ws: str) -> dict[str, Any]:
        info = self.client.get_json(f"{api}/workspaces/{quote(ws)}").get("data", {})
        security = self.client.get_json(f"{api}/workspaces/{quote(ws)}/security").get("data", {})
        allowed, denied = _access(security.get("default_security", info.get("default_security", "")),
                                  security.get("acl", []), None)
        digest = hashlib.sha256(json.dumps([allowed, denied]).encode()).hexdigest()[:16]
        return {"name": str(info.get("name") or ws), "access": (allowed, denied), "digest": digest}

    def _item(self, api: str, doc: dict[str, Any], space: dict[str, Any]) -> SourceItem:
        doc_id = str(doc["id"])
        security = doc.get("default_security", "inherit")
        acl: list[dict[str, Any]] = []
        if security == "private":  # its own ACL: one call, for private documents only
            acl = self.client.get_json(f"{api}/documents/{quote(doc_id)}/security"
                                       ).get("data", {}).get("acl", [])
        allowed, denied = _access(security, acl, space["access"])
        ext = str(doc.get("extension") or "").lower().lstrip(".")
        name = f"{doc.get('name') or doc_id} ({doc.get('document_number', doc_id)})"
        return SourceItem(
            item_id=doc_id.split(".")[0] if "!" in doc_id else doc_id,  # number, not version
            path=f"{space['name']}/{name}.{ext}" if ext else f"{space['name']}/{name}",
            version=f"{doc.get('version', '')}:{doc.get('edit_date', '')}:{doc.get('size', '')}",
            size=int(doc.get("size") or 0), allowed=allowed, denied=denied,
            web_url=f"{self.url}/work/link/d/{quote(doc_id)}", extra={"id": doc_id})

    # --- content ------------------------------------------------------------------------
    def fetch(self, item: SourceItem, dest: Path) -> None:
        self.client.download(f"{self._api()}/documents/{quote(item.extra['id'])}/download", dest)


def _access(default: str, acl: list[dict[str, Any]], inherited: tuple[Any, Any] | None
            ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(allowed, denied) groups from iManage default security and an ACL."""
    if default == "inherit" and inherited is not None:
        return tuple(inherited[0]), tuple(inherited[1])
    names = {str(e.get("id", "")): ("user:" if e.get("type") == "user" else "") for e in acl}
    denied = tuple(sorted(f"{names[str(e.get('id'))]}{e.get('id')}" for e in acl
                          if e.get("access_level") == "no_access"))
    if default in ("public", "view"):
        return (EVERYONE,), denied
    allowed = tuple(sorted(f"{names[str(e.get('id'))]}{e.get('id')}" for e in acl
                           if e.get("access_level") != "no_access"))
    return allowed, denied
