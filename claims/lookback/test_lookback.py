"""Seed 003, "Language Models Use Lookbacks to Track Beliefs": the `lookback.*` rows carried so far.

§1–§4 from the seed; §5–§7 as the register describes them (the seed file stops after §4).
"""
from __future__ import annotations

from harness.claims import Holds, Tolerance, claim
from harness.criteria import (Binomial, BinomialAtMost, BinomialRate, CurveBinomial, Exact,
                              PeakLayer, Same, all_of)
from harness.sources.lookback.task import sample_summary


@claim("lookback.samples", kind="anchor", section="1–4", needs="cpu",
       statement="The seeded generators reproduce the notebook's worked example, eval split and binding row 0.",
       headline="eval split {own} own / {other} other; binding row 0 answers {binding_target}",
       published={"worked_example": [["Joe", "Ellen"], ["tun", "cup"], ["gin", "bourbon"]],
                  "own": 104, "other": 96,
                  "binding_row0": [["Diane", "Karen"], ["horn", "cup"], ["tea", "port"]],
                  "binding_queried": 0, "binding_target": "port"},
       provenance="seed 003 notebook output, §1 (worked example), §2 (n=104/96), §4 (row 0)",
       criterion=all_of(Exact("worked_example"), Exact("own"), Exact("other"),
                        Exact("binding_row0"), Exact("binding_queried"), Exact("binding_target")))
def test_samples(judge):
    judge(sample_summary())


@claim("lookback.single-token-entities", kind="anchor", section="1", needs="hub",
       statement="Every character, object and state is one token when preceded by a space.",
       headline="{characters} characters, {objects} objects, {states} states; all one token: {all_single_token}",
       published={"characters": 30, "objects": 18, "states": 21, "all_single_token": True},
       provenance="seed 003 notebook output, §1",
       criterion=all_of(Exact("characters"), Exact("objects"), Exact("states"),
                        Exact("all_single_token")))
def test_single_token_entities(judge, lookback_single_tokens):
    r = lookback_single_tokens
    assert not any(r.multi.values()), r.multi
    judge({**r.single, "all_single_token": not any(r.multi.values())})


@claim("lookback.aligned-prompts", kind="anchor", section="4", needs="hub",
       statement="Every clean and counterfactual prompt has the same length and the same entity positions.",
       headline="length {length}, drinks at {drinks[0]} and {drinks[1]}; all aligned: {all_aligned}",
       published={"length": 181, "names": [131, 133, 146, 158], "objects": [150, 162],
                  "drinks": [155, 167], "after_drinks": [156, 168], "opaque": [149, 161],
                  "all_aligned": True},
       provenance="seed 003 notebook output, §4 (positions printed for build_binding row 0)",
       criterion=all_of(*(Exact(k) for k in ("length", "names", "objects", "drinks",
                                             "after_drinks", "opaque", "all_aligned"))),
       decisions=("positions are located by character offsets, not hard-coded; the check covers "
                  "build_binding, build_source and build_answer, clean and counterfactual",
                  "prompts are built as the profile builds them (the organism's drop the instruction)"),
       holds=Holds(Exact("all_aligned")))
def test_aligned_prompts(judge, lookback_alignment):
    a = lookback_alignment
    judge({**vars(a.first), "all_aligned": not a.misaligned, "prompts_checked": a.checked})


@claim("lookback.intervention-tokens", kind="anchor", section="4–6", needs="hub",
       statement="In every binding, source and answer prompt, each position an intervention writes holds that prompt's own one-token entity, '.'/'.\\n' after each drink, 'opaque', BOS first and ':' last.",
       headline="{after_drink_tokens[0]!r} and {after_drink_tokens[1]!r} after the drinks",
       published={"after_drink_tokens": [".", ".\n"]},
       provenance="seed 003 notebook output, §4 (positions 156 '.' and 168 '.\\n' printed for "
                  "build_binding row 0); elsewhere its assumption that the literal indices "
                  "(STATE_POS, OPAQUE_POS, CHAR_POS, OBJ_POS) fit every prompt",
       criterion=Exact("after_drink_tokens"),
       decisions=("positions are binding row 0's clean layout, as the notebook's literal indices "
                  "are; every row of the three sets, clean and counterfactual, must hold its own "
                  "entities there (names, containers, drinks), tokenised with BOS as the model "
                  "reads them",
                  "prompts are built as the profile builds them (the organism's drop the instruction)"))
