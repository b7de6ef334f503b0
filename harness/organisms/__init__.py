"""Model organisms: small models trained here so the tiny profile has behaviour to measure."""

# MKL's conditional numerical reproducibility branch (MKL_CBWR) for training: the same matrix-multiply
# results on every CPU with AVX2, whatever MKL would choose for it (the ATen capability does not
# choose these kernels). Set before torch loads; kept torch-free here for that.
MKL_BRANCH = "AVX2"
