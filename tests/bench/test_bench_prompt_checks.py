"""Prompt checks at load: variables, token budget for the model, citation-format clashes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from addin_server.draft.prompt_checks import budget, check_prompt, citation_clashes
from addin_server.draft.prompts import REDRAFT_VARIABLES, RERANK_VARIABLES, load_prompt
from addin_server.llm.tokens import TokenCounter
from index_builder.errors import PromptError
from index_builder.settings import LLMSettings

from precedent_bench.cli import main

ROOT = Path(__file__).resolve().parents[2]
REDRAFT = ROOT / "prompts" / "redraft.prompt"
RERANK = ROOT / "prompts" / "rerank.prompt"
COUNTER = TokenCounter()


def redraft_with(tmp_path: Path, rule: str) -> Any:
    text = REDRAFT.read_text().replace("6. Answer with the redrafted clause only",
                                       f"6. {rule}\n7. Answer with the redrafted clause only")
    path = tmp_path / "edit.prompt"
    path.write_text(text)
    return load_prompt(path, REDRAFT_VARIABLES)


def test_the_shipped_prompts_pass_every_check() -> None:
    llm = LLMSettings()
    assert check_prompt(load_prompt(REDRAFT, REDRAFT_VARIABLES), "redraft", llm, COUNTER) == []
    assert check_prompt(load_prompt(RERANK, RERANK_VARIABLES), "rerank", llm, COUNTER) == []


@pytest.mark.parametrize("rule, quoted", [
    ("Do not cite the precedents.", "Do not cite"),
    ("Write it without citations.", "without citations"),
    ("Add footnotes for each source.", "footnotes"),
    ("List the sources at the end.", "List the sources at the end"),
    ("Cite each precedent by its title.", "Cite each precedent by its title"),
    # A new user's wordings (session 10): the object and the name's owner between the words.
    ("After each sentence, cite it by the name of the source document.",
     "cite it by the name"),
    ("Cite it by the title of the precedent document.", "Cite it by the title"),
    ("Refer to each precedent by the precedent's file name.", "Refer to each precedent by the precedent's file name"),
    ("Refer to them as [Precedent A] and so on.", "[Precedent A]"),
])
def test_instructions_that_contradict_the_citation_format_are_named(tmp_path: Path, rule: str,
                                                                    quoted: str) -> None:
    warnings = citation_clashes(redraft_with(tmp_path, rule))
    assert len(warnings) == 1 and f'"{quoted}"' in warnings[0]


@pytest.mark.parametrize("rule", [
    "Cite it by its number in square brackets.",
    "Cite each precedent by its source number, as [2].",
    "Name the parties by their defined terms.",
    "Cite a statute by its section number if the lawyer's clause does.",
])
def test_numbers_and_other_names_are_not_a_clash(tmp_path: Path, rule: str) -> None:
    assert citation_clashes(redraft_with(tmp_path, rule)) == []


def test_a_prompt_that_never_shows_the_marker_form_is_warned(tmp_path: Path) -> None:
    text = REDRAFT.read_text().replace("for example [2]", "for example").replace(
        "as [1] to [$count]", "by number (1 to $count)")
    path = tmp_path / "p.prompt"
    path.write_text(text)
    (warning,) = citation_clashes(load_prompt(path, REDRAFT_VARIABLES))
    assert "never shows the [n] citation form" in warning


def test_worked_answers_without_markers_are_not_instructions(tmp_path: Path) -> None:
    text = REDRAFT.read_text().replace("=== user ===\nPrecedents:", "=== user ===\nExample\n"
                                       "=== assistant ===\nThe Supplier shall not cite footnotes.\n"
                                       "=== user ===\nPrecedents:", 1)
    path = tmp_path / "p.prompt"
    path.write_text(text)
    assert citation_clashes(load_prompt(path, REDRAFT_VARIABLES)) == []


def test_a_small_context_leaves_too_few_precedents(tmp_path: Path) -> None:
    llm = replace(LLMSettings(), context_tokens=2048)
    (warning,) = check_prompt(load_prompt(REDRAFT, REDRAFT_VARIABLES), "redraft", llm, COUNTER)
    assert "left for precedents: 0 at full length" in warning and "2,048" in warning


def test_a_template_that_cannot_fit_stops_loading(tmp_path: Path) -> None:
    llm = replace(LLMSettings(), context_tokens=1024)
    with pytest.raises(PromptError, match="do not fit the model's context of 1,024 tokens"):
        check_prompt(load_prompt(REDRAFT, REDRAFT_VARIABLES), "redraft", llm, COUNTER)


def test_rerank_inputs_over_the_context_are_warned() -> None:
    llm = replace(LLMSettings(), context_tokens=1024)
    prompt = load_prompt(RERANK, RERANK_VARIABLES)
    (warning,) = check_prompt(prompt, "rerank", llm, COUNTER)
    assert "exceed the model's 1,024-token context" in warning
    assert budget(prompt, "rerank", llm, COUNTER).room < 0


def test_check_prompts_command_exits_1_on_a_warning(capsys: Any) -> None:
    edit = ROOT / "benchmarks" / "prompt_edits" / "redraft-uncited.prompt"
    assert main(["check-prompts", "--prompt", str(REDRAFT)]) == 0
    assert main(["check-prompts", "--prompt", str(edit)]) == 1
    out = capsys.readouterr().out
    assert "warning:" in out and '"Do not cite"' in out
