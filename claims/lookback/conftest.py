"""Package fixtures for seed 003, derived from its declared steps (harness/sources/lookback/steps.py):
each runs once, only if a test needs it; the model and what was measured on it are released once
this folder's tests are done."""
from harness.plugin.step_fixtures import step_fixtures

globals().update(step_fixtures("lookback"))
