"""Seed 000's independent steps as items of their own, for spare xdist workers
(harness/plugin/splitting.py)."""
from harness.plugin.splitting import unit_tests

test_unit = unit_tests("cot")
