"""nnsight's activation-patching tutorial (activation_patching.ipynb): its printed numbers and
heatmap, and the anchors its sweep rests on."""
from __future__ import annotations

from harness import identity_check, rows_alone
from harness.catalogue import claim_fields as catalogue_fields
from harness.claims import Holds, claim
from harness.criteria import Every, Exact, InInterval, NoneOf, Recorded, all_of
from harness.nulls import Null, Repeated
from harness.fire_once import claim_fields as fire_once_fields
from harness.snapshots import Tolerance
from harness.sources.ioi_tutorial import readouts
from harness.sources.patching.readback import ROW_TOLERANCE_REASON
from harness.sources.patching.readouts import full_patch_identity

NB = "activation_patching.ipynb"
# The steps its anchors guard (harness/sources/ioi_tutorial/steps.py): the pair's ids, its clean
# and corrupted runs, and the sweep the heatmap reads.
PAIR, RUNS, SWEEP = ("tutorial_pair",), ("tutorial_runs",), ("tutorial_sweep",)
FLOAT = Tolerance(abs=1e-3, rel=1e-3)
NO_BOS = ("prompts tokenised as the notebook's LanguageModel does for GPT-2: no BOS, so the "
          "heatmap's positions are the prompt's own tokens",)
READING = ("the patch overwrites block L's hidden state at one position of the corrupted run's "
           "own batch row, the reading the heatmap shows (its cells before the swapped name are "
           "zero and its last layer restores fully at the last position); In[7]'s printed line "
           "indexes batch row L instead, which ioi_tutorial.notebook-line measures",)
FIRE_RULE = "the suite's fire-once rule, seed 000 §6's second prerequisite applied to the tutorial"


test_token_ids = claim("ioi_tutorial.token-ids", reads=("ioi_tutorial_tokenizer", "ioi_tutorial_sizes"), readout=readouts.token_ids,
    needs="hub", tokenizer_only=True,
    guards=PAIR,
    statement="' John' is id {correct_index} and ' Mary' id {incorrect_index}, each one token.",
    headline="' John' {correct_index}, ' Mary' {incorrect_index}; multi-token: {multi_token}",
    published={"correct_index": 1757, "incorrect_index": 5335},
    provenance=f"{NB}:78-79 (In[4]'s output)",
    criterion=all_of(Exact("correct_index"), Exact("incorrect_index")),
    holds=Holds(NoneOf("multi_token", of="names")),
    decisions=("the first id of each name, as the notebook reads input_ids[0]",))


test_aligned_pair = claim("ioi_tutorial.aligned-pair", reads=("ioi_tutorial_tokenizer", "ioi_tutorial_sizes"), readout=readouts.aligned_pair,
    needs="hub",
    tokenizer_only=True, guards=PAIR,
    statement="The clean and corrupted prompts are {positions} tokens each and differ only at the swapped name.",
    headline="{positions} positions, differing at {differing}; misaligned: {misaligned}",
    published={"positions": 16}, provenance=f"{NB}:237-252 (In[8]'s heatmap x axis)",
    criterion=Exact("positions"), holds=Holds(NoneOf("misaligned", of="pairs")),
    decisions=NO_BOS)


test_clean_logit_diff = claim("ioi_tutorial.clean-logit-diff", reads=("tutorial_pair", "tutorial_runs"), readout=readouts.logit_diffs,
    needs="hub",
    statement="After the clean prompt, logit(' John') − logit(' Mary') is {clean_logit_diff}.",
    headline="clean logit difference {clean_logit_diff:.4f}",
    published={"clean_logit_diff": 4.124, "printed_interval": [4.1235, 4.1245]},
    provenance=f"{NB}:191 (In[8]'s output, printed with :.3f)",
    criterion=InInterval("clean_logit_diff", "printed_interval", rounding=True), tolerance=FLOAT,
    decisions=NO_BOS + ("the criterion is the printed precision: half a unit in the third "
                        "decimal either side",),
    null=Null({"clean_logit_diff": 0.0},
              why="a model that does not do the IOI task prefers neither name after the "
                  "clean prompt: a logit difference of 0"))


test_corrupted_logit_diff = claim("ioi_tutorial.corrupted-logit-diff", reads=("tutorial_pair", "tutorial_runs"), readout=readouts.logit_diffs,
    needs="hub",
    statement="After the corrupted prompt, logit(' John') − logit(' Mary') is {corrupted_logit_diff}.",
    headline="corrupted logit difference {corrupted_logit_diff:.4f}",
    published={"corrupted_logit_diff": -2.272, "printed_interval": [-2.2725, -2.2715]},
    provenance=f"{NB}:192 (In[8]'s output, printed with :.3f)",
    criterion=InInterval("corrupted_logit_diff", "printed_interval", rounding=True), tolerance=FLOAT,
    decisions=NO_BOS + ("the criterion is the printed precision: half a unit in the third "
                        "decimal either side",),
    null=Null({"corrupted_logit_diff": 0.0},
              why="a model that does not do the IOI task prefers neither name after the "
                  "corrupted prompt: a logit difference of 0"))


test_restoring_positions = claim("ioi_tutorial.restoring-positions", reads="tutorial_sweep", readout=readouts.restoring_positions,
    needs="hub",
    statement="Patching the swapped name's position restores the clean answer in early layers, the last position in late ones.",
    headline="most-restoring position per layer: {peak_positions}",
    published={"peak_positions": [9] * 8 + [15] * 4},
    provenance=f"{NB}:256 (In[8]'s heatmap z values, one row per layer)",
    criterion=Exact("peak_positions"), tolerance=FLOAT,
    decisions=NO_BOS + READING + (
        "each layer's brightest cell is read from the plotted values; the crossover layer's "
        "two cells differ by far more than the float32 noise of a GPU against a CPU run",),
    null=Null({"peak_positions": Repeated(0, like="peak_positions")},
              why="a patch that restores nothing leaves every cell of the map at 0, and the "
                  "first-maximum rule then reads position 0 in every layer"))


