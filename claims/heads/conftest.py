"""Session fixtures for seed 001: the tokenizer, the families, and each study run once."""
from __future__ import annotations

from typing import Callable

import pytest

from harness.plugin import model_for

from harness.sources.heads import studies as S
from harness.sources.heads.lab import HeadsLab
from harness.models import Loaded, load_tokenizer
from harness.profiles import Profile
from harness.sources.heads.task import MAIN, OPENING, Family, generate_family


@pytest.fixture(scope="session")
def heads_tokenizer(profile: Profile):
    """Qwen2.5's tokenizer at the pinned revision on published; the organism's otherwise."""
    return load_tokenizer(profile.models["heads"])


@pytest.fixture(scope="session")
def heads_single_token(heads_tokenizer) -> Callable[[str], bool]:
    """§1's filter: whether a word is one token, with its leading space, under the tokenizer."""
    return lambda word: len(heads_tokenizer.encode(" " + word, add_special_tokens=False)) == 1


@pytest.fixture(scope="session")
def heads_families(heads_single_token) -> tuple[list[Family], list[Family]]:
    """§1: 8 opening families, and 32 main families restricted to single-token objects."""
    return ([generate_family(OPENING, i) for i in range(8)],
            [generate_family(MAIN, i, single_token=heads_single_token) for i in range(32)])


@pytest.fixture(scope="session")
def heads_lab(heads_model: Loaded, heads_families) -> HeadsLab:
    """The session's one observation record: every condition is run once and shared."""
    return HeadsLab(heads_model, *heads_families)


@pytest.fixture(scope="session")
def heads_sweep(heads_lab: HeadsLab) -> S.ResidualSweep:
    return S.residual_sweep(heads_lab)


@pytest.fixture(scope="session")
def heads_site(heads_lab: HeadsLab, heads_sweep: S.ResidualSweep, profile: Profile) -> S.Site:
    """§2's selected block, or the profile's smoke-test block when the rule gives none usable."""
    site = S.site_for(heads_sweep, heads_lab.geometry.n_blocks,
                      profile.sizes["heads"].smoke_block)
    if site is None:
        pytest.skip(f"§2's rule selected {heads_sweep.retrieval_block}, which leaves no block and "
                    "next block to study, and this profile has no smoke-test block")
    return site


@pytest.fixture(scope="session")
def heads_opening(heads_lab, heads_sweep, heads_site) -> S.OpeningScreen:
    return S.opening_screen(heads_lab, heads_sweep, heads_site.block)


@pytest.fixture(scope="session")
def heads_main_screen(heads_lab, heads_site, heads_opening) -> S.MainScreen:
    return S.main_screen(heads_lab, heads_site.block)


@pytest.fixture(scope="session")
def heads_first_crossing(heads_lab, heads_site, heads_opening,
                         heads_main_screen) -> S.FirstCrossing:
    return S.first_crossing(heads_lab, heads_site.block, heads_opening.retrieval_head)


@pytest.fixture(scope="session")
def heads_challenged(heads_lab, heads_main_screen, heads_first_crossing) -> S.ChallengedScreen:
    return S.challenged_screen(heads_lab, heads_main_screen, heads_first_crossing)


@pytest.fixture(scope="session")
def heads_content(heads_lab, heads_first_crossing, heads_challenged) -> S.ContentEffects:
    return S.content_effects(heads_lab, heads_first_crossing, heads_challenged.support_head)


@pytest.fixture(scope="session")
def heads_joint(heads_lab, heads_first_crossing, heads_content) -> S.JointCrossing:
    return S.joint_crossing(heads_lab, heads_first_crossing, heads_content)


@pytest.fixture(scope="session")
def heads_grid(heads_lab, heads_first_crossing, heads_content, heads_joint) -> S.Grid:
    return S.grid(heads_lab, heads_first_crossing, heads_content)


@pytest.fixture(scope="session")
def heads_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "heads")
