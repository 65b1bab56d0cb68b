"""One typed, frozen settings object for the index builder and the server, built once.

Values come from (highest first) explicit overrides such as CLI flags, ``PRECEDENT_*``
environment variables, then the defaults below. ``ENV`` is the one table of variables:
each names the field it sets and says what it does (``addin-server settings`` prints it,
docs/settings.md lists it, and a test keeps the two in step). An empty variable counts as
unset. Every rule lives in ``_validate``; its messages name the variable to fix. Nothing
reads the environment after ``load_settings``.

The package, module by module (``from index_builder.settings import X`` works for every name):

- ``root.py``: ``Settings``, the one object, with one section per area;
- ``search.py``: embedding, BM25, fusion and folding, rerank, Milvus (the search path);
- ``llm.py``: the LLM endpoint, the embedded local model, precedent-bench's cache;
- ``server.py``: the HTTP server's limits, sign-in, ethical walls, the audit trail;
- ``pane.py``: compare to market, conforming, following the cursor;
- ``library.py``: DMS sources, usage feedback and relearning;
- ``env.py``: ``ENV``, the one table of variables; ``doc.py``: docs/settings.md from it (and
  the rows of it that docs/security.md and docs/sources.md show);
- ``load.py``: ``load_settings`` / ``updated``; ``validate.py``: the rules.

Adding a setting: a field in its section (with a comment saying why its default), a line in
``ENV``, a rule in validate.py if it has one, then ``addin-server settings > docs/settings.md``.
"""

from index_builder.settings.doc import (SETTINGS_DOC_INTRO, fill_settings_rows, settings_doc,
                                        settings_rows, settings_table)
from index_builder.settings.env import ENV, Var, var_for
from index_builder.settings.library import LearningSettings, SourcesSettings
from index_builder.settings.llm import (DEFAULT_MODELS_DIR, LOCAL_MODES, PROVIDERS, BenchSettings,
                                        LLMSettings, LocalLLMSettings)
from index_builder.settings.load import coerce_setting, load_settings, updated
from index_builder.settings.pane import FOLLOW_MODES, ConformSettings, FollowSettings, MarketSettings
from index_builder.settings.root import Settings
from index_builder.settings.search import (BACKENDS, DEFAULT_EMBEDDING_MODEL, EMBEDDING_BACKENDS,
                                           FUSION_METHODS, QUERY_EXPANSIONS, RERANK_DEFAULTS,
                                           TRAINED_RERANKER_PATH, BM25Settings, EmbeddingSettings,
                                           MilvusSettings, RerankSettings, RetrievalSettings)
from index_builder.settings.server import (AuditSettings, AuthSettings, ServerSettings, WallsSettings,
                                           default_prompts_dir)

__all__ = [
    "BACKENDS", "DEFAULT_EMBEDDING_MODEL", "DEFAULT_MODELS_DIR", "EMBEDDING_BACKENDS", "ENV",
    "FOLLOW_MODES", "FUSION_METHODS", "LOCAL_MODES", "PROVIDERS", "QUERY_EXPANSIONS",
    "RERANK_DEFAULTS", "SETTINGS_DOC_INTRO", "TRAINED_RERANKER_PATH", "AuditSettings",
    "AuthSettings", "BM25Settings", "BenchSettings", "ConformSettings", "EmbeddingSettings",
    "FollowSettings", "LLMSettings", "LearningSettings", "LocalLLMSettings", "MarketSettings",
    "MilvusSettings", "RerankSettings", "RetrievalSettings", "ServerSettings", "Settings",
    "SourcesSettings", "Var", "WallsSettings", "coerce_setting", "default_prompts_dir",
    "fill_settings_rows", "load_settings", "settings_doc", "settings_rows", "settings_table", "updated",
    "var_for",
]