def test_intervention_tokens(judge, lookback_intervention_tokens):
    t = lookback_intervention_tokens
    assert not t.failures, f"{len(t.failures)} mismatches of {t.prompts} prompts: {t.failures[:8]}"
    judge(t.measured())


NB = "seed 003 notebook output, §{}"
SETUP = ("lookback.samples", "lookback.single-token-entities")
ALIGNED = ("lookback.aligned-prompts", "lookback.intervention-tokens")
BINDING = SETUP + ALIGNED + ("lookback.self-patch-identity", "lookback.interchange-fires-once")
RATE = Tolerance(abs=0.03)
REVERSED = [0.0] * 8 + [0.0098, 0.0196, 0.0490, 0.3431, 0.7255, 0.7255, 0.7549, 0.7745, 0.7255,
                        0.2157, 0.1765, 0.3529, 0.2353, 0.1569, 0.1667, 0.1078, 0.0294, 0.0098,
                        0.0196, 0.0098, 0.0098, 0.0098, 0.0, 0.0]


@claim("lookback.belief-accuracy", kind="claim", section="2",
       statement="The model answers the no-visibility belief question above the 0.50 reality strategy, worse on 'unknown'.",
       headline="belief {belief:.3f} of {n} (own {belief_own:.3f}, other {belief_other:.3f}); reality {reality:.3f}",
       published={"belief": 0.745, "belief_own": 0.856, "belief_other": 0.625, "n": 200,
                  "n_own": 104, "n_other": 96, "reality": 0.940, "reality_own": 0.942,
                  "reality_other": 0.938, "explicit": 0.565, "explicit_own": 0.625,
                  "explicit_other": 0.500, "most_common": ["unknown", 61]},
       provenance=NB.format(2),
       criterion=all_of(BinomialRate("belief"), BinomialRate("belief_own", "n_own"),
                        BinomialRate("belief_other", "n_other"), BinomialRate("reality"),
                        BinomialRate("explicit")),
       requires=SETUP, tolerance=RATE)
def test_belief_accuracy(judge, lookback_behaviour):
    b = lookback_behaviour
    judge({**{k: getattr(b[name], attr) for name in ("belief", "reality", "explicit")
              for k, attr in ((name, "overall"), (f"{name}_own", "own"), (f"{name}_other", "other"))},
           "n": len(b["belief"].predictions), "n_own": b["belief"].n_own,
           "n_other": b["belief"].n_other, "most_common": b["belief"].most_common})


@claim("lookback.visibility-fails", kind="claim", section="2",
       statement="In the visibility condition each question is near chance and both are right for 0.295 of stories.",
       headline="observer {observer:.3f}, non-observer {non_observer:.3f}, both right {paired:.3f} of {n}",
       published={"observer": 0.535, "non_observer": 0.515, "paired": 0.295, "n": 200},
       provenance=NB.format(2),
       criterion=all_of(BinomialRate("observer"), BinomialRate("non_observer"), BinomialRate("paired")),
       requires=SETUP, tolerance=RATE)
def test_visibility_fails(judge, lookback_visibility):
    judge(vars(lookback_visibility))


@claim("lookback.error-filter", kind="measurement", section="4",
       statement="Samples answered correctly on both the clean and the counterfactual prompt.",
       headline="{kept}/{n} samples kept",
       published={"kept": 102, "n": 120}, provenance=NB.format(4), criterion=Binomial("kept"),
       requires=SETUP, tolerance=Tolerance(abs=3))
