"""ioi_tutorial's fixtures, derived from its declared steps (its package's steps.py)."""
from harness.plugin.step_fixtures import step_fixtures

globals().update(step_fixtures("ioi_tutorial"))
