"""Entra ID token validation against a local JWKS endpoint with locally signed tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization

from addin_server.web.auth import Authenticator, access_filters
from index_builder.errors import (ConfigError, ForbiddenError, SignInUnavailableError,
                                  UnauthorizedError)
from index_builder.index.backend import Condition
from index_builder.settings import load_settings

from security_helpers import APP_ID_URI, CLIENT_ID, OTHER_TENANT, TENANT, claims, entra_settings


def bearer(token: str) -> str:
    return f"Bearer {token}"


@pytest.fixture
def auth(jwks: Any) -> Authenticator:
    return Authenticator(entra_settings(jwks.url))


def refused(auth: Authenticator, token: str) -> str:
    with pytest.raises(UnauthorizedError) as caught:
        auth.authenticate(bearer(token))
    return caught.value.message


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_valid_token_gives_user_and_groups(auth: Authenticator, sign: Any, jwks: Any) -> None:
    who = auth.authenticate(bearer(sign(claims(roles=["Partners"]))))
    assert (who.user, who.kind, who.tenant) == ("alice@firm.example", "entra", TENANT)
    assert who.groups == ("acme-team", "all-lawyers", "partners") and who.groups_known
    auth.authenticate(bearer(sign(claims())))
    assert jwks.fetches == 1  # the key set is cached


def test_tenant_wide_grants_come_from_the_tid_and_acct_claims(auth: Authenticator, sign: Any,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """SharePoint's "Everyone" grants (issue 40): every user of the tenant gets tenant:<tid>;
    members (acct 0, no foreign idp) also members:<tid>; without acct no one is a member."""
    tenant = TENANT.casefold()
    member = auth.authenticate(bearer(sign(claims(acct=0))))
    guest = auth.authenticate(bearer(sign(claims(acct=1, idp="https://sts.windows.net/9188040d-6c67-4c5b-b112-36a304b66dad/"))))
    posing = auth.authenticate(bearer(sign(claims(acct=0, idp="live.com"))))  # a guest's home IdP
    with caplog.at_level(logging.WARNING):
        unknown = auth.authenticate(bearer(sign(claims())))
    assert member.tenant_groups == (f"tenant:{tenant}", f"members:{tenant}")
    assert guest.tenant_groups == posing.tenant_groups == unknown.tenant_groups == (f"tenant:{tenant}",)
    assert "optional claim 'acct'" in caplog.text
    assert member.groups == ("acme-team", "all-lawyers")  # the token's own groups, as before
    assert f"members:{tenant}" in access_filters(member, True)[0].values
    assert f"members:{tenant}" not in access_filters(guest, True)[0].values


def test_v1_token_for_the_app_id_uri_is_accepted(auth: Authenticator, sign: Any) -> None:
    token = sign(claims(iss=f"https://sts.windows.net/{TENANT}/", azp=None, appid=CLIENT_ID,
                        preferred_username=None, upn="bob@firm.example", ver="1.0"))
    assert auth.authenticate(bearer(token)).user == "bob@firm.example"


def test_v2_token_with_the_client_id_as_audience_is_accepted(auth: Authenticator, sign: Any) -> None:
    assert auth.authenticate(bearer(sign(claims(aud=CLIENT_ID)))).kind == "entra"


def test_expired_token_is_refused_beyond_the_leeway(auth: Authenticator, sign: Any) -> None:
    now = claims()["iat"] + 10
    assert "expired" in refused(auth, sign(claims(exp=now - 120)))
    assert auth.authenticate(bearer(sign(claims(exp=now - 20)))).kind == "entra"  # clock skew


def test_token_not_yet_valid_is_refused(auth: Authenticator, sign: Any) -> None:
    refused(auth, sign(claims(nbf=claims()["iat"] + 600)))


@pytest.mark.parametrize("name", ["exp", "nbf", "iat", "tid", "oid", "aud", "iss"])
def test_token_missing_a_required_claim_is_refused(auth: Authenticator, sign: Any, name: str) -> None:
    refused(auth, sign(claims(**{name: None})))


def test_wrong_audience_is_refused(auth: Authenticator, sign: Any) -> None:
    refused(auth, sign(claims(aud="api://some-other-api")))
    refused(auth, sign(claims(aud="https://graph.microsoft.com")))


def test_wrong_tenant_or_issuer_is_refused(auth: Authenticator, sign: Any) -> None:
    other = f"https://login.microsoftonline.com/{OTHER_TENANT}/v2.0"
    refused(auth, sign(claims(tid=OTHER_TENANT, iss=other)))  # a tenant not allow-listed
    refused(auth, sign(claims(iss=other)))  # issuer of another tenant than its tid
    refused(auth, sign(claims(iss="https://evil.example/" + TENANT + "/v2.0")))


def test_token_for_another_client_or_without_the_scope_is_refused(auth: Authenticator,
                                                                   sign: Any) -> None:
    refused(auth, sign(claims(azp="12345678-0000-0000-0000-000000000000")))
    assert "does not grant access" in refused(auth, sign(claims(scp="User.Read")))
    refused(auth, sign(claims(scp=None, roles=["access_as_user"])))  # an app-only token


def test_unknown_key_id_refreshes_once_then_fails(auth: Authenticator, sign: Any, jwks: Any) -> None:
    auth.authenticate(bearer(sign(claims())))
    assert jwks.fetches == 1
    auth.entra.keys.cooldown_duration = 0  # as if the cooldown had passed
    refused(auth, sign(claims(), kid="rogue"))
    assert jwks.fetches == 2  # refreshed on the unknown kid, still unknown: refused
    auth.entra.keys.cooldown_duration = 30
    refused(auth, sign(claims(), kid="rogue"))
    assert jwks.fetches == 2  # within the cooldown: no refetch storm from forged kids


def test_rotated_key_is_fetched_on_its_first_use(auth: Authenticator, sign: Any, jwks: Any) -> None:
    auth.authenticate(bearer(sign(claims())))
    jwks.published = ["k1", "k2"]  # Microsoft rolls its keys
    auth.entra.keys.cooldown_duration = 0
    assert auth.authenticate(bearer(sign(claims(), kid="k2"))).kind == "entra"
    assert jwks.fetches == 2


def test_alg_none_is_refused(auth: Authenticator, sign: Any) -> None:
    header = b64(json.dumps({"alg": "none", "kid": "k1", "typ": "JWT"}).encode())
    payload = b64(json.dumps(claims()).encode())
    refused(auth, f"{header}.{payload}.")
    good = sign(claims()).split(".")[2]
    refused(auth, f"{header}.{payload}.{good}")


def test_hs256_signed_with_the_public_key_is_refused(auth: Authenticator, rsa_keys: dict,
                                                     jwks: Any) -> None:
    public = rsa_keys["k1"].public_key()
    for encoding in (serialization.Encoding.PEM,):
        secret = public.public_bytes(encoding, serialization.PublicFormat.SubjectPublicKeyInfo)
        header = b64(json.dumps({"alg": "HS256", "kid": "k1", "typ": "JWT"}).encode())
        payload = b64(json.dumps(claims()).encode())
        signature = hmac.new(secret, f"{header}.{payload}".encode(), hashlib.sha256).digest()
        refused(auth, f"{header}.{payload}.{b64(signature)}")
    jwk_secret = json.dumps(jwks.jwk("k1")).encode()  # the JWK's JSON as the HMAC secret
    header = b64(json.dumps({"alg": "HS256", "kid": "k1"}).encode())
    payload = b64(json.dumps(claims()).encode())
    refused(auth, f"{header}.{payload}." + b64(hmac.new(jwk_secret, f"{header}.{payload}".encode(),
                                                        hashlib.sha256).digest()))


def test_tampered_payload_is_refused(auth: Authenticator, sign: Any) -> None:
    header, _, signature = sign(claims()).split(".")
    forged = b64(json.dumps(claims(groups=["acme-team", "beta-team", "partners"])).encode())
    refused(auth, f"{header}.{forged}.{signature}")
    refused(auth, f"{header}.{forged[:-2]}.{signature}")


def test_garbage_and_missing_headers_are_refused(auth: Authenticator) -> None:
    for header in ("", "Bearer", "Basic dXNlcjpwdw==", "Bearer not.a.token", "Bearer a.b"):
        with pytest.raises(UnauthorizedError):
            auth.authenticate(header)


def test_no_token_reaches_the_log(auth: Authenticator, sign: Any,
                                  caplog: pytest.LogCaptureFixture) -> None:
    token = sign(claims(aud="api://wrong"))
    with caplog.at_level(logging.DEBUG):
        refused(auth, token)
    assert "issued for another application" in caplog.text
    for part in token.split("."):
        assert part not in caplog.text


def test_group_overage_uses_the_directory_export(jwks: Any, sign: Any, tmp_path: Any) -> None:
    directory = tmp_path / "directory.csv"
    directory.write_text("user,groups\nALICE@firm.example,Acme-Team;Litigation\n")
    auth = Authenticator(entra_settings(jwks.url, **{"walls.directory_file": directory}))
    overage = claims(groups=None, _claim_names={"groups": "src1"},
                     _claim_sources={"src1": {"endpoint": "https://graph.microsoft.com/..."}})
    who = auth.authenticate(bearer(sign(overage)))
    assert who.groups == ("acme-team", "litigation") and who.groups_known
    stranger = auth.authenticate(bearer(sign(claims(**{**overage, "preferred_username": "eve@firm.example",
                                                       "oid": "0b0b0b0b-0000-4000-8000-00000000000e"}))))
    assert not stranger.groups_known
    with pytest.raises(ForbiddenError, match="directory export"):
        access_filters(stranger, walls_active=True)
    assert access_filters(stranger, walls_active=False) == ()


def test_access_filters_always_include_everyone(auth: Authenticator, sign: Any) -> None:
    who = auth.authenticate(bearer(sign(claims(groups=["Acme-Team"]))))
    allowed, denied = access_filters(who, walls_active=True)
    # tenant:<tid>: every user the tenant signs in, what SharePoint's "Everyone" grants become
    mine = ("*", "acme-team", f"tenant:{TENANT.casefold()}", f"user:{who.oid}")
    assert allowed == Condition("access_groups", mine)
    assert denied == Condition("denied_groups", mine, negate=True)


def test_service_accounts_by_hash_and_legacy_tokens(tmp_path: Any, jwks: Any, sign: Any) -> None:
    accounts = tmp_path / "accounts.json"
    secret = "dms-sync-0123456789abcdef"
    accounts.write_text(json.dumps([{"name": "dms-sync", "groups": ["Knowledge"],
                                     "token_sha256": hashlib.sha256(secret.encode()).hexdigest()}]))
    auth = Authenticator(entra_settings(jwks.url, **{"auth.service_accounts_file": accounts,
                                                     "server.api_tokens": ("legacy-token",)}))
    assert auth.mode == "entra"
    service = auth.authenticate(bearer(secret))
    assert (service.user, service.kind, service.groups) == ("dms-sync", "service", ("knowledge",))
    assert auth.authenticate(bearer("legacy-token")).user == "service-token-1"
    assert auth.authenticate(bearer(sign(claims()))).kind == "entra"
    with pytest.raises(UnauthorizedError):
        auth.authenticate(bearer("dms-sync-0123456789abcdeX"))


def test_service_account_file_errors_name_the_fix(tmp_path: Any) -> None:
    path = tmp_path / "accounts.json"
    path.write_text(json.dumps([{"name": "x", "token": "short"}]))
    with pytest.raises(ConfigError, match="at least 16 characters"):
        Authenticator(load_settings({}, {"auth.service_accounts_file": path}))


def test_modes_and_the_pane_config(jwks: Any) -> None:
    assert Authenticator(load_settings({}, {})).mode == "none"
    assert Authenticator(load_settings({}, {"server.api_tokens": ("t",)})).config_json() == {"mode": "tokens"}
    config = Authenticator(entra_settings(jwks.url)).config_json()
    assert config == {"mode": "entra", "entra": {
        "client_id": CLIENT_ID, "authority": f"https://login.microsoftonline.com/{TENANT}",
        "scopes": [f"{APP_ID_URI}/access_as_user"]}}


def test_entra_settings_must_be_complete() -> None:
    with pytest.raises(ConfigError, match="PRECEDENT_AUTH_CLIENT_ID"):
        load_settings({"PRECEDENT_AUTH_TENANT_IDS": TENANT})
    with pytest.raises(ConfigError, match="JWKS_URL"):
        load_settings({}, {"auth.tenant_ids": (TENANT,), "auth.client_id": CLIENT_ID,
                           "auth.app_id_uri": APP_ID_URI, "auth.jwks_url": "http://keys.example/x"})


def test_directory_export_as_json_is_reread_when_it_changes(jwks: Any, sign: Any, tmp_path: Any) -> None:
    directory = tmp_path / "directory.json"
    directory.write_text(json.dumps({"alice@firm.example": ["Acme-Team"]}))
    auth = Authenticator(entra_settings(jwks.url, **{"walls.directory_file": directory}))
    overage = claims(groups=None, hasgroups=True)
    assert auth.authenticate(bearer(sign(overage))).groups == ("acme-team",)
    directory.write_text(json.dumps({"alice@firm.example": ["Acme-Team", "acme-conflict"]}))
    assert auth.authenticate(bearer(sign(overage))).groups == ("acme-conflict", "acme-team")
    directory.write_text(json.dumps(["not", "a", "mapping"]))
    with pytest.raises(ConfigError, match="user@firm.com"):
        auth.authenticate(bearer(sign(overage)))


def test_an_id_token_is_not_an_access_token(auth: Authenticator, sign: Any) -> None:
    # An ID token for the add-in has the client id as audience, like a v2 access token for a
    # one-registration API, but carries no delegated scope: refused.
    refused(auth, sign(claims(aud=CLIENT_ID, scp=None, nonce="n-0S6_WzA2Mj", azp=None)))


def test_unreachable_signing_keys_answer_sign_in_unavailable(sign: Any) -> None:
    import socket

    with socket.socket() as probe:  # a loopback port with nothing listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    auth = Authenticator(entra_settings(f"http://127.0.0.1:{port}/keys"))
    with pytest.raises(SignInUnavailableError, match="cannot check sign-ins"):
        auth.authenticate(bearer(sign(claims())))


def test_a_dms_grant_to_one_person_reaches_that_person_only(auth: Authenticator, sign: Any) -> None:
    """SharePoint grants to a single user are stamped user:<object id> (index_builder/sources)."""
    who = auth.authenticate(bearer(sign(claims(groups=["Acme-Team"]))))
    allowed, denied = access_filters(who, walls_active=True)
    assert f"user:{who.oid}".casefold() in allowed.values and f"user:{who.oid}".casefold() in denied.values
    other = auth.authenticate(bearer(sign(claims(oid="0b0b0b0b-0000-4000-8000-00000000000e"))))
    assert f"user:{who.oid}".casefold() not in access_filters(other, walls_active=True)[0].values
