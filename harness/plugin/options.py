"""The plugin's command-line options and ini settings, registered in every pytest session of an
environment the suite is installed in: light imports only (no torch), and choices that need the
suite (backends, GPUs) are checked once the suite's plugin runs."""
from __future__ import annotations

import pytest

from harness.profiles import Mode, ProfileName

# dest -> default of every option below: the gate (harness.plugin.wanted) reads which were given
DEFAULTS: dict[str, object] = {}


def _add(group, flag: str, **kwargs) -> None:
    group.addoption(flag, **kwargs)
    DEFAULTS[flag.lstrip("-").replace("-", "_")] = kwargs.get("default")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("interp-claims")
    _add(group, "--claims-profile", choices=[p.value for p in ProfileName], default=None,
         help="published (the notebooks' models, CUDA), tiny (the CPU organisms), rehearsal "
              "(the published code path on random weights) or micro (the organisms at smaller "
              "sizes, for the meta tests' paired runs); default: published with CUDA or when -m "
              "selects gpu/hub, else tiny")
    _add(group, "--mode", choices=[m.value for m in Mode], default=Mode.FAITHFUL.value,
         help="faithful: the notebooks' batch sizes; fast: batched where a notebook went one "
              "prompt at a time (same tokens on fp32 organisms; pinned under its own snapshot "
              "profile where batching changes bf16 tokens)")
    _add(group, "--backend", default="local", metavar="local|ndif-local|ndif",
         help="where traces run: here; ndif-local, through nnsight's serialise-and-run "
              "simulation of an NDIF request on the model loaded here; or ndif")
    _add(group, "--model", action="append", default=[], metavar="SOURCE=ORG/NAME[@REV]",
         help="re-run a source's published claims on another model of its architecture class, "
              "layers mapped by relative depth: a generalisation test, pinned under its own "
              "snapshot profile (repeatable)")
    _add(group, "--rehearsal-dtype", choices=("float32", "bfloat16"), default=None,
         help="the rehearsal profile's models in this dtype instead of their declared one (the "
              "CPU rehearsal on a CPU without native bf16 arithmetic)")
    _add(group, "--rehearsal-sizes", choices=("rehearsal", "published"), default="rehearsal",
         help="the rehearsal profile's experiment sizes: its own (CPU-sized) or the published "
              "ones (the full-size CUDA rehearsal, still judged by no published value)")
    _add(group, "--rehearsal-decode-cap", type=int, default=None, metavar="TOKENS",
         help="the rehearsal profile's decode steps stop at this many tokens (the full-size "
              "CUDA rehearsal: random weights decode every step to its cap)")
    _add(group, "--results", default="reports/results.json",
         help="where the run record is written (relative to the rootdir)")
    _add(group, "--no-page", action="store_true", default=False,
         help="write the run record without its page, claims.html (the rehearsal's runs, whose "
              "pages go with their temporary folders; `interp-claims report` renders one)")
    _add(group, "--gpus", default=None,
         help="comma-separated GPU ids to spread xdist workers over (default: "
              "CUDA_VISIBLE_DEVICES, else every CUDA device); each worker gets its own")
    _add(group, "--device-audit", action="store_true", default=False,
         help="fail a test whose source code made a tensor without naming its device (the "
              "rehearsal runs with it)")
    _add(group, "--fail-on-drift", action="store_true", default=False,
         help="on the published profile, fail a test whose numbers drifted from their snapshot "
              "(drift never changes a verdict; on organisms it always fails)")
    _add(group, "--plan", action="store_true", default=False,
         help="print each source's and claim's model work and estimated GPU time (both modes), "
              "load no model, run no test; writes reports/plan-<profile>.json")
    _add(group, "--plan-gpu", default="H200", metavar="GPU",
         help="the GPU the plan prices the work on (H200, A6000, …: harness.cost.plan.GPUS)")
    _add(group, "--plan-utilisation", type=float, default=None,
         help="the fraction of the GPU's dense bf16 throughput the arithmetic reaches (default: "
              "the plan's assumption)")
    _add(group, "--plan-overhead-ms", type=float, default=None,
         help="fixed cost of one forward outside the arithmetic (Python, generate, nnsight; "
              "default: the plan's assumption)")
    _add(group, "--plan-gpus", type=int, default=8,
         help="the GPUs the plan's several-GPU figures assume (one xdist worker each)")
    _add(group, "--plan-calibration", default=None,
         help="a GPU rehearsal's summary (reports/gpu-rehearsal.json): fit the utilisation and "
              "overhead to its measured runs instead of assuming them")
    parser.addini("interp_claims", type="bool", default=False,
                  help="this project's tests are claims (its own sources, registered by entry "
                       "point): load the suite's plugin in every session")
    parser.addini("snapshot_warn_unused", type="bool", default=False,
                  help="syrupy's --snapshot-warn-unused where syrupy is installed (as an addopts "
                       "entry, that option is a usage error without it)")
