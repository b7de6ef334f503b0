"""The known answer is read from the manifest in the claim's own source's organisms folder, where
an added source keeps its organisms (harness/source.py's organisms_dir)."""
from __future__ import annotations

from harness.criteria import IsPlanted, KnownAnswer
from harness.plugin import judging
from harness.plugin.judging import Judge
from tests.unit.plugin.judged_items import declared, item


def test_the_manifest_is_read_from_the_sources_organisms_folder(monkeypatch):
    spec = declared("heads.s", "claim", "gpu",
                    known_answer=KnownAnswer(IsPlanted("v", "retrieval_block"), "retrieval_block"))
    read = []
    monkeypatch.setattr(judging, "read_manifest", lambda *args: read.append(args) or
                        {"planted": {"retrieval_block": 1}})
    test = item(spec)
    Judge(test, snapshot=None)({"v": 1})
    assert [args[1:] for args in read] == [(spec.source.organisms_dir,)]
