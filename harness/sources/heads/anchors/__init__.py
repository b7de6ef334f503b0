"""Seed 001's anchors: the set-up readouts (setup), the prompt layouts (layouts) and the machinery
checks on the model (machinery)."""
