"""Top-level conftest: the session fixtures under fixtures/ (the plugin itself is an entry point)."""
pytest_plugins = ["fixtures.models", "fixtures.cot_runs", "fixtures.patching_runs",
                  "fixtures.lookback_runs", "fixtures.heads_runs"]
