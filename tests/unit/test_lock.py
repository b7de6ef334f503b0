"""The lock a machine installs: a pure function of (system, machine, Python, GPU, the locks this
checkout has); the GPU from what `nvidia-smi -L` says (simulated here); and the locks themselves."""
from __future__ import annotations

import re
import stat
import subprocess

import pytest

from harness.lock import (CPU_LOCK, CUDA_LOCK, LOCKS, PYTHONS, ROOT, TORCH_CPU_INDEX, NoLock,
                          gpus, note, present, select)
from harness.lock_making import pin_versions

ALL = None  # select()'s `present`: every lock in the table


def fake_nvidia_smi(tmp_path, body: str) -> str:
    path = tmp_path / "nvidia-smi"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


# --- the GPU ------------------------------------------------------------------------------------

def test_a_driver_listing_a_gpu_is_a_gpu(tmp_path):
    smi = fake_nvidia_smi(tmp_path, 'echo "GPU 0: NVIDIA H200 (UUID: GPU-0)"')
    assert gpus(smi) == ["GPU 0: NVIDIA H200 (UUID: GPU-0)"]


def test_a_driver_that_fails_is_no_gpu(tmp_path):
    assert gpus(fake_nvidia_smi(tmp_path, 'echo "NVIDIA-SMI has failed" >&2; exit 9')) == []


def test_a_driver_listing_no_gpu_is_no_gpu(tmp_path):
    assert gpus(fake_nvidia_smi(tmp_path, "echo 'No devices were found'")) == []


def test_no_nvidia_smi_is_no_gpu(tmp_path):
    assert gpus(str(tmp_path / "absent")) == []


# --- which lock ---------------------------------------------------------------------------------

@pytest.mark.parametrize("system, machine, python, has_gpu, lock", [
    ("Linux", "x86_64", "3.11.7", False, CPU_LOCK),
    ("linux", "x86_64", (3, 11), True, CUDA_LOCK),
    ("Linux", "x86_64", "3.12", False, "locks/linux-x86_64-py3.12.lock"),
    ("Linux", "AMD64", "3.12.1", True, "locks/linux-x86_64-cuda-py3.12.lock"),
    ("Linux", "x86_64", "3.13.0", False, "locks/linux-x86_64-py3.13.lock"),
    ("Linux", "aarch64", "3.11", False, "locks/linux-aarch64-py3.11.lock"),
    ("Linux", "arm64", "3.12", False, "locks/linux-aarch64-py3.12.lock"),
    ("Linux", "aarch64", (3, 13, 1), True, "locks/linux-aarch64-cuda-py3.13.lock"),
    ("Darwin", "arm64", "3.11", False, "locks/macos-arm64-py3.11.lock"),
    ("darwin", "arm64", "3.12.4", False, "locks/macos-arm64-py3.12.lock"),
    ("Darwin", "arm64", "3.13", True, "locks/macos-arm64-py3.13.lock"),
])
def test_each_platform_and_python_takes_its_own_lock(system, machine, python, has_gpu, lock):
    assert select(system, machine, python, has_gpu, ALL).path == lock


def test_a_linux_machine_without_its_cpu_lock_takes_its_cuda_lock_and_says_so():
    have = {"locks/linux-x86_64-cuda-py3.12.lock"}
    chosen = select("Linux", "x86_64", "3.12", False, have)
    assert chosen.path == "locks/linux-x86_64-cuda-py3.12.lock"
    warning = note(chosen, has_gpu=False)
    assert "locks/linux-x86_64-py3.12.lock" in warning and "CUDA build" in warning
    assert TORCH_CPU_INDEX in warning
    assert note(chosen, has_gpu=True) is None


def test_a_gpu_machine_without_its_cuda_lock_takes_the_cpu_one_and_says_so():
    chosen = select("Linux", "aarch64", "3.12", True, {"locks/linux-aarch64-py3.12.lock"})
    assert chosen.path == "locks/linux-aarch64-py3.12.lock"
    assert "locks/linux-aarch64-cuda-py3.12.lock" in note(chosen, has_gpu=True)


def test_macos_wants_no_cuda_lock():
    assert note(select("Darwin", "arm64", "3.12", True, ALL), has_gpu=True) is None


