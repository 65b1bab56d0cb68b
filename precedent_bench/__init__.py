"""`precedent-bench`: measure prompt edits (redraft, rerank) with paired intervals, and run
the retrieval, scale and load benchmarks from one command."""
