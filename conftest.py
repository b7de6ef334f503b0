"""Top-level conftest: each source's fixtures are derived from its declared steps and given to its
claims folder by the plugin (harness/plugin/source_folders.py), and the plugin itself is an entry
point."""
