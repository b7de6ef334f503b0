"""`make bench`: the suite's speed as ratios measured side by side (`python -m harness.sources.cot.bench`)."""
