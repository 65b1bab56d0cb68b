"""One HTTP client for every DMS source: bearer token, Retry-After, paging, streaming.

The real service and the loopback emulations in the tests go through this same code; only
the base URL differs. What it does, as Microsoft's and iManage's guidance asks:

* 429 and 503 (and 502/504): wait what ``Retry-After`` says (seconds or an HTTP date),
  else back off exponentially, up to ``max_attempts``; then ``SourceUnavailableError``
  naming the service, so the build stops with the live index unchanged and the next sync
  resumes from its saved cursor.
* 401: the token is dropped and fetched again once (expired or revoked), then the request
  is repeated; a second 401 means the app registration is wrong, which the message says.
* Downloads are streamed to disk in 1 MiB blocks, never held in memory. A download's
  redirect (Graph's 302 to a pre-authenticated URL) is followed here, without the token:
  the bearer token goes only to the API URL asked for, never to where it redirects, on
  any host (``requests`` drops it only when the host changes).

Tokens, secrets and document bytes never reach the log: only methods, URL paths, statuses.
"""

from __future__ import annotations

import email.utils
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol
from urllib.parse import urljoin, urlsplit

import requests
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from index_builder.errors import DocumentError, SourceUnavailableError

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 502, 503, 504})
BLOCK = 1 << 20
MAX_REDIRECTS = 5


class TokenProvider(Protocol):
    """Where a client's access token comes from (MSAL for Graph, OAuth for iManage)."""

    def token(self, refresh: bool = False) -> str:
        ...


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 8
    max_wait_s: float = 300.0  # longest single wait a Retry-After may ask for
    backoff_s: float = 1.0  # first wait when the service gives no Retry-After


class CursorExpired(Exception):
    """The service no longer knows the saved cursor (Graph: 410 resyncRequired): list all again."""


class _Throttled(Exception):
    def __init__(self, response: requests.Response) -> None:
        super().__init__(response.status_code)
        self.response = response