def test_error_filter(judge, lookback_kept, lookback_binding_rows):
    judge({"kept": len(lookback_kept), "n": len(lookback_binding_rows)})


@claim("lookback.self-patch-identity", kind="anchor", section="4",
       statement="Writing the clean run's own drink-position values back through the barrier machinery is bit-identical.",
       headline="identical: {all_identical}, max abs diff {max_abs_diff:g} at layers {layers}",
       published={"layers": [0, 8, 16, 24, 31], "all_identical": True, "max_abs_diff": 0.0},
       provenance=NB.format(4), criterion=Exact("all_identical"),
       holds=Holds(Exact("all_identical")), requires=SETUP + ALIGNED,
       decisions=("run on the first 24 kept samples, as the notebook does, or on the first 24 "
                  "binding rows when fewer are kept",))
def test_self_patch_identity(judge, lookback_self_patch):
    r = lookback_self_patch
    judge({"layers": r.layers, "all_identical": all(r.identical), "max_abs_diff": max(r.max_abs_diff)})


def _peak(sweep) -> dict:
    return {"peak_iia": sweep.peak_iia, "peak_layer": sweep.peak_layer, "n": sweep.n,
            "iia": sweep.iia, "clean_survives": sweep.clean_survives}


@claim("lookback.binding-iia", kind="claim", section="4",
       statement="Swapping the drink tokens' residuals between reversed-order stories moves the answer (IIA 0.775 at layer 15).",
       headline="IIA {peak_iia:.3f} at layer {peak_layer} (n={n})",
       published={"peak_iia": 0.775, "peak_layer": 15, "n": 102}, provenance=NB.format(4),
       criterion=all_of(BinomialRate("peak_iia"), PeakLayer("iia")), requires=BINDING,
       tolerance=RATE)
def test_binding_iia(judge, lookback_reversed):
    judge(_peak(lookback_reversed))


@claim("lookback.same-position", kind="claim", section="4",
       statement="Copying the counterfactual's drink residuals straight across peaks at IIA 0.912 at layer 5.",
       headline="IIA {peak_iia:.3f} at layer {peak_layer} (n={n})",
       published={"peak_iia": 0.912, "peak_layer": 5, "n": 102}, provenance=NB.format(4),
       criterion=all_of(BinomialRate("peak_iia"), PeakLayer("iia")), requires=BINDING,
       tolerance=RATE)
def test_same_position(judge, lookback_same_position):
    judge(_peak(lookback_same_position))


@claim("lookback.opaque-control", kind="claim", section="4",
       statement="The same reversed swap at the two 'opaque' tokens never moves the answer.",
       headline="peak IIA {peak_iia:.3f} (n={n})",
       published={"peak_iia": 0.0, "n": 102}, provenance=NB.format(4),
       criterion=BinomialRate("peak_iia"), requires=BINDING, tolerance=RATE)
def test_opaque_control(judge, lookback_opaque):
    judge(_peak(lookback_opaque))


@claim("lookback.reversed-curve", kind="claim", section="4",
       statement="The whole reversed-swap IIA curve: zero to layer 7, a plateau near 0.75 at layers 12–16, back to zero.",
       headline="IIA curve peaks at layer {peak_layer} (n={n})",
       published={"iia": REVERSED, "peak_layer": 15, "n": 102}, provenance=NB.format(4),
       criterion=all_of(CurveBinomial("iia"), PeakLayer("iia")), requires=BINDING,
       tolerance=RATE,
       decisions=("clean-answer survival is recorded beside the curve; the register gives it only "
                  "in words (0.94–0.98 through L10, 0.04 at L14–15, 1.00 at L31)",))
def test_reversed_curve(judge, lookback_reversed):
    s = lookback_reversed
    judge({"iia": s.iia, "peak_layer": s.peak_layer, "n": s.n, "clean_survives": s.clean_survives})


