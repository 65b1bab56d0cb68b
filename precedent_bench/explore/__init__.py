"""The explorer on the real agreements: query by examples, facets, variations, matching spans."""
