"""Seed 003 §2 and §4: the behaviour the studies filter on, and the binding lookback's
interchanges (§4 from the seed).
"""
from __future__ import annotations

from claims.lookback.shared import (BINDING_KEPT, BOUND, NB, RATE, REVERSED, REVERSED_PEAK,
                                    REVERSED_PEAK_LAYER)
from harness.attribute_readout import attributes
from harness.claims import Holds, claim
from harness.snapshots import Tolerance
from harness.criteria import Binomial, BinomialRate, CurveBinomial, Exact, PeakLayer, all_of
from harness.nulls import NoNull, Null, Repeated
from harness.sources.lookback import readouts
from harness.sources.lookback.known_answers import KNOWN

# §4: a binding sweep's peak IIA and layer, of n rows, with its IIA and clean-answer curves.
PEAK = attributes("peak_iia", "peak_layer", "n", "iia", "clean_survives")


test_belief_accuracy = claim("lookback.belief-accuracy", reads="lookback_behaviour", readout=readouts.belief_accuracy,
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
    tolerance=RATE,
    null=Null({"belief": 0.5, "belief_own": 1.0, "belief_other": 0.0},
              why="the reality strategy, the notebook's no-belief baseline that reports the "
                  "container's actual contents, is right on every own-container question and "
                  "on no other-container one: 0.50 overall"))


test_visibility_fails = claim("lookback.visibility-fails", reads="lookback_visibility",
    readout=attributes("observer", "non_observer", "paired", "n"),
    statement="In the visibility condition each question is near chance and both are right for {paired} of stories.",
    headline="observer {observer:.3f}, non-observer {non_observer:.3f}, both right {paired:.3f} of {n}",
    published={"observer": 0.535, "non_observer": 0.515, "paired": 0.295, "n": 200},
    provenance=NB.format(2),
    criterion=all_of(BinomialRate("observer"), BinomialRate("non_observer"), BinomialRate("paired")),
    tolerance=RATE,
    null=NoNull("the finding is itself the absence of an effect: "
                "the model answers the visibility questions near chance; "
                "its no-effect outcome (0.5 each, 0.25 paired) is what it reports, and its "
                "contrast is lookback.belief-accuracy, the no-visibility task it does above "
                "the reality strategy"))


test_error_filter = claim("lookback.error-filter", reads=("lookback_kept", "lookback_binding_rows"), readout=readouts.error_filter,
    statement="Samples answered correctly on both the clean and the counterfactual prompt.",
    headline="{kept}/{n} samples kept",
    published={"kept": BINDING_KEPT, "n": 120}, provenance=NB.format(4), criterion=Binomial("kept"),
    tolerance=Tolerance(abs=3),
    null=NoNull("a count of the rows kept for §4's interchanges, reporting no effect: "
                "they are own-container questions, which the reality strategy (the no-belief "
                "baseline) answers too, so no value of it stands for 'no effect'"))


test_self_patch_identity = claim("lookback.self-patch-identity", reads="lookback_self_patch", readout=readouts.self_patch_identity,
    statement="Writing the clean run's own drink-position values back through the barrier machinery is bit-identical.",
    headline="identical: {all_identical}, max abs diff {max_abs_diff:g} at layers {layers}",
    published={"layers": [0, 8, 16, 24, 31], "all_identical": True, "max_abs_diff": 0.0},
    provenance=NB.format(4), criterion=Exact("all_identical"),
    holds=Holds(Exact("all_identical")), guards=BOUND + ("lookback_answer",),
    decisions=("run on the first 24 kept samples, as the notebook does, or on the first 24 "
               "binding rows when fewer are kept",))


test_binding_iia = claim("lookback.binding-iia", reads="lookback_reversed", readout=PEAK,
    statement="Swapping the drink tokens' residuals between reversed-order stories moves the answer (IIA {peak_iia} at layer {peak_layer}).",
    headline="IIA {peak_iia:.3f} at layer {peak_layer} (n={n})",
    published={"peak_iia": REVERSED_PEAK, "peak_layer": REVERSED_PEAK_LAYER, "n": BINDING_KEPT}, provenance=NB.format(4),
    criterion=all_of(BinomialRate("peak_iia"), PeakLayer("iia")),
    tolerance=RATE,
    null=Null({"peak_iia": 0.0, "iia": Repeated(0.0, like="iia")},
              why="a swap that moves nothing leaves every answer the clean one, never the "
                  "target: IIA 0 at every layer"))


test_same_position = claim("lookback.same-position", reads="lookback_same_position", readout=PEAK,
    statement="Copying the counterfactual's drink residuals straight across peaks at IIA {peak_iia} at layer {peak_layer}.",
    headline="IIA {peak_iia:.3f} at layer {peak_layer} (n={n})",
    published={"peak_iia": 0.912, "peak_layer": 5, "n": BINDING_KEPT}, provenance=NB.format(4),
    criterion=all_of(BinomialRate("peak_iia"), PeakLayer("iia")),
    tolerance=RATE,
    null=Null({"peak_iia": 0.0, "iia": Repeated(0.0, like="iia")},
              why="a copy that moves nothing leaves every answer the clean one, never the "
                  "target: IIA 0 at every layer"))


test_opaque_control = claim("lookback.opaque-control", reads="lookback_opaque", readout=PEAK,
    statement="The same reversed swap at the two 'opaque' tokens never moves the answer.",
    headline="peak IIA {peak_iia:.3f} (n={n})",
    published={"peak_iia": 0.0, "n": BINDING_KEPT}, provenance=NB.format(4),
    criterion=BinomialRate("peak_iia"), tolerance=RATE,
    null=NoNull("the finding is itself the absence of an effect: "
                "the reversed swap at the 'opaque' tokens never moves the "
                "answer; its no-effect outcome (IIA 0) is what it reports, and its contrast "
                "is lookback.binding-iia, the same swap at the drink tokens"))


test_reversed_curve = claim("lookback.reversed-curve", reads="lookback_reversed",
    readout=attributes("iia", "peak_layer", "n", "clean_survives"),
    statement="The whole reversed-swap IIA curve: zero to layer 7, a plateau near 0.75 at layers 12–16, back to zero.",
    headline="IIA curve peaks at layer {peak_layer} (n={n})",
    published={"iia": REVERSED, "peak_layer": REVERSED_PEAK_LAYER, "n": BINDING_KEPT}, provenance=NB.format(4),
    criterion=all_of(CurveBinomial("iia"), PeakLayer("iia")),
    tolerance=RATE, known_answer=KNOWN["lookback.reversed-curve"],
    decisions=("clean-answer survival is recorded beside the curve; the register gives it only "
               "in words (0.94–0.98 through L10, 0.04 at L14–15, 1.00 at L31)",),
    null=Null({"iia": Repeated(0.0, like="iia")},
              why="a swap that moves nothing leaves every answer the clean one, never the "
                  "target: IIA 0 at every layer"))
