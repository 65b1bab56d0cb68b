"""The backend contract suite runs once per engine: ``store_factory(settings) -> IndexStore``.

Engines register here; a test module that uses ``store_factory`` runs against each.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from index_builder.index.backend import IndexStore
from index_builder.index.embedded import EmbeddedStore
from index_builder.settings import Settings

ENGINES: dict[str, Callable[[Settings], IndexStore]] = {
    "embedded": lambda s: EmbeddedStore(s.index_dir, s.bm25),
}


@pytest.fixture(params=sorted(ENGINES))
def store_factory(request: Any) -> Callable[[Settings], IndexStore]:
    return ENGINES[request.param]
