"""Precedent's clause index: segmentation, embedding, hybrid retrieval and ACORD evaluation."""

__version__ = "0.1.0"
