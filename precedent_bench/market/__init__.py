"""Compare to market: term extraction and worked examples."""
