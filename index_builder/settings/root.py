"""The one Settings object: top-level values and one section per area, built once and passed in.

Its ``__post_init__`` runs every rule in validate.py, so no Settings exists that breaks one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from index_builder.settings.library import LearningSettings, SourcesSettings
from index_builder.settings.llm import BenchSettings, LLMSettings, LocalLLMSettings
from index_builder.settings.pane import ConformSettings, FollowSettings, MarketSettings
from index_builder.settings.search import (BM25Settings, EmbeddingSettings, MilvusSettings,
                                           RerankSettings, RetrievalSettings)
from index_builder.settings.server import AuditSettings, AuthSettings, ServerSettings, WallsSettings
from index_builder.settings.validate import _validate


@dataclass(frozen=True)
class Settings:
    """Everything the index builder, the retrieval pipeline and the server need."""

    index_dir: Path = Path("var/index")
    acord_dir: Path = Path("../shared/data/acord")
    backend: str = "embedded"
    # Links inside a library folder that lead outside it are skipped unless this is on.
    follow_links: bool = False
    # A firm's document metadata (CSV: file, then fields) overriding what extraction finds.
    metadata_file: Path | None = None
    # Embedded backend: a build appends changed documents to the live version until appended
    # plus retired clauses pass this share of the last full build, then rewrites it whole
    # (which also refreshes BM25's statistics). 0 = always whole. At 1M clauses, 10% kept
    # dense recall@10 at 0.948-0.955 and p50 under 120 ms (scale.md section 4).
    append_limit: float = 0.1
    milvus: MilvusSettings = field(default_factory=MilvusSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    bm25: BM25Settings = field(default_factory=BM25Settings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    rerank: RerankSettings = field(default_factory=RerankSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    local_llm: LocalLLMSettings = field(default_factory=LocalLLMSettings)
    auth: AuthSettings = field(default_factory=AuthSettings)  # sign-in (issue 10)
    walls: WallsSettings = field(default_factory=WallsSettings)  # ethical walls (issue 10)
    audit: AuditSettings = field(default_factory=AuditSettings)  # audit trail (issue 10)
    market: MarketSettings = field(default_factory=MarketSettings)  # compare to market (issue 24)
    conform: ConformSettings = field(default_factory=ConformSettings)  # conforming (issue 23)
    sources: SourcesSettings = field(default_factory=SourcesSettings)  # DMS sources (issue 25)
    learning: LearningSettings = field(default_factory=LearningSettings)  # issue 27
    follow: FollowSettings = field(default_factory=FollowSettings)  # follow the cursor (issue 31)
    bench: BenchSettings = field(default_factory=BenchSettings)  # precedent-bench (issue 26)

    def __post_init__(self) -> None:
        _validate(self)

