"""What a borrowed offline GPU machine has, needs and is given (harness/offline.py): its own
packages, the wheelhouse's, what the suite imports, and the CUDA lock's pins and hashes read with
the standard library alone (`make` runs it with the machine's own Python)."""
from __future__ import annotations

import hashlib
import re
import zipfile
from email.parser import HeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-cuda.lock"
FILL = "make wheelhouse PY=3.12"  # the make target that fills the wheelhouse
MACHINE_PYTHON = "3.12"

# The borrowed machines' own packages (their image, as listed on 2026-11-17; Python 3.12.3, torch
# 2.11.0+cu130, transformers 5.17.0, huggingface_hub 1.33.0): distribution names, normalised.
MACHINE = frozenset("""
absl-py accelerate aiofiles aiohappyeyeballs aiohttp aiosignal annotated-doc anyio attrs botorch
build certifi charset-normalizer chex click cloudpickle cmake colorama contourpy coverage
cuda-bindings cuda-core cuda-pathfinder cuda-toolkit cupy-cuda13x cycler cython diffrax e3nn einops
equinox etils execnet filelock flatbuffers flax fonttools formulaic frozenlist fsspec gpytorch grpcio
h11 h5py hf-xet httpcore httpx huggingface-hub humanize hypothesis idna imageio iniconfig
interface-meta jax jax-cuda13-pjrt jax-cuda13-plugin jaxlib jaxtyping jinja2 joblib kiwisolver
lazy-loader lightning lightning-utilities linear-operator lineax llvmlite lxml markdown
markdown-it-py markupsafe matplotlib mdurl meson ml-dtypes mpi4py mpmath msgpack multidict
multipledispatch mypy-extensions nanobind narwhals networkx ninja numba numba-cuda numpy numpyro
nvidia-cublas nvidia-cuda-cupti nvidia-cuda-nvrtc nvidia-cuda-runtime nvidia-cudnn-cu13 nvidia-cufft
nvidia-cufile nvidia-curand nvidia-cusolver nvidia-cusparse nvidia-cusparselt-cu13 nvidia-ml-py
nvidia-nccl-cu13 nvidia-nvjitlink nvidia-nvshmem-cu13 nvidia-nvtx onnx onnx-ir onnxruntime
onnxscript opencv-python-headless optax opt-einsum opt-einsum-fx optimistix orbax-checkpoint
packaging pandas pathspec patsy peft pillow pip pluggy portalocker prometheus-client propcache
protobuf psutil pyarrow pybind11 py-cpuinfo pygments pyparsing pyproject-hooks pyre-extensions
pytest pytest-benchmark pytest-cov pytest-mock pytest-timeout pytest-xdist python-dateutil
pytorch-lightning pyyaml regex requests rich sacrebleu safetensors scikit-build-core scikit-image
scikit-learn scipy seaborn sentencepiece sentence-transformers setuptools shellingham simplejson six
sortedcontainers statsmodels sympy tabulate tensorboard tensorboard-data-server tensorstore
threadpoolctl tifffile tiktoken timm tokenizers toolz torch torchaudio torchdiffeq torch-geometric
torchmetrics torchvision tqdm transformers treescope triton typer typing-extensions typing-inspect
urllib3 uvloop wadler-lindig werkzeug wheel wrapt xarray xxhash yarl zipp
""".split())

# Never carried: the machine's own CUDA build of torch and what comes with it.
CUDA_STACK = ("torch", "triton", "nvidia-", "cuda-")

# What the wheelhouse holds: nnsight and syrupy and, of their requirements (on Python 3.12,
# Linux x86-64), those MACHINE lacks. `wheelhouse` checks the closure: a requirement of one of
# these, or a dependency in pyproject.toml, that neither MACHINE nor this holds fails it.
WHEELHOUSE = ("nnsight", "syrupy", "pydantic", "pydantic-core", "annotated-types",
              "typing-inspection", "greenlet", "websocket-client", "zstandard")

# What the suite imports (pyproject.toml's dependencies): import name -> distribution.
NEEDS = {"torch": "torch", "transformers": "transformers", "nnsight": "nnsight",
         "syrupy": "syrupy", "pytest": "pytest", "xdist": "pytest-xdist",
         "accelerate": "accelerate", "tokenizers": "tokenizers",
         "huggingface_hub": "huggingface-hub", "filelock": "filelock",
         "safetensors": "safetensors", "numpy": "numpy", "scipy": "scipy", "pandas": "pandas",
         "tqdm": "tqdm", "jinja2": "jinja2", "matplotlib": "matplotlib"}
PLUGIN = "harness.plugin"  # the suite's pytest plugin: PYTEST_PLUGINS, the repo on PYTHONPATH

# Wheels for any glibc from 2.17 on (the machine's is newer); pip matches each tag exactly.
PLATFORMS = (*(f"manylinux_2_{n}_x86_64" for n in range(17, 36)), "manylinux2014_x86_64",
             "manylinux2010_x86_64", "manylinux1_x86_64")
LIMIT_MIB = 16  # of the 64 MiB carried: the repository and the published configs take the rest


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def cuda_stack(name: str) -> bool:
    return any(name == p or (p.endswith("-") and name.startswith(p)) for p in CUDA_STACK)


def read_lock(lock: Path = LOCK) -> dict[str, tuple[str, frozenset[str]]]:
    """The lock's pins: name -> (version, sha256s)."""
    pins: dict[str, tuple[str, frozenset[str]]] = {}
    name = None
    for line in lock.read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", line):
            name = normalise(m[1])
            pins[name] = (m[2], frozenset())
        for digest in re.findall(r"--hash=sha256:([0-9a-f]{64})", line):
            if name is not None:
                pins[name] = (pins[name][0], pins[name][1] | {digest})
    return pins


def packaging_classes():
    """packaging's Requirement and Version: the installed one, else pip's own copy."""
    try:
        from packaging.requirements import Requirement
        from packaging.version import Version
    except ImportError:
        from pip._vendor.packaging.requirements import Requirement
        from pip._vendor.packaging.version import Version
    return Requirement, Version


def marker_environment(python_version: str) -> dict[str, str]:
    return {"python_version": python_version, "python_full_version": f"{python_version}.0",
            "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
            "os_name": "posix", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}


def requirements(requires: list[str], python_version: str) -> list[str]:
    """Of Requires-Dist lines, those that apply on Linux x86-64 under `python_version`, no
    extra."""
    Requirement, _ = packaging_classes()
    env = marker_environment(python_version)
    out = []
    for text in requires:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(env):
            out.append(text)
    return out


def wheel_name(path: Path) -> tuple[str, str]:
    """A wheel file's (normalised name, version)."""
    name, version = path.name.split("-")[:2]
    return normalise(name), version


def wheel_requires(path: Path) -> list[str]:
    """A wheel's Requires-Dist lines."""
    with zipfile.ZipFile(path) as z:
        member = next(n for n in z.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        return HeaderParser().parsestr(z.read(member).decode()).get_all("Requires-Dist") or []


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def hashed_requirements(names, pins, folder: Path) -> Path:
    """A requirements file in `folder` pinning each of `names` at the lock's version and hashes."""
    path = folder / "requirements.txt"
    path.write_text("".join(f"{n}=={pins[n][0]} "
                            + " ".join(f"--hash=sha256:{h}" for h in sorted(pins[n][1])) + "\n"
                            for n in names))
    return path
