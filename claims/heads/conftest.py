"""Fixtures for seed 001: the tokenizer, the problem sets, and each study run once; every study
receives the results it builds on as arguments. They are package-scoped, so the model and what
was measured on it are released once this folder's tests are done."""
from __future__ import annotations

from typing import Callable

import pytest

from harness import catalogue
from harness.models.loaded import Loaded, load_tokenizer
from harness.plugin import model_for
from harness.profiles import Profile
from harness.sources import source
from harness.sources.heads import (challenged_screen, content_effects, crossings, grid, screens,
                                   sweep)
from harness.sources.heads.anchors import groups, machinery, readback
from harness.sources.heads.observations import HeadsLab
from harness.sources.heads.sizes import HeadsSizes
from harness.sources.heads.task import ProblemSets, problem_sets, single_token_filter


@pytest.fixture(scope="package")
def heads_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "heads")


@pytest.fixture(scope="package")
def heads_sizes(profile: Profile) -> HeadsSizes:
    """This profile's sizes for seed 001."""
    return profile.sizes["heads"]


@pytest.fixture(scope="package")
def heads_tokenizer(profile: Profile):
    """Qwen2.5's tokenizer at the pinned revision on published; the organism's otherwise."""
    return load_tokenizer(profile.models["heads"])


@pytest.fixture(scope="package")
def heads_single_token(heads_tokenizer) -> Callable[[str], bool]:
    """§1's single-token filter under the session's tokenizer."""
    return single_token_filter(heads_tokenizer)


@pytest.fixture(scope="package")
def heads_families(heads_single_token) -> ProblemSets:
    """§1: the opening set, and the main set restricted to single-token objects."""
    return problem_sets(heads_single_token)


@pytest.fixture(scope="package")
def heads_reference_forward(heads_model, heads_families, heads_sizes) -> machinery.Checks:
    """§1: the nnsight run against an independent plain-PyTorch forward, edits included."""
    return machinery.reference_equality(heads_model, heads_families.opening[0], heads_sizes.anchor_blocks)


@pytest.fixture(scope="package")
def heads_edit_receipts(heads_model, heads_families, heads_sizes) -> machinery.Checks:
    """§1: every edit is the tensor consumed, and nothing else moved."""
    return machinery.edit_receipts(heads_model, heads_families.opening[0], heads_sizes.anchor_blocks)


@pytest.fixture(scope="package")
def heads_residual_identity(heads_model, heads_families, heads_sizes) -> machinery.Checks:
    """§2: R's own final residual patched into each block input."""
    return machinery.residual_identity(heads_model, heads_families.opening[0], heads_sizes.anchor_blocks)


@pytest.fixture(scope="package")
def heads_head_identity(heads_model, heads_families, heads_sizes) -> machinery.Checks:
    """§2: each head's own final-position output patched back, in H and in O."""
    return machinery.head_identity(heads_model, heads_families.opening[0], heads_sizes.anchor_blocks,
                           heads_sizes.anchor_heads)


@pytest.fixture(scope="package")
def heads_av_identity(heads_model, heads_families, heads_sizes) -> machinery.Checks:
    """§4: O-attention with O-values recomposing each head's Z slice."""
    return machinery.av_identity(heads_model, heads_families.main[0], heads_sizes.anchor_blocks,
                         heads_sizes.anchor_heads)


@pytest.fixture(scope="package")
def heads_kv_groups(heads_model, heads_families, heads_sizes) -> machinery.Checks:
    """§4 with a foreign value bank (D's values plus seeded noise) at query heads whose KV group
    the wrong mappings disagree on, against a plain forward placing it by transformers' repeat_kv."""
    return groups.kv_groups(heads_model, heads_families.main[0], heads_sizes.anchor_blocks)


@pytest.fixture(scope="package")
def heads_lab(heads_model: Loaded, heads_families: ProblemSets,
              heads_sizes: HeadsSizes) -> HeadsLab:
    """The session's one observation record: every condition is run once and shared; the
    studies run on the first families of each set the profile's sizes name."""
    return HeadsLab(heads_model, heads_families.opening[:heads_sizes.opening_families],
                    heads_families.main[:heads_sizes.main_families], heads_sizes.sweep_blocks,
                    heads_sizes.screen_heads)


@pytest.fixture(scope="package")
def heads_sweep(heads_lab: HeadsLab) -> sweep.ResidualSweep:
    return sweep.residual_sweep(heads_lab)


