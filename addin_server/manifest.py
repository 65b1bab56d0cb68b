"""Render the Word add-in's XML manifest for the server that hosts the task pane.

Firm IT uploads the rendered manifest in the Microsoft 365 admin center; a developer
sideloads office_manifest/manifest.xml (rendered for https://localhost:8443).

Identity and version, the two things Office tracks an add-in by:
- The id is configuration, not a function of the address: PRECEDENT_ADDIN_ID (or --id), set
  once per deployment. Moving the server to a new host name keeps the add-in; a new id would
  be a second add-in for every user. With no id configured the manifest is refused, with a
  fresh GUID to paste into the configuration, rather than inventing one per run.
- The version is the release's: the installed package version (pyproject.toml) padded to the
  four parts Office wants ("0.2.1" -> "0.2.1.0"), so every release raises it without anyone
  editing the manifest. --version overrides it for a manifest-only change.

Where the template comes from: always the packaged copy, addin_server/assets/
manifest.template.xml, read through importlib.resources. In a checkout that resolves to the
file in the source tree, and in an installed wheel to the file inside the package, so one
code path serves both and nothing depends on the current directory. The human-facing
template is office_manifest/manifest.template.xml; tests/addin/test_manifest.py fails if
the two copies differ, which is simpler and harder to get wrong than looking in the repo
first and falling back to the package (two paths, one of them untested once installed).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import uuid
from importlib import metadata, resources
from pathlib import Path
from string import Template
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from index_builder.errors import ConfigError

log = logging.getLogger(__name__)

TEMPLATE_PACKAGE = "addin_server"
DISTRIBUTION = "precedent"  # the name in pyproject.toml, whose version is the release
TEMPLATE_RESOURCE = "assets/manifest.template.xml"
TEMPLATE_VARIABLES = frozenset({"addin_id", "version", "provider", "display_name", "description", "base_url"})

DEFAULT_DISPLAY_NAME = "Precedent"
DEFAULT_PROVIDER = "Precedent"
DEFAULT_DESCRIPTION = "Find precedent clauses for the selected text and redraft it with citations to your firm's precedents."

# The readme comment at the top of the template is for people editing the template; the
# rendered manifest gets a short note instead.
_README_COMMENT = re.compile(r"<!--\s*TEMPLATE-README.*?-->\n?", re.DOTALL)
_VERSION = re.compile(r"[0-9]{1,5}(\.[0-9]{1,5}){0,3}")
_VERSION_IN = re.compile(r"<Version>([^<]+)</Version>")
_LOOPBACK_NAMES = {"localhost"}
# The manifest's ShortString/LongString limits (OfficeAppManifestV1_1.xsd), less room for
# the text the template adds around display_name ("<name> is ready").
_MAX_DISPLAY_NAME = 100
_MAX_PROVIDER = 125
_MAX_DESCRIPTION = 250


def load_template() -> str:
    """Return the manifest template text (the packaged copy; see the module docstring)."""
    try:
        resource = resources.files(TEMPLATE_PACKAGE).joinpath(TEMPLATE_RESOURCE)
    except (NotADirectoryError, TypeError):
        # addin_server without an __init__.py is a namespace package, and with setuptools'
        # editable install its path holds a non-directory hook that importlib.resources
        # rejects (Python 3.11). The file beside this module is the same resource.
        resource = Path(__file__).resolve().parent.joinpath(TEMPLATE_RESOURCE)
    try:
        return resource.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(
            f"The add-in manifest template is missing from the installed package ({TEMPLATE_PACKAGE}/"
            f"{TEMPLATE_RESOURCE}). Reinstall the package, or copy office_manifest/manifest.template.xml there."
        ) from exc


def normalise_base_url(base_url: str) -> str:
    """Check ``base_url`` is an https origin (or http://localhost) and return it without a trailing slash.

    Office loads add-in pages only over HTTPS; plain http is accepted for localhost so a
    developer can run the server without a certificate for browser testing.
    """
    if not isinstance(base_url, str) or not base_url.strip():
        raise ConfigError("The add-in base URL is empty. Give the https address that serves the task pane, e.g. https://precedent.example.com.")
    raw = base_url.strip()
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    try:
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        raise ConfigError(f"The add-in base URL {raw!r} has an invalid port.") from exc
    if scheme not in ("https", "http") or not host:
        raise ConfigError(f"The add-in base URL {raw!r} is not a web address. Use https://host[:port][/path].")
    if scheme == "http" and not _is_loopback(host):
        raise ConfigError(
            f"The add-in base URL {raw!r} uses http. Office loads add-ins only over https: use https://{parts.netloc}{parts.path} "
            "(http is allowed only for http://localhost during development)."
        )
    if parts.username or parts.password:
        raise ConfigError(f"The add-in base URL {raw!r} contains a user name or password; remove them.")
    if parts.query or parts.fragment:
        raise ConfigError(f"The add-in base URL {raw!r} has a query or fragment; give only scheme, host, port and path.")
    netloc = host if ":" not in host else f"[{host}]"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}"


def _is_loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def release_version() -> str:
    """The manifest version for this release: the package version in four numeric parts.

    "0.2.1" -> "0.2.1.0"; pre-release, dev and local parts ("1.0.0rc1", ".dev3", "+g1234")
    are dropped, since Office accepts only numbers.
    """
    try:
        raw = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError as exc:
        raise ConfigError(f"The {DISTRIBUTION} package is not installed, so the release version is unknown. "
                          "Install it (pip install -e .) or pass --version.") from exc
    release = re.match(r"\d+(?:\.\d+)*", raw.strip())  # PEP 440 release segment, e.g. 1.2 of 1.2rc1
    if not release:
        raise ConfigError(f"The package version {raw!r} does not start with numbers; pass --version.")
    numbers = [str(int(n)) for n in release.group(0).split(".")][:4]
    return ".".join(numbers + ["0"] * (4 - len(numbers)))


def check_addin_id(addin_id: str | None) -> str:
    """The configured add-in GUID, normalised; ConfigError naming the fix when absent or malformed."""
    if not addin_id or not str(addin_id).strip():
        raise ConfigError(
            "No add-in id is configured. Office knows the add-in by this GUID, so it must stay the same for "
            "the life of the deployment (a new id is a new add-in for every user). Set it once in the "
            f"server's configuration, e.g. PRECEDENT_ADDIN_ID={uuid.uuid4()}, or pass --id."
        )
    try:
        return str(uuid.UUID(str(addin_id).strip()))
    except ValueError as exc:
        raise ConfigError(f"The add-in id {addin_id!r} (PRECEDENT_ADDIN_ID or --id) is not a GUID "
                          f"(e.g. {uuid.uuid4()}).") from exc


def _checked_text(value: str, what: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"The add-in {what} is empty.")
    value = value.strip()
    if len(value) > limit:
        raise ConfigError(f"The add-in {what} is {len(value)} characters long; the manifest allows at most {limit}.")
    return value


def render_manifest(
    base_url: str,
    addin_id: str,
    display_name: str = DEFAULT_DISPLAY_NAME,
    provider: str = DEFAULT_PROVIDER,
    *,
    version: str | None = None,
    description: str = DEFAULT_DESCRIPTION,
) -> str:
    """Return the manifest XML with every URL under ``base_url``.

    ``addin_id`` is the deployment's GUID (see the module docstring); ``version`` defaults to
    :func:`release_version`. Raises ConfigError for a non-https base URL (other than
    http://localhost), a missing or malformed id or version, or texts longer than the manifest allows.
    """
    base = normalise_base_url(base_url)
    addin_id = check_addin_id(addin_id)
    if version is None:
        version = release_version()
    if not isinstance(version, str) or not _VERSION.fullmatch(version):
        raise ConfigError(f"The add-in version {version!r} must be one to four numbers separated by dots, e.g. 1.0.0.0.")
    values = {
        "addin_id": addin_id,
        "version": version,
        "provider": _checked_text(provider, "provider name", _MAX_PROVIDER),
        "display_name": _checked_text(display_name, "display name", _MAX_DISPLAY_NAME),
        "description": _checked_text(description, "description", _MAX_DESCRIPTION),
        "base_url": base,
    }
    template = _README_COMMENT.sub(
        "<!-- Rendered by addin_server/manifest.py from office_manifest/manifest.template.xml; edit the template, not this file. -->\n",
        load_template(),
        count=1,
    )
    _check_variables(template)
    # Values land in element text or double-quoted attributes, so escape " as well as <>&.
    escaped = {key: escape(value, {'"': "&quot;"}) for key, value in values.items()}
    return Template(template).substitute(escaped)


def _check_variables(template: str) -> None:
    """Fail loudly if the template and this module disagree about the placeholders."""
    found = set()
    for match in Template.pattern.finditer(template):
        name = match.group("named") or match.group("braced")
        if name:
            found.add(name)
        elif match.group("invalid") is not None:
            raise ConfigError(f"The manifest template has a stray '$' at offset {match.start()}; write '$$' for a literal dollar sign.")
    if found != TEMPLATE_VARIABLES:
        unknown = ", ".join(sorted(found - TEMPLATE_VARIABLES)) or "none"
        unused = ", ".join(sorted(TEMPLATE_VARIABLES - found)) or "none"
        raise ConfigError(f"The manifest template's placeholders do not match: unknown {unknown}; missing {unused}.")


def write_manifest(path: Path, base_url: str, addin_id: str | None = None, **kwargs: str | None) -> Path:
    """Render the manifest for ``base_url`` (see :func:`render_manifest`) into ``path``.

    Without ``addin_id`` the configured one is used (PRECEDENT_ADDIN_ID, read through the
    settings object).
    """
    if not addin_id:
        from index_builder.settings import load_settings

        addin_id = load_settings().server.addin_id
    path = Path(path)
    text = render_manifest(base_url, addin_id, **kwargs)
    log.info("Manifest %s: add-in id %s, version %s", path, check_addin_id(addin_id), _VERSION_IN.search(text).group(1))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