test_full_patch_identity = claim("ioi_tutorial.full-patch-identity", reads="tutorial_full_patch", readout=full_patch_identity,
    kind="anchor", section="In[7]", needs="hub",
    guards=RUNS + SWEEP,
    statement="Patching the clean run's whole block output at layer L reproduces the clean logits exactly.",
    headline="clean logits reproduced at every layer: {equal_at_every_layer} ({layers} layers)",
    published={"equal_at_every_layer": True},
    provenance="the suite's identity check on the patch In[7] sweeps position by position",
    criterion=Exact("equal_at_every_layer"), holds=Holds(Exact("equal_at_every_layer")),
    decisions=NO_BOS)


test_notebook_line = claim("ioi_tutorial.notebook-line", reads="tutorial_notebook_line", readout=readouts.notebook_line,
    kind="anchor", section="In[7]", needs="hub",
    statement="In[7]'s patch line as printed indexes the hidden state's batch row by the layer and raises at every layer.",
    headline="the printed line raised at {raised}/{layers} layers: {errors}",
    published={}, provenance=f"{NB}:162 (In[7]'s patch line)",
    criterion=Recorded(), holds=Holds(Every("raised", "layers")),
    decisions=("the line is run as printed on the hidden state (this transformers' block "
               "output; the notebook's output[0]), at the swapped name's position: row L of a "
               "one-row invoke leaves a 2-D tensor that [:, position, :] cannot index, and "
               "rows past the first do not exist",))


test_clean_preferred = claim("ioi_tutorial.clean-preferred", reads="tutorial_behaviour", readout=readouts.clean_preferred,
    kind="anchor", section="In[7]", needs="hub",
    guards=SWEEP,
    statement="The clean run's logit difference exceeds the corrupted run's, so the heatmap's 1 is the clean run and a rise is a move toward it.",
    headline="reversed: {reversed}", published={"reversed": []},
    provenance="In[7]'s normalisation: (patched − corrupted) / (clean − corrupted)",
    criterion=Exact("reversed"), holds=Holds(Exact("reversed"), behavioural=True),
    decisions=NO_BOS)


test_sweep_rows = claim("ioi_tutorial.sweep-rows", reads="tutorial_sweep_rows", readout=readouts.sweep_rows,
    kind="anchor", section="In[7]", needs="hub",
    guards=SWEEP,
    statement="Cells of the sweep, re-run as one patch each, give the logit difference the sweep recorded.",
    headline="{cells} cells re-run; max |Δ| {max_abs_diff}; mismatched: {mismatched}",
    published={"mismatched": []},
    provenance="issue 36: a batched run checks its own rows against one-row forwards",
    criterion=Exact("mismatched"), holds=Holds(NoneOf("mismatched", of="cells")),
    decisions=NO_BOS + ("in the mode under test; seed 004's cells (first, middle and last "
                        "blocks at the first, first differing and last positions)",
                        "within " + ROW_TOLERANCE_REASON))


test_whole_stream_fires_once = claim("ioi_tutorial.whole-stream-fires-once", reads="tutorial_whole_stream_fires",
    section="In[7]", needs="hub",
    **fire_once_fields("The whole-stream patch at block L writes the clean run's every position there, in its own forward, and nothing upstream.",
                       FIRE_RULE),
    guards=SWEEP, decisions=NO_BOS)


test_position_sweep_fires_once = claim("ioi_tutorial.position-sweep-fires-once", reads="tutorial_sweep_fires",
    section="In[7]", needs="hub",
    **fire_once_fields("The layer × position sweep writes one clean value per (block, position), in the forward (or batch row) the mode gives it, and nothing else.",
                       FIRE_RULE),
    guards=SWEEP, decisions=NO_BOS + ("fast mode's batched sweep is checked row by row",))


test_whole_stream_identity = claim("ioi_tutorial.whole-stream-identity", reads="tutorial_whole_stream_identity",
    section="In[7]", needs="hub",
    **identity_check.claim_fields("The whole-stream patch run with the corrupted prompt as its own clean one writes every position's own value at each block, and leaves every block and the logits bit-identical to the unpatched run.",
                                  "the suite's identity rule, seed 003 §4's self-patch derived from the whole-stream patch's declared sites"),
    guards=SWEEP, decisions=NO_BOS + ("the sweep has no identity of its own: fast mode writes values read alone into a batch, no identity to the bit; its rows are checked alone",))


test_position_sweep_rows_alone = claim("ioi_tutorial.position-sweep-rows-alone", reads="tutorial_sweep_rows_alone",
    section="In[7]", needs="hub",
    **rows_alone.claim_fields("The first, middle and last row of each forward of the sweep, run as one plain forward of its own prompt with its own patch, gives the logits it gave in the sweep.",
                              "the suite's batched-row rule (issue 36), derived from the sweep's declared sites"),
    guards=SWEEP, decisions=NO_BOS)


test_breakages_caught = claim("ioi_tutorial.breakages-caught", reads="ioi_tutorial_breakages",
    section="In[7]",
    **catalogue_fields("Every catalogued breakage of the printed patch line and the tutorial's pair fails an anchor."))
