"""Retrieval quality on ACORD: the served pipeline, learned fusion, glossary, own drafts, LLM rerank, learning from use, strict mode."""
