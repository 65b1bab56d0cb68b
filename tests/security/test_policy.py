"""Ethical-wall policy files: patterns, the most specific rule, ties, the default, formats."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from index_builder.errors import ConfigError
from index_builder.ingest.policy import Access, default_access, load_policy

RULES = [
    {"pattern": "Matters/", "allow": ["litigation"]},
    {"pattern": "Matters/Acme/", "allow": ["acme-team"], "deny": ["acme-conflict"]},
    {"pattern": "Matters/Acme/Board minutes.docx", "allow": ["partners"]},
    {"pattern": "Matters/*/Settlement*.docx", "allow": ["*"], "deny": ["trainees"]},
    {"pattern": "Forms/**/*.docx", "allow": ["*"]},
    {"pattern": "Archive/", "deny": ["*"]},
]


def write_policy(tmp_path: Path, rules: list, name: str = "walls.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"rules": rules}))
    return path


@pytest.fixture
def policy(tmp_path: Path):
    return load_policy(write_policy(tmp_path, RULES), "closed")


@pytest.mark.parametrize("path, allowed, denied", [
    ("Matters/Beta/spa.docx", ("litigation",), ()),
    ("Matters/Acme/spa.docx", ("acme-team",), ("acme-conflict",)),
    ("Matters/Acme/sub/deep/spa.docx", ("acme-team",), ("acme-conflict",)),
    ("matters/ACME/board MINUTES.docx", ("partners",), ()),  # exact file wins; any case
    ("Matters\\Acme\\Board minutes.docx", ("partners",), ()),  # Windows separators
    ("Matters/Beta/Settlement 2024.docx", ("*",), ("trainees",)),  # more literal than Matters/
    ("Forms/nda.docx", ("*",), ()),  # ** spans zero folders
    ("Forms/a/b/msa.docx", ("*",), ()),
    ("Archive/old.docx", (), ("*",)),
    ("Other/thing.docx", (), ()),  # no rule: the default (closed)
    ("Mattersxyz/spa.docx", (), ()),  # a folder rule is not a prefix match
])
def test_most_specific_rule_wins(policy, path: str, allowed: tuple, denied: tuple) -> None:
    access = policy.access(path)
    assert (access.allowed, access.denied) == (allowed, denied)


def test_visibility_semantics(policy) -> None:
    acme = policy.access("Matters/Acme/spa.docx")
    assert acme.visible_to(["ACME-team"]) and not acme.visible_to(["litigation"])
    assert not acme.visible_to(["acme-team", "acme-conflict"])  # denied beats allowed
    settlement = policy.access("Matters/Beta/Settlement.docx")
    assert settlement.visible_to([]) and not settlement.visible_to(["trainees"])
    assert not policy.access("Archive/x.docx").visible_to(["partners"])
    assert not policy.access("Other/x.docx").visible_to(["partners"])  # closed default
    assert acme.metadata() == {"access_groups": "acme-team", "denied_groups": "acme-conflict"}


def test_equally_specific_rules_combine_the_safe_way(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    policy = load_policy(write_policy(tmp_path, [
        {"pattern": "Matters/*/Acme*.docx", "allow": ["acme-team", "partners"], "deny": ["x"]},
        {"pattern": "Matters/Acme*/*.docx", "allow": ["partners", "litigation"], "deny": ["y"]},
    ]))
    with caplog.at_level(logging.WARNING):
        access = policy.access("Matters/Acme 2024/Acme SPA.docx")
    assert (access.allowed, access.denied) == (("partners",), ("x", "y"))
    assert "equally specific" in caplog.text


@pytest.mark.parametrize("value, allowed", [("open", ("*",)), ("closed", ()),
                                            ("Knowledge, Partners", ("knowledge", "partners"))])
def test_default_is_configurable(value: str, allowed: tuple) -> None:
    assert default_access(value).allowed == allowed


def test_csv_policy_and_fingerprint(tmp_path: Path) -> None:
    path = tmp_path / "walls.csv"
    path.write_text("\ufeffpattern,allow,deny\nMatters/Acme/,acme-team;partners,acme-conflict\n,,\n")
    policy = load_policy(path)
    assert policy.access("Matters/Acme/a.docx") == Access(("acme-team", "partners"), ("acme-conflict",),
                                                          "Matters/Acme/**")
    assert policy.access("x.docx").allowed == ("*",)  # default open
    same = load_policy(path)
    assert same.fingerprint == policy.fingerprint
    path.write_text("pattern,allow,deny\nMatters/Acme/,acme-team,\n")
    assert load_policy(path).fingerprint != policy.fingerprint
    assert load_policy(path, "closed").fingerprint != load_policy(path, "open").fingerprint


@pytest.mark.parametrize("rules, message", [
    ([{"pattern": "Matters/", "deny": ["x"]}], "allows no group"),
    ([{"pattern": "", "allow": ["x"]}], "pattern"),
    ([{"pattern": "a/", "allow": ["x,y"]}], "without ','"),
    ([{"pattern": "a/", "allow": ["x"], "groups": ["y"]}], "unknown key"),
    ([{"pattern": "a/", "allow": ["x"]}, {"pattern": "A/", "allow": ["y"]}], "repeats"),
])
def test_bad_policies_are_refused_with_the_fix(tmp_path: Path, rules: list, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_policy(write_policy(tmp_path, rules))


def test_unreadable_or_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        load_policy(tmp_path / "missing.json")
    (tmp_path / "walls.yaml").write_text("rules: []")
    with pytest.raises(ConfigError, match=".json or .csv"):
        load_policy(tmp_path / "walls.yaml")
    assert load_policy(None) is None