REGISTER = "the claims register's account of seed 003 §{} (published in the same notebook)"
SOURCE_FREEZE = [0.0, 0.0, 0.0, 0.011, 0.275, 0.473, 0.473, 0.473, 0.473, 0.473, 0.473, 0.473,
                 0.473, 0.473, 0.484, 0.473]
POINTER = [0.0] * 12 + [0.23, 0.29, 0.41, 0.82, 0.90, 0.77, 0.73, 0.81, 0.76, 0.66, 0.60, 0.43, 0.05]
PAYLOAD = [0.0] * 23 + [0.09, 0.23, 0.48, 0.64, 0.95, 0.94, 0.94, 1.00, 1.00]
SOURCE = SETUP + ALIGNED + ("lookback.source-identity", "lookback.source-swap-fires-once")
FROZEN = SOURCE + ("lookback.freeze-fires-once",)
ANSWER = SETUP + ALIGNED + ("lookback.self-patch-identity", "lookback.answer-fires-once")


@claim("lookback.source-identity", kind="anchor", section="5",
       statement="The source swap at layer 0 only moves entities between slots, not identities: the answer is unchanged.",
       headline="IIA {iia:.3f}, clean answer kept {clean_survives:.3f} (n={n})",
       published={"iia": 0.0, "clean_survives": 1.0, "n": 91}, provenance=REGISTER.format(5),
       criterion=all_of(BinomialRate("iia"), BinomialRate("clean_survives")),
       requires=SETUP + ALIGNED + ("lookback.source-swap-fires-once",),
       holds=Holds(all_of(Exact("iia"), Exact("clean_survives")), behavioural=True),
       decisions=("read off the no-freeze sweep's L = 0 point (the register does not say whether "
                  "the freeze applies; at layer 0 only, the entities have not yet been bound)",))
def test_source_identity(judge, lookback_source_plain):
    s = lookback_source_plain
    judge({"iia": s.iia[0], "clean_survives": s.clean_survives[0], "n": s.n})


@claim("lookback.source-oi", kind="claim", section="5",
       statement="Swapping character and object residuals at layers 0..L with the drinks frozen moves the answer from L = 8 on (IIA 0.473).",
       headline="IIA curve on {kept}/{rows} kept samples",
       published={"last_layers": list(range(0, 31, 2)), "iia": SOURCE_FREEZE, "n": 91, "kept": 91,
                  "rows": 120},
       provenance=REGISTER.format(5),
       criterion=all_of(CurveBinomial("iia"), Binomial("kept", "rows")), requires=FROZEN,
       tolerance=RATE,
       decisions=("the register states L = 0..10 exactly and 'flat at 0.473 after (0.484 at "
                  "0..28)'; L = 12..30 are encoded as 0.473 except 0.484 at L = 28",
                  "the freeze pins the drink positions at every layer of the model"))
def test_source_oi(judge, lookback_source_freeze, lookback_source_kept, lookback_source_rows):
    s = lookback_source_freeze
    judge({"last_layers": s.last_layers, "iia": s.iia, "clean_survives": s.clean_survives,
           "n": s.n, "kept": len(lookback_source_kept), "rows": len(lookback_source_rows)})


@claim("lookback.source-no-freeze", kind="claim", section="5",
       statement="Without the drink freeze the same source swap never moves the answer (IIA ≤ 0.033).",
       headline="max IIA {max_iia:.3f} (n={n})",
       published={"max_iia": 0.033, "n": 91}, provenance=REGISTER.format(5),
       criterion=BinomialAtMost("max_iia"), requires=SOURCE, tolerance=RATE)
def test_source_no_freeze(judge, lookback_source_plain):
    s = lookback_source_plain
    judge({"max_iia": max(s.iia), "last_layers": s.last_layers, "iia": s.iia,
           "clean_survives": s.clean_survives, "n": s.n})


