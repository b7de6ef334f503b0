"""The sources: one package per seed notebook, each declaring `SOURCE` (harness.source.Source) and
holding its task, experiments, register rows and notebook pointer; harness.registry finds them."""