class ApiClient:
    """Authenticated JSON and download calls to one service, retried as its guidance says."""

    def __init__(self, service: str, tokens: TokenProvider, session: requests.Session,
                 retry: RetryPolicy = RetryPolicy(), auth_header: str = "Authorization",
                 timeout_s: float = 60.0, sleep: Callable[[float], None] = time.sleep) -> None:
        self.service = service  # "Microsoft Graph", "iManage Work": for messages
        self.tokens = tokens
        self.session = session
        self.retry = retry
        self.auth_header = auth_header
        self.timeout_s = timeout_s
        self.sleep = sleep
        self.waits: list[float] = []  # every wait taken, for the sync report

    def get_json(self, url: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.request("GET", url, params=params)
        try:
            return response.json()
        except ValueError:
            raise SourceUnavailableError(f"{self.service} answered {_where(url)} with something "
                                         f"that is not JSON; check the service URL.") from None

    def download(self, url: str, dest: Path) -> int:
        """Stream ``url`` into ``dest``; the bytes written. Redirects are followed without the
        token (a pre-authenticated URL needs none, and must never receive it)."""
        response = self.request("GET", url, stream=True, gone_is_document_error=True,
                                allow_redirects=False)
        for _ in range(MAX_REDIRECTS + 1):
            if response.status_code not in (301, 302, 303, 307, 308):
                break
            target = urljoin(url, response.headers.get("Location", ""))
            response.close()
            if urlsplit(target).scheme != "https" and urlsplit(url).scheme == "https":
                raise SourceUnavailableError(f"{self.service} redirected the download of "
                                             f"{_where(url)} to a plain-http address; refused.")
            url = target
            response = self._fetch(url)
        else:
            response.close()
            raise SourceUnavailableError(f"{self.service}: the download of {_where(url)} "
                                         f"redirected more than {MAX_REDIRECTS} times.")
        written = 0
        with response, open(dest, "wb") as out:
            for block in response.iter_content(BLOCK):
                out.write(block)
                written += len(block)
        expected = response.headers.get("Content-Length")
        if expected is not None and int(expected) != written:
            raise SourceUnavailableError(f"{self.service}: the download of {_where(url)} stopped "
                                         f"after {written} of {expected} bytes; sync again.")
        return written

    def _fetch(self, url: str) -> requests.Response:
        """GET a pre-authenticated URL (a download's redirect): no token, retried like any call."""
        def once() -> requests.Response:
            log.debug("GET %s (pre-authenticated, no token)", _where(url))
            response = self.session.get(url, stream=True, timeout=self.timeout_s,
                                        allow_redirects=False)
            if response.status_code in RETRY_STATUSES:
                response.close()
                raise _Throttled(response)
            if response.status_code in (404, 410):
                response.close()
                raise DocumentError(f"no longer in {self.service} (deleted or moved since it was "
                                    f"listed); the next sync follows it")
            if response.status_code >= 400 and response.status_code not in (301, 302, 303, 307, 308):
                response.close()
                raise SourceUnavailableError(f"{self.service}'s download address answered "
                                             f"{response.status_code}; sync again.")
            return response
        return self._retried(url, once)

    def request(self, method: str, url: str, gone_is_document_error: bool = False,
                accept: frozenset[int] = frozenset(), cursor: bool = False,
                **kwargs: Any) -> requests.Response:
        """One call, retried on throttling and outages, the token renewed once on 401.
        ``gone_is_document_error``: a 404 means the document went since it was listed;
        ``accept``: error statuses handed back to the caller instead of raised; ``cursor``:
        this call follows a saved change cursor, so 410 means it expired (``CursorExpired``)."""
        return self._retried(url, self._once, method, url, gone_is_document_error, accept,
                             cursor, **kwargs)

    def _retried(self, url: str, call: Callable[..., requests.Response], *args: Any,
                 **kwargs: Any) -> requests.Response:
        """``call`` retried on throttling and outages; errors named for ``url``'s service."""
        retrying = Retrying(
            retry=retry_if_exception_type((_Throttled, requests.ConnectionError, requests.Timeout)),
            stop=stop_after_attempt(self.retry.max_attempts), wait=self._wait,
            sleep=self._slept, reraise=True)
        try:
            return retrying(call, *args, **kwargs)
        except _Throttled as exc:
            status = exc.response.status_code
            raise SourceUnavailableError(
                f"{self.service} kept answering {status} ({'throttled' if status == 429 else 'unavailable'}) "
                f"after {self.retry.max_attempts} attempts; the live index is unchanged and the next "
                f"sync resumes where this one stopped. Sync less often or at night "
                f"(PRECEDENT_SOURCE_SYNC_EVERY_S).") from None
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise SourceUnavailableError(
                f"{self.service} at {_origin(url)} cannot be reached ({type(exc).__name__}); the live "
                f"index keeps serving. Check the service URL, the network and the proxy "
                f"(PRECEDENT_SOURCE_CA_BUNDLE for a TLS-inspecting proxy), then sync again.") from None

    def _once(self, method: str, url: str, gone_is_document_error: bool,
              accept: frozenset[int], cursor: bool, **kwargs: Any) -> requests.Response:
        response = self._send(method, url, False, **kwargs)
        if response.status_code == 401:
            response.close()
            log.info("%s: token refused (401) on %s; signing in again", self.service, _where(url))
            response = self._send(method, url, True, **kwargs)
            if response.status_code == 401:
                raise SourceUnavailableError(
                    f"{self.service} refuses this app's sign-in even with a fresh token (401): "
                    f"check the app registration's permissions and admin consent "
                    f"(docs/deployment.md).")
        if response.status_code == 410 and cursor:
            response.close()
            raise CursorExpired(f"{self.service} expired the saved sync cursor (410)")
        if response.status_code in accept:
            return response
        if response.status_code in RETRY_STATUSES:
            response.close()
            raise _Throttled(response)
        if response.status_code in (404, 410) and gone_is_document_error:
            response.close()  # skipped in this build; the next sync's listing removes it
            raise DocumentError(f"no longer in {self.service} (deleted or moved since it was "
                                f"listed); the next sync follows it")
        if response.status_code == 403:
            raise SourceUnavailableError(
                f"{self.service} denies this app access to {_where(url)} (403): grant the app "
                f"read access to that library (docs/deployment.md).")
        if response.status_code >= 400:
            raise SourceUnavailableError(
                f"{self.service} answered {response.status_code} to {method} {_where(url)}; check "
                f"the source setting (it names a library, site or workspace that may not exist).")
        return response

    def _send(self, method: str, url: str, refresh: bool, headers: dict[str, str] | None = None,
              **kwargs: Any) -> requests.Response:
        token = self.tokens.token(refresh=refresh)
        headers = {**(headers or {}),
                   self.auth_header: f"Bearer {token}" if self.auth_header == "Authorization" else token}
        log.debug("%s %s", method, _where(url))
        return self.session.request(method, url, headers=headers, timeout=self.timeout_s, **kwargs)

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        header = exc.response.headers.get("Retry-After") if isinstance(exc, _Throttled) else None
        asked = retry_after_seconds(header)
        wait = asked if asked is not None else self.retry.backoff_s * 2 ** (state.attempt_number - 1)
        return min(wait, self.retry.max_wait_s)

    def _slept(self, seconds: float) -> None:
        self.waits.append(seconds)
        log.info("%s throttled or unavailable; waiting %.1f s as asked", self.service, seconds)
        self.sleep(seconds)


def retry_after_seconds(header: str | None) -> float | None:
    """``Retry-After`` as seconds: a number, or an HTTP date (RFC 9110 allows both)."""
    if not header:
        return None
    text = header.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class _Session(requests.Session):
    """A session whose configured CA bundle wins over REQUESTS_CA_BUNDLE in the environment
    (requests lets the variable override ``session.verify``); proxies still come from it."""

    ca_bundle: str | None = None

    def merge_environment_settings(self, url: Any, proxies: Any, stream: Any, verify: Any,
                                   cert: Any) -> dict[str, Any]:
        merged = super().merge_environment_settings(url, proxies, stream, verify, cert)
        if self.ca_bundle is not None and verify in (None, True):
            merged["verify"] = self.ca_bundle
        return merged


def make_session(ca_bundle: Path | None) -> requests.Session:
    """A session that trusts the system CAs, or the firm's bundle (a TLS-inspecting proxy)."""
    session = _Session()
    if ca_bundle is not None:
        session.ca_bundle = session.verify = str(ca_bundle)
    return session


def _where(url: str) -> str:
    return urlsplit(url).path  # never the query: it can carry delta tokens


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
