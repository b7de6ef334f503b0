"""Model organisms: small models trained here so the tiny profile has behaviour to measure."""
