"""Precedent's backend: the JSON API and task pane server, the LLM layer and its prompts."""
