"""Seed 003 §5–§6 as the register describes them (the seed file stops after §4): the source
swap and the answer lookback.
"""
from __future__ import annotations

from claims.lookback.shared import ANSWER_KEPT, RATE, REGISTER, SOURCE_KEPT, SWAPPED
from harness.attribute_readout import attributes
from harness.claims import Holds, claim
from harness.criteria import (Binomial, BinomialAtMost, BinomialRate, CurveBinomial, Exact,
                              PeakLayer, all_of)
from harness.nulls import NoNull, Null, Repeated
from harness.sources.lookback.known_answers import KNOWN
from harness.sources.lookback import readouts


SOURCE_FREEZE = [0.0, 0.0, 0.0, 0.011, 0.275, 0.473, 0.473, 0.473, 0.473, 0.473, 0.473, 0.473,
                 0.473, 0.473, 0.484, 0.473]
POINTER = [0.0] * 12 + [0.23, 0.29, 0.41, 0.82, 0.90, 0.77, 0.73, 0.81, 0.76, 0.66, 0.60, 0.43, 0.05]
PAYLOAD = [0.0] * 23 + [0.09, 0.23, 0.48, 0.64, 0.95, 0.94, 0.94, 1.00, 1.00]


test_source_identity = claim("lookback.source-identity", reads="lookback_source_plain", readout=readouts.source_identity,
    statement="The source swap at layer 0 only moves entities between slots, not identities: the answer is unchanged.",
    headline="IIA {iia:.3f}, clean answer kept {clean_survives:.3f} (n={n})",
    published={"iia": 0.0, "clean_survives": 1.0, "n": SOURCE_KEPT}, provenance=REGISTER.format(5),
    criterion=all_of(BinomialRate("iia"), BinomialRate("clean_survives")),
    guards=SWAPPED,
    holds=Holds(all_of(Exact("iia"), Exact("clean_survives")), behavioural=True),
    decisions=("read off the no-freeze sweep's L = 0 point (the register does not say whether "
               "the freeze applies; at layer 0 only, the entities have not yet been bound)",))


test_source_oi = claim("lookback.source-oi", reads=("lookback_source_freeze", "lookback_source_kept", "lookback_source_rows"), readout=readouts.source_oi,
    statement="Swapping character and object residuals at layers 0..L with the drinks frozen moves the answer from L = 8 on (IIA 0.473).",
    headline="IIA curve on {kept}/{rows} kept samples",
    published={"last_layers": list(range(0, 31, 2)), "iia": SOURCE_FREEZE, "n": SOURCE_KEPT, "kept": SOURCE_KEPT,
               "rows": 120},
    provenance=REGISTER.format(5),
    criterion=all_of(CurveBinomial("iia"), Binomial("kept", "rows")),
    tolerance=RATE, known_answer=KNOWN["lookback.source-oi"],
    decisions=("the register states L = 0..10 exactly and 'flat at 0.473 after (0.484 at "
               "0..28)'; L = 12..30 are encoded as 0.473 except 0.484 at L = 28",
               "the freeze pins the drink positions at every layer of the model"),
    null=Null({"iia": Repeated(0.0, like="iia")},
              why="a source swap that moves nothing leaves every answer the clean one, never "
                  "the target: IIA 0 at every L"))


test_source_no_freeze = claim("lookback.source-no-freeze", reads="lookback_source_plain", readout=readouts.source_no_freeze,
    statement="Without the drink freeze the same source swap never moves the answer (IIA ≤ {max_iia}).",
    headline="max IIA {max_iia:.3f} (n={n})",
    published={"max_iia": 0.033, "n": SOURCE_KEPT}, provenance=REGISTER.format(5),
    criterion=BinomialAtMost("max_iia"), tolerance=RATE,
    known_answer=KNOWN["lookback.source-no-freeze"],
    null=NoNull("the finding is itself the absence of an effect: "
                "without the drink freeze the source swap never moves the "
                "answer; its no-effect outcome (IIA 0) is what it reports, and its contrast "
                "is lookback.source-oi, the same swap with the freeze"))


test_answer_pointer = claim("lookback.answer-pointer", reads=("lookback_answer", "lookback_answer_kept", "lookback_answer_rows"), readout=readouts.answer_pointer,
    statement="The final token carries a pointer from layer 12 to 23: its residual from an other-character story answers the clean story's other drink (0.90 at L16).",
    headline="pointer curve on {kept}/{rows} kept samples",
    published={"pointer_l0_l24": POINTER, "peak_layer": 16, "n": ANSWER_KEPT, "kept": ANSWER_KEPT, "rows": 140},
    provenance=REGISTER.format(6),
    criterion=all_of(CurveBinomial("pointer_l0_l24"), PeakLayer("pointer"),
                     Binomial("kept", "rows")),
    tolerance=RATE, known_answer=KNOWN["lookback.answer-pointer"],
    decisions=("the register gives the pointer curve through L24 only; later layers are "
               "recorded, not judged",),
    null=Null({"pointer_l0_l24": Repeated(0.0, like="pointer_l0_l24"),
               "pointer": Repeated(0.0, like="pointer")},
              why="a final-token patch that moves nothing leaves every answer the clean "
                  "story's own drink, never its other drink: 0 at every layer"))


test_answer_payload = claim("lookback.answer-payload", reads="lookback_answer",
    readout=attributes("payload", "n"),
    statement="From layer 23 on the final token carries the payload: the counterfactual-only drink (0.95 at L27, 1.00 at L30–31).",
    headline="payload curve over {n} samples",
    published={"payload": PAYLOAD, "n": ANSWER_KEPT}, provenance=REGISTER.format(6),
    criterion=CurveBinomial("payload"), tolerance=RATE,
    known_answer=KNOWN["lookback.answer-payload"],
    null=Null({"payload": Repeated(0.0, like="payload")},
              why="a final-token patch that moves nothing leaves every answer the clean "
                  "story's own drink, never the counterfactual-only drink, which the clean "
                  "story does not contain: 0 at every layer"))
