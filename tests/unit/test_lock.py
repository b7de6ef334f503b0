"""The lock a machine installs, chosen from what `nvidia-smi -L` says (simulated here)."""
from __future__ import annotations

import stat

from harness.lock import CPU_LOCK, CUDA_LOCK, choose


def fake_nvidia_smi(tmp_path, body: str) -> str:
    path = tmp_path / "nvidia-smi"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_a_driver_listing_a_gpu_takes_the_cuda_lock(tmp_path):
    smi = fake_nvidia_smi(tmp_path, 'echo "GPU 0: NVIDIA H200 (UUID: GPU-0)"')
    assert choose(smi) == CUDA_LOCK


def test_a_driver_that_fails_takes_the_cpu_lock(tmp_path):
    smi = fake_nvidia_smi(tmp_path, 'echo "NVIDIA-SMI has failed: no driver" >&2; exit 9')
    assert choose(smi) == CPU_LOCK


def test_a_driver_listing_no_gpu_takes_the_cpu_lock(tmp_path):
    assert choose(fake_nvidia_smi(tmp_path, "echo 'No devices were found'")) == CPU_LOCK


def test_no_nvidia_smi_takes_the_cpu_lock(tmp_path):
    assert choose(str(tmp_path / "absent")) == CPU_LOCK