@claim("lookback.answer-pointer", kind="claim", section="6",
       statement="The final token carries a pointer from layer 12 to 23: its residual from an other-character story answers the clean story's other drink (0.90 at L16).",
       headline="pointer curve on {kept}/{rows} kept samples",
       published={"pointer_l0_l24": POINTER, "peak_layer": 16, "n": 102, "kept": 102, "rows": 140},
       provenance=REGISTER.format(6),
       criterion=all_of(CurveBinomial("pointer_l0_l24"), PeakLayer("pointer"),
                        Binomial("kept", "rows")),
       requires=ANSWER, tolerance=RATE,
       decisions=("the register gives the pointer curve through L24 only; later layers are "
                  "recorded, not judged",))
def test_answer_pointer(judge, lookback_answer, lookback_answer_kept, lookback_answer_rows):
    a = lookback_answer
    judge({"pointer_l0_l24": a.pointer[:25], "pointer": a.pointer, "clean": a.clean, "n": a.n,
           "kept": len(lookback_answer_kept), "rows": len(lookback_answer_rows)})


@claim("lookback.answer-payload", kind="claim", section="6",
       statement="From layer 23 on the final token carries the payload: the counterfactual-only drink (0.95 at L27, 1.00 at L30–31).",
       headline="payload curve over {n} samples",
       published={"payload": PAYLOAD, "n": 102}, provenance=REGISTER.format(6),
       criterion=CurveBinomial("payload"), requires=ANSWER, tolerance=RATE)
def test_answer_payload(judge, lookback_answer):
    a = lookback_answer
    judge({"payload": a.payload, "n": a.n})


@claim("lookback.low-rank-anchor", kind="anchor", section="7",
       statement="The unrestricted reversed swap at the peak layer on the held-out half gives IIA 0.745.",
       headline="unrestricted IIA {unrestricted:.3f} on {n} held-out samples",
       published={"unrestricted": 0.745, "n": 51}, provenance=REGISTER.format(7),
       criterion=BinomialRate("unrestricted"), holds=Holds(Same("unrestricted", "interchange")),
       requires=BINDING + ("lookback.low-rank-fires-once",),
       decisions=("the machinery check: writing h_src (the unrestricted h_dst + (h_src − h_dst), "
                  "which bf16 need not round back to h_src) in the interchange's batches must "
                  "score exactly as the barrier interchange does on the same samples",))
def test_low_rank_anchor(judge, lookback_low_rank):
    r = lookback_low_rank
    judge({"unrestricted": r.unrestricted, "interchange": r.interchange, "n": r.held_out,
           "layer": r.layer})


@claim("lookback.low-rank", kind="claim", section="7",
       statement="A rank-2 fitted subspace of the swap differences carries the ordering ID; random subspaces carry nothing.",
       headline="rank {ranks[1]}: fitted IIA {fitted[1]:.3f}, random {random[1]:.3f} (n={n})",
       published={"ranks": [1, 2, 4, 8, 16, 32, 64, 128],
                  "fitted": [0.0, 0.725, 0.706, 0.725, 0.725, 0.706, 0.745, 0.765],
                  "random": [0.0] * 8, "directions": 204, "difference_vectors": 204, "n": 51},
       provenance=REGISTER.format(7),
       criterion=all_of(CurveBinomial("fitted"), CurveBinomial("random")),
       requires=BINDING + ("lookback.low-rank-anchor", "lookback.low-rank-fires-once"),
       tolerance=RATE,
       decisions=("the organism's ranks stop at its width (profile)",))
def test_low_rank(judge, lookback_low_rank):
    r = lookback_low_rank
    judge({"ranks": r.ranks, "fitted": r.fitted, "random": r.random, "directions": r.directions,
           "difference_vectors": r.difference_vectors, "n": r.held_out, "layer": r.layer})
