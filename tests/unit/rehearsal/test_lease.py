"""The short-lease script: environment checks first, then the CUDA rehearsal within what is left
of the deadline, the most informative source first, everything in one folder (issue 39)."""
from __future__ import annotations

import json

from harness.rehearsal import lease


def stub_steps(monkeypatch, cuda: bool, fails: str | None = None) -> list[tuple[str, list, float]]:
    """Lease.step without processes: each step recorded, torch.txt saying whether CUDA is there."""
    steps = []

    def step(self, name, args, env, timeout, log):
        steps.append((name, args, timeout))
        (self.folder / log).write_text(json.dumps({"available": cuda}) + "\n")
        return 1 if name == fails else 0

    monkeypatch.setattr(lease.Lease, "step", step)
    return steps


def test_the_lease_checks_then_rehearses_within_its_deadline(tmp_path, monkeypatch):
    steps = stub_steps(monkeypatch, cuda=True)
    assert lease.main(["--folder", str(tmp_path), "--deadline", "300"]) == 0
    assert [name for name, _, _ in steps] == ["check", "versions", "nvidia-smi", "torch.cuda",
                                              "rehearsal"]
    args = steps[-1][1]
    assert args[args.index("--sources") + 1:args.index("--deadline")] == list(lease.ORDER)
    assert int(args[args.index("--deadline") + 1]) <= 300 - lease.RESERVE_S
    assert args[args.index("--out") + 1] == str(tmp_path / "gpu-rehearsal.json")
    assert json.loads((tmp_path / "lease.json").read_text())["ok"]


def test_without_cuda_the_lease_stops_before_rehearsing_and_says_why(tmp_path, monkeypatch):
    steps = stub_steps(monkeypatch, cuda=False)
    assert lease.main(["--folder", str(tmp_path)]) == 1
    assert "rehearsal" not in [name for name, _, _ in steps]
    assert "no CUDA" in json.loads((tmp_path / "lease.json").read_text())["failure"]


def test_offline_it_installs_from_the_wheelhouse_first_and_stops_when_that_fails(tmp_path,
                                                                                 monkeypatch):
    steps = stub_steps(monkeypatch, cuda=True, fails="offline install")
    assert lease.main(["--folder", str(tmp_path), "--offline"]) == 1
    assert [name for name, _, _ in steps] == ["offline install"]
