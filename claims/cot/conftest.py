"""Package fixtures for seed 000, derived from its declared steps (harness/sources/cot/steps.py):
each runs once, only if a test needs it; the model is released when this folder's tests are done."""
from harness.plugin.step_fixtures import step_fixtures

globals().update(step_fixtures("cot"))
