"""The Word add-in manifest: rendering, what it declares, and Microsoft's validator."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from addin_server import manifest as manifest_module
from addin_server.manifest import check_addin_id, release_version, render_manifest, write_manifest
from index_builder.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
FIRM_URL = "https://precedent.example-firm.com"
FIRM_ID = "6f1d3a52-8a4e-4c7b-9d0e-2b5f7c1e9a34"
NS = {
    "o": "http://schemas.microsoft.com/office/appforoffice/1.1",
    "ov": "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
    "bt": "http://schemas.microsoft.com/office/officeappbasictypes/1.0",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
}
XSI_TYPE = f"{{{NS['xsi']}}}type"
VALIDATOR = REPO / "node_modules" / ".bin" / "office-addin-manifest"


def parse(xml: str) -> ET.Element:
    return ET.fromstring(xml.encode("utf-8"))


@pytest.fixture(scope="module")
def firm() -> ET.Element:
    return parse(render_manifest(FIRM_URL, FIRM_ID))


def all_urls(root: ET.Element) -> list[str]:
    """Every URL the manifest hands to Office."""
    urls = [
        root.find(f"o:{name}", NS).get("DefaultValue")
        for name in ("IconUrl", "HighResolutionIconUrl", "SupportUrl")
    ]
    urls.append(root.find("o:DefaultSettings/o:SourceLocation", NS).get("DefaultValue"))
    resources = root.find("ov:VersionOverrides/ov:Resources", NS)
    urls += [e.get("DefaultValue") for e in resources.findall("bt:Images/bt:Image", NS)]
    urls += [e.get("DefaultValue") for e in resources.findall("bt:Urls/bt:Url", NS)]
    return urls


def test_identity_and_basic_settings(firm: ET.Element) -> None:
    assert firm.get(XSI_TYPE) == "TaskPaneApp"
    assert firm.findtext("o:Id", namespaces=NS) == FIRM_ID
    assert firm.findtext("o:Version", namespaces=NS) == release_version()
    assert firm.findtext("o:ProviderName", namespaces=NS) == "Precedent"
    assert firm.find("o:DisplayName", NS).get("DefaultValue") == "Precedent"
    assert [h.get("Name") for h in firm.findall("o:Hosts/o:Host", NS)] == ["Document"]
    assert firm.findtext("o:Permissions", namespaces=NS) == "ReadWriteDocument"


def test_requires_word_api_1_4(firm: ET.Element) -> None:
    sets = firm.findall("o:Requirements/o:Sets/o:Set", NS)
    assert [(s.get("Name"), s.get("MinVersion")) for s in sets] == [("WordApi", "1.4")]


def test_every_url_is_https_under_the_base_url(firm: ET.Element) -> None:
    urls = all_urls(firm)
    assert len(urls) >= 8
    for url in urls:
        assert url.startswith(FIRM_URL + "/"), url
    assert firm.find("o:DefaultSettings/o:SourceLocation", NS).get("DefaultValue") == f"{FIRM_URL}/taskpane/taskpane.html"


def test_every_url_names_a_file_the_server_serves(firm: ET.Element) -> None:
    # Flask serves addin_server/static/ at /, so each URL's path must be a file there.
    static = REPO / "addin_server" / "static"
    for url in all_urls(firm):
        path = urlsplit(url).path.lstrip("/")
        assert (static / path).is_file(), f"{url} -> addin_server/static/{path} is missing"


def test_ribbon_button_and_context_menu_open_the_pane(firm: ET.Element) -> None:
    host = firm.find("ov:VersionOverrides/ov:Hosts/ov:Host", NS)
    assert host.get(XSI_TYPE) == "Document"
    points = {p.get(XSI_TYPE): p for p in host.findall("ov:DesktopFormFactor/ov:ExtensionPoint", NS)}
    assert set(points) == {"PrimaryCommandSurface", "ContextMenu"}

    tab = points["PrimaryCommandSurface"].find("ov:OfficeTab", NS)
    assert tab.get("id") == "TabHome"
    menu = points["ContextMenu"].find("ov:OfficeMenu", NS)
    assert menu.get("id") == "ContextMenuText"

    strings = {e.get("id"): e.get("DefaultValue") for e in firm.iterfind(".//bt:ShortStrings/bt:String", NS)}
    for control in (tab.find("ov:Group/ov:Control", NS), menu.find("ov:Control", NS)):
        assert control.get(XSI_TYPE) == "Button"
        assert strings[control.find("ov:Label", NS).get("resid")] == "Find precedent"
        action = control.find("ov:Action", NS)
        assert action.get(XSI_TYPE) == "ShowTaskpane"
        assert action.find("ov:SourceLocation", NS).get("resid") == "Taskpane.Url"
    # Both open the same pane rather than two copies of it.
    ids = {c.findtext("ov:Action/ov:TaskpaneId", namespaces=NS) for c in firm.iterfind(".//ov:Control", NS)}
    assert ids == {"Precedent.Taskpane"}


def test_every_resid_resolves_and_strings_fit(firm: ET.Element) -> None:
    resources = firm.find("ov:VersionOverrides/ov:Resources", NS)
    kinds = {
        "bt:Images/bt:Image": 2048,
        "bt:Urls/bt:Url": 2048,
        "bt:ShortStrings/bt:String": 125,
        "bt:LongStrings/bt:String": 250,
    }
    defined: dict[str, str] = {}
    for path, limit in kinds.items():
        for element in resources.findall(path, NS):
            rid = element.get("id")
            assert rid not in defined, f"resource id {rid} defined twice"
            assert 1 <= len(rid) <= 32, f"resource id {rid!r} longer than the 32 characters Office allows"
            assert 1 <= len(element.get("DefaultValue")) <= limit, rid
            defined[rid] = path
    used = {e.get("resid") for e in firm.iter() if e.get("resid")}
    assert used - set(defined) == set(), "resid without a resource"
    assert set(defined) - used == set(), "resource never used"


def _pyproject_version() -> str:
    return re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(encoding="utf-8"), re.M).group(1)


def test_the_id_is_configuration_not_the_address() -> None:
    ids = {parse(render_manifest(url, FIRM_ID)).findtext("o:Id", namespaces=NS)
           for url in (FIRM_URL, "https://precedent2.example-firm.com:8443", "https://intranet.example-firm.com/precedent")}
    assert ids == {FIRM_ID}, "moving the server keeps the add-in"


@pytest.mark.parametrize("missing", [None, "", "  "])
def test_no_configured_id_is_refused_with_a_fresh_guid_to_paste(missing: str | None) -> None:
    with pytest.raises(ConfigError) as excinfo:
        render_manifest(FIRM_URL, missing)
    message = excinfo.value.message
    suggested = re.search(r"PRECEDENT_ADDIN_ID=([0-9a-f-]{36})", message)
    assert suggested and uuid.UUID(suggested.group(1)).version == 4
    assert "--id" in message and "new add-in for every user" in message


def test_the_configured_id_comes_through_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRECEDENT_ADDIN_ID", FIRM_ID.upper())
    out = write_manifest(tmp_path / "m.xml", FIRM_URL)
    assert parse(out.read_text(encoding="utf-8")).findtext("o:Id", namespaces=NS) == FIRM_ID
    assert check_addin_id(f" {FIRM_ID} ") == FIRM_ID


def test_the_version_is_the_release_version() -> None:
    # pyproject.toml's version is the release; the manifest and package.json follow it.
    assert release_version() == ".".join((_pyproject_version().split(".") + ["0"] * 4)[:4])
    package = json.loads((REPO / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == _pyproject_version(), "raise package.json's version with pyproject.toml's"


@pytest.mark.parametrize("raw, expected", [("0.2.1", "0.2.1.0"), ("1.0.0rc1", "1.0.0.0"), ("2.3.dev4", "2.3.0.0"),
                                            ("1.2.3.4.5", "1.2.3.4"), ("3+local.7", "3.0.0.0")])
def test_release_versions_become_four_numbers(raw: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(manifest_module.metadata, "version", lambda name: raw)
    assert release_version() == expected


def test_explicit_id_name_provider_and_version() -> None:
    given = "05C2E1C9-3E1D-406E-9A91-E9AC64854143"
    root = parse(render_manifest(FIRM_URL, addin_id=given, display_name="Precedent (Smith & Jones)", provider='Smith & "Jones" LLP', version="2.1.0.0"))
    assert root.findtext("o:Id", namespaces=NS) == given.lower()
    assert root.find("o:DisplayName", NS).get("DefaultValue") == "Precedent (Smith & Jones)"
    assert root.findtext("o:ProviderName", namespaces=NS) == 'Smith & "Jones" LLP'
    assert root.findtext("o:Version", namespaces=NS) == "2.1.0.0"


def test_base_url_with_a_path_prefix() -> None:
    root = parse(render_manifest("https://intranet.example.com/precedent/", FIRM_ID))
    assert root.find("o:DefaultSettings/o:SourceLocation", NS).get("DefaultValue") == "https://intranet.example.com/precedent/taskpane/taskpane.html"


@pytest.mark.parametrize(
    "url",
    [
        "http://precedent.example-firm.com",
        "http://10.0.0.5:8080",
        "ftp://precedent.example-firm.com",
        "precedent.example-firm.com",
        "",
        "https://precedent.example-firm.com/?next=/",
        "https://user:secret@precedent.example-firm.com",
    ],
)
def test_non_https_and_odd_urls_are_rejected(url: str) -> None:
    with pytest.raises(ConfigError) as excinfo:
        render_manifest(url, FIRM_ID)
    assert "base URL" in excinfo.value.message


def test_http_is_refused_with_the_fix_in_the_message() -> None:
    with pytest.raises(ConfigError, match=r"only over https: use https://precedent\.example-firm\.com"):
        render_manifest("http://precedent.example-firm.com", FIRM_ID)


@pytest.mark.parametrize("url", ["http://localhost:5000", "http://127.0.0.1:8000/", "https://localhost:8443"])
def test_localhost_is_allowed_for_development(url: str) -> None:
    assert urlsplit(all_urls(parse(render_manifest(url, FIRM_ID)))[0]).hostname in ("localhost", "127.0.0.1")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"addin_id": "not-a-guid"}, "not a GUID"),
        ({"version": "1.0-beta"}, "version"),
        ({"display_name": ""}, "display name is empty"),
        ({"display_name": "x" * 101}, "at most 100"),
        ({"provider": "p" * 126}, "at most 125"),
    ],
)
def test_bad_values_are_config_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        render_manifest(FIRM_URL, **{"addin_id": FIRM_ID, **kwargs})


def test_template_placeholders_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    good = manifest_module.load_template()
    monkeypatch.setattr(manifest_module, "load_template", lambda: good.replace("${provider}", "${provider_name}"))
    with pytest.raises(ConfigError, match="unknown provider_name; missing provider"):
        render_manifest(FIRM_URL, FIRM_ID)


def test_write_manifest(tmp_path: Path) -> None:
    out = write_manifest(tmp_path / "deploy" / "manifest.xml", FIRM_URL, addin_id=FIRM_ID)
    assert out == tmp_path / "deploy" / "manifest.xml"
    assert out.read_text(encoding="utf-8") == render_manifest(FIRM_URL, FIRM_ID)


def test_cli_writes_a_manifest_and_reports_bad_urls(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from addin_server.cli import main

    monkeypatch.setenv("PRECEDENT_ADDIN_ID", FIRM_ID)
    out = tmp_path / "m.xml"
    assert main(["manifest", "--url", FIRM_URL, "--out", str(out), "--version", "1.2.0.0",
                 "--display-name", "Firm Precedent"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "<Version>1.2.0.0</Version>" in text and 'DefaultValue="Firm Precedent"' in text
    assert f"<Id>{FIRM_ID}</Id>" in text
    assert main(["manifest", "--url", "http://example.com", "--out", str(tmp_path / "n.xml")]) == 2
    assert "https" in caplog.text


def test_packaged_template_is_the_same_file_as_the_human_facing_one() -> None:
    human = (REPO / "office_manifest" / "manifest.template.xml").read_bytes()
    packaged = (REPO / "addin_server" / "assets" / "manifest.template.xml").read_bytes()
    assert packaged == human, "copy office_manifest/manifest.template.xml to addin_server/assets/manifest.template.xml"


def test_the_sideload_example_is_up_to_date() -> None:
    example = (REPO / "office_manifest" / "manifest.xml").read_text(encoding="utf-8")
    example_id = parse(example).findtext("o:Id", namespaces=NS)
    assert example == render_manifest("https://localhost:8443", example_id), (
        f"regenerate it: addin-server manifest --id {example_id} --url https://localhost:8443 --out office_manifest/manifest.xml"
    )


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("size", [16, 32, 64, 80, 128])
def test_icons_are_real_pngs_and_the_served_copies_match(size: int) -> None:
    human = (REPO / "office_manifest" / "assets" / f"icon-{size}.png").read_bytes()
    served = (REPO / "addin_server" / "static" / "taskpane" / "assets" / f"icon-{size}.png").read_bytes()
    assert png_size(human) == (size, size)
    assert served == human, "rerun python office_manifest/make_icons.py"


def test_microsoft_validator_accepts_the_rendered_manifest(tmp_path: Path) -> None:
    if not VALIDATOR.exists() or shutil.which("node") is None:
        pytest.skip("office-addin-manifest is not installed: run `npm install` at the repo root")
    path = write_manifest(tmp_path / "manifest.xml", FIRM_URL, addin_id=FIRM_ID)
    proc = subprocess.run(
        [str(VALIDATOR), "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    output = proc.stdout + proc.stderr
    if "Unable to contact the manifest validation service" in output:
        # The validator posts the manifest to a Microsoft web service; without network
        # access it cannot say anything about the manifest (the checks above still ran).
        pytest.skip("Microsoft's manifest validation service is unreachable from here (offline)")
    assert proc.returncode == 0, output
    assert "The manifest is valid" in output, output
