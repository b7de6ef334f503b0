"""Top-level conftest: each source's session fixtures live in claims/<source>/conftest.py, and the
plugin itself is an entry point."""
