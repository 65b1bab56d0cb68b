"""Embedding: backends side by side, a distilled student, static int8."""
