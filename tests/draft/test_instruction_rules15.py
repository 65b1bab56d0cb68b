"""read_instruction's walk is the ordered list of named rules in instruction.RULES (session 15).

Structure, not behaviour: every rule in instruction_walk.py is listed once, each says in its docstring what
message shape it handles, and the last places every segment the others leave (so none is dropped unread).
"""

import inspect

from addin_server.draft import instruction_walk
from addin_server.draft.instruction import RULES, read_instruction


def _rules_defined() -> set[str]:
    return {name for name, f in inspect.getmembers(instruction_walk, inspect.isfunction)
            if f.__module__ == instruction_walk.__name__ and not name.startswith("_")
            and list(inspect.signature(f).parameters) == ["w", "s"]}


def test_every_rule_listed_once_with_a_docstring():
    names = [r.__name__ for r in RULES]
    assert len(names) == len(set(names))
    assert set(names) == _rules_defined()
    assert all((r.__doc__ or "").strip() for r in RULES)


def test_the_last_rule_places_what_the_others_leave():
    assert RULES[-1] is instruction_walk.a_new_part
    clause = "The Supplier shall give the Customer ten Business Days' notice of any price change."
    parts = read_instruction("Ten Business Days' notice isn't enough; please make it thirty days.", clause).parts
    assert [p.kind for p in parts] == ["period"]
    assert parts[0].params.get("value") == 30