@pytest.mark.parametrize("system, machine, python, says", [
    ("Windows", "AMD64", "3.12", "Windows"),
    ("Darwin", "x86_64", "3.12", "Rosetta"),
    ("Linux", "x86_64", "3.10", "PYTHON=python3.13"),
    ("Linux", "aarch64", "3.14", "Python 3.14"),
    ("Linux", "riscv64", "3.12", "riscv64"),
    ("FreeBSD", "amd64", "3.12", "freebsd"),
])
def test_no_lock_fits_says_which_combinations_do(system, machine, python, says):
    with pytest.raises(NoLock) as raised:
        select(system, machine, python, False, ALL)
    message = str(raised.value)
    assert says in message
    assert "Linux x86-64 and aarch64" in message and "macOS arm64" in message
    assert ", ".join(PYTHONS) in message and "make setup LOCK=" in message


def test_a_checkout_without_either_lock_says_make_lock_makes_them():
    with pytest.raises(NoLock, match="make lock"):
        select("Linux", "aarch64", "3.13", False, set())


def test_the_table_has_one_lock_of_each_build_per_platform_and_python():
    paths = [lock.path for lock in LOCKS]
    assert len(paths) == len(set(paths)) == len(PYTHONS) * 5  # Linux x2 builds x2, macOS
    for python in PYTHONS:
        for machine in ("x86_64", "aarch64"):
            assert {lock.torch for lock in LOCKS if (lock.system, lock.machine, lock.python)
                    == ("linux", machine, python)} == {"cpu", "cuda"}


# --- the locks this checkout has ----------------------------------------------------------------

def test_every_lock_file_is_in_the_table():
    assert {f"locks/{p.name}" for p in (ROOT / "locks").glob("*")} <= {x.path for x in LOCKS}


def test_every_lock_made_from_pypi_alone_is_here():
    # The Linux CPU locks but requirements.lock need PyTorch's CPU index to be made (make lock).
    assert {x.path for x in LOCKS if not x.torch_index or x.path == CPU_LOCK} <= present()


@pytest.mark.parametrize("lock", [x for x in LOCKS if x.path in present()], ids=lambda x: x.path)
def test_each_lock_is_hash_checked_and_names_its_torch_source(lock):
    text = (ROOT / lock.path).read_text()
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if re.match(r"[A-Za-z0-9][\w.-]*==", line)]
    assert len(starts) == len(pin_versions(ROOT / lock.path)) > 50
    assert [lines[i] for i in starts if not re.match(r"\s+--hash=sha256:[0-9a-f]{64}",
                                                      lines[i + 1])] == []
    torch = re.search(r"^torch==(\S+)", text, re.M)[1]
    named = re.search(rf"^--extra-index-url {re.escape(TORCH_CPU_INDEX)}$", text, re.M)
    cuda = re.findall(r"^(?:nvidia-[\w.-]+|triton)==", text, re.M)
    if lock.path != CUDA_LOCK:
        assert text.startswith(f"# {lock.describe()}.")
    if lock.torch_index:
        assert named and torch == "2.13.0+cpu" and not cuda
    else:
        assert not named and torch == "2.13.0"
        assert bool(cuda) == (lock.torch == "cuda")


@pytest.mark.parametrize("lock", [x for x in LOCKS if x.path in present() and x.made_by_uv],
                         ids=lambda x: x.path)
def test_each_lock_keeps_the_pins_of_its_root_lock(lock):
    ours = pin_versions(ROOT / lock.path)
    root = pin_versions(ROOT / (CUDA_LOCK if lock.torch == "cuda" else CPU_LOCK))
    differ = {name: (ours[name], root[name]) for name in ours.keys() & root.keys()
              if name != "torch" and ours[name] != root[name]}
    assert differ == {}
    assert root.keys() - ours.keys() <= {"torch"} or lock.torch == "cuda"


@pytest.mark.meta
def test_make_names_each_lock_its_own_stamp_and_installs_through_harness_install():
    done = subprocess.run(["make", "-n", "setup", "LOCK=locks/macos-arm64-py3.12.lock"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    assert "harness.cli install locks/macos-arm64-py3.12.lock .venv --editable ." in done.stdout
    assert "touch .venv/.installed-locks-macos-arm64-py3.12.lock" in done.stdout
