"""The rehearsal's settings: the CUDA one runs one source at a time on its GPU at full size, the
CPU one a source per core, narrowed, its models built in its own process; the CUDA dry run keeps
the CUDA path on the CPU (issue 26)."""
from __future__ import annotations

import os

from harness.rehearsal.setting import FULL_SIZE_DECODE_CAP, Setting


def test_the_cuda_rehearsal_runs_one_source_at_a_time_at_full_size():
    cuda = Setting.for_device("cuda")
    assert cuda.jobs == 1 and cuda.full_size and cuda.published_sizes
    assert cuda.decode_cap == FULL_SIZE_DECODE_CAP and cuda.separate_audit and cuda.cap_from_plan


def test_the_cpu_rehearsal_runs_a_source_per_core_under_the_audit():
    cpu = Setting.for_device("cpu")
    assert cpu.jobs == (os.cpu_count() or 1) and not cpu.full_size and cpu.audit == "inline"


def test_the_dry_run_keeps_the_cuda_path_on_the_cpu_narrowed():
    dry = Setting.for_device("cuda").dry_run(8)
    assert (dry.device, dry.full_size, dry.decode_cap) == ("cpu", False, 8)
    assert dry.published_sizes and dry.modes == ("fast", "faithful") and dry.separate_audit
    assert not dry.cap_from_plan


def test_the_narrowed_cpu_models_are_built_here_and_full_size_ones_in_a_process_of_their_own():
    assert Setting.for_device("cpu").builds_here
    assert Setting.for_device("cuda").dry_run(8).builds_here
    assert not Setting.for_device("cuda").builds_here