@pytest.fixture(scope="package")
def heads_site(heads_lab: HeadsLab, heads_sweep: sweep.ResidualSweep,
               heads_sizes: HeadsSizes) -> sweep.Site:
    """§2's selected block, or the profile's smoke-test block when the rule gives none usable."""
    site = sweep.site_for(heads_sweep, heads_lab.geometry.n_blocks, heads_sizes.smoke_block)
    if site is None:
        pytest.skip(f"§2's rule selected {heads_sweep.retrieval_block}, which leaves no block and "
                    "next block to study, and this profile has no smoke-test block")
    return site


@pytest.fixture(scope="package")
def heads_opening(heads_lab: HeadsLab, heads_sweep: sweep.ResidualSweep,
                  heads_site: sweep.Site) -> screens.OpeningScreen:
    return screens.opening_screen(heads_lab, heads_sweep, heads_site.block)


@pytest.fixture(scope="package")
def heads_main_screen(heads_lab: HeadsLab, heads_site: sweep.Site) -> screens.MainScreen:
    return screens.main_screen(heads_lab, heads_site.blocks)


@pytest.fixture(scope="package")
def heads_sweep_readback(heads_model: Loaded, heads_lab: HeadsLab, heads_sweep: sweep.ResidualSweep,
                         heads_sizes: HeadsSizes) -> machinery.Checks:
    """§2: the sweep's blocks against the config or the sizes, and its first family read back."""
    declared = readback.declared_blocks(heads_model, heads_sizes.sweep_blocks)
    return readback.sweep_readback(heads_model, heads_lab, heads_sweep, declared)


@pytest.fixture(scope="package")
def heads_native_answers(heads_lab: HeadsLab, heads_main_screen: screens.MainScreen) -> dict:
    """§3–§6: the main families' native O answers, once the main screen has run them."""
    return readback.native_answers(heads_lab)


@pytest.fixture(scope="package")
def heads_screen_readback(heads_model: Loaded, heads_lab: HeadsLab, heads_opening: screens.OpeningScreen,
                          heads_main_screen: screens.MainScreen) -> machinery.Checks:
    """§2–§3: both screens' first family in O against the reference forward, and their rankings."""
    found = readback.screen_readback(heads_model, heads_opening.screen, heads_lab.opening[0])
    main = readback.screen_readback(heads_model, heads_main_screen.screen, heads_lab.main[0])
    for name, ok in main.results.items():
        found.add(f"main:{name}", ok)
    return found


@pytest.fixture(scope="package")
def heads_first_crossing(heads_lab: HeadsLab, heads_site: sweep.Site,
                         heads_opening: screens.OpeningScreen) -> crossings.FirstCrossing:
    return crossings.first_crossing(heads_lab, heads_site.blocks, heads_opening.retrieval_head)


@pytest.fixture(scope="package")
def heads_challenged(heads_lab: HeadsLab, heads_main_screen: screens.MainScreen,
                     heads_first_crossing: crossings.FirstCrossing) -> challenged_screen.ChallengedScreen:
    return challenged_screen.challenged_screen(heads_lab, heads_main_screen, heads_first_crossing)


@pytest.fixture(scope="package")
def heads_content(heads_lab: HeadsLab, heads_first_crossing: crossings.FirstCrossing,
                  heads_challenged: challenged_screen.ChallengedScreen) -> content_effects.ContentEffects:
    return content_effects.content_effects(heads_lab, heads_first_crossing, heads_challenged)


@pytest.fixture(scope="package")
def heads_joint(heads_lab: HeadsLab, heads_first_crossing: crossings.FirstCrossing,
                heads_content: content_effects.ContentEffects) -> grid.JointCrossing:
    return grid.joint_crossing(heads_lab, heads_first_crossing, heads_content)


@pytest.fixture(scope="package")
def heads_grid(heads_lab: HeadsLab, heads_main_screen: screens.MainScreen,
               heads_first_crossing: crossings.FirstCrossing, heads_challenged: challenged_screen.ChallengedScreen,
               heads_content: content_effects.ContentEffects, heads_joint: grid.JointCrossing) -> grid.Grid:
    return grid.grid(heads_lab, heads_main_screen, heads_first_crossing, heads_challenged,
                  heads_content, heads_joint)


@pytest.fixture(scope="package")
def heads_record_counts(heads_lab: HeadsLab, heads_grid: grid.Grid) -> machinery.RecordCounts:
    """§7: the lab's observations per study once every study ran, and every check it made."""
    return machinery.record_counts(heads_lab, heads_grid)


@pytest.fixture(scope="package")
def heads_breakages(profile: Profile, heads_model: Loaded, heads_sizes) -> dict:
    """The breakage catalogue's outcome on the organism (a skip on other profiles)."""
    if not profile.models["heads"].organism:
        pytest.skip(catalogue.ORGANISMS_ONLY)
    return catalogue.measured(catalogue.run(source("heads"), (heads_model, heads_sizes)))
