"""Seed 001, "Investigating Attention Heads in In-Context Retrieval": the `heads.*` anchors.

Each anchor reads a set-up readout, a machinery check or the session's record, and judges it.
"""
from __future__ import annotations

from claims.heads.declarations import (ANCHOR_SITES, CROSSED, EVERY_CHECK, MACHINERY, MAIN, NB,
                                       SETUP, STUDIED)
from harness.claims import Holds, claim
from harness.criteria import Binomial, Every, Exact, all_of
from harness.sources.heads import readouts
from harness.sources.heads.anchors import machinery, setup
from harness.sources.heads.anchors.layouts import PromptLayouts
from harness.sources.heads.anchors.readback import TOLERANCE as SCREEN_TOLERANCE

ASSERTED = ("seed 001 notebook, §1–§3: its assertions on every prompt it renders "
            "(render_prompt's single-token labels, one token per label span, the 'Box' extension) "
            "and {}, which held in its run; {} its assumption")


test_problem_sets = claim("heads.problem-sets", readout=setup.opening_tables,
    needs="cpu", guards=("heads_families",),
    statement="sha256-seeded families reproduce opening family 0's questions and tables.",
    headline="family 0 asks R {questions[R][0]}→{questions[R][1]}, D {questions[D][0]}→{questions[D][1]}, O {questions[O][0]}→{questions[O][1]}",
    published={"questions": {"R": ["cross", "O"], "D": ["machine", "L"], "O": ["machine", "Y"]},
               "rows": {"4": [["machine", "Y"], ["camera", "J"]],
                        "6": [["dress", "K"], ["machine", "L"]],
                        "20": [["cross", "O"], ["game", "N"]]}},
    provenance="seed 001 notebook output, §2 (opening family 0's tables)",
    criterion=all_of(Exact("questions"), Exact("rows")),
    decisions=("the opening set draws from every object, as the notebook's does; the "
               "disjointness of opening and main tables is heads.disjoint-sets",))


test_disjoint_sets = claim("heads.disjoint-sets", reads=("heads_families", "heads_single_token"), readout=setup.disjointness,
    needs="hub", guards=SETUP,
    statement="The 8 opening and 32 single-token main families share no R or D binding table.",
    headline="opening and main binding tables disjoint: {disjoint}",
    published={"disjoint": True},
    provenance="seed 001 notebook, §1 (its assertion binding_tables(all_opening_problems)"
               ".isdisjoint(binding_tables(all_main_problems)))",
    criterion=Exact("disjoint"),
    decisions=("the main set keeps the objects that are one token with a leading space under "
               "the profile's tokenizer (Qwen2.5's on published), as the notebook filters it "
               "before it checks",))


test_main_example = claim("heads.main-example", reads=("heads_families", "heads_tokenizer"), readout=setup.main_example,
    needs="hub", guards=SETUP,
    statement="Main family 0 renders with single-token labels; its prompt ends ' Answer', ':', the chat turn and 'Box'.",
    headline="query {query} → label {answer_L}; 'Box' at position {last8_positions[7]}",
    published={"first_row": ["stone", "V"], "last_row": ["train", "M"], "query": "brick",
               "answer_L": "Y", "last8_ids": [21806, 25, 151645, 198, 151644, 77091, 198, 1611],
               "last8_positions": [185, 186, 187, 188, 189, 190, 191, 192]},
    provenance="seed 001 notebook output, §1 (the printed table and token listing)",
    criterion=all_of(*(Exact(k) for k in ("first_row", "last_row", "query", "answer_L",
                                          "last8_ids", "last8_positions"))),
    decisions=("the main set keeps the objects that are one token with a leading space under "
               "the profile's tokenizer, as the notebook filters under Qwen2.5's",))


test_opening_prompts = claim("heads.opening-prompts", reads="heads_opening_layouts", readout=PromptLayouts.readout,
    kind="anchor", section="1", needs="hub", guards=SETUP,
    statement="Every opening family's R, D and O render with one-token labels at their offsets and one final 'Box'; R and D match in length.",
    headline="{failed} of {prompts} prompts fail",
    published={"failed": 0},
    provenance=ASSERTED.format("§2's that R and D have equal length",
                               "a one-token 'Box' (printed at 192 for main family 0) is"),
    criterion=Exact("failed"), holds=EVERY_CHECK,
    decisions=("all 8 opening families are checked whatever the profile's sizes run; their "
               "objects need not be one token (the notebook does not filter them)",
               "the final position every patch writes and every readout reads is "
               "len(ids) - 1, so 'Box' must add exactly one token to the rendered chat"))


test_main_prompts = claim("heads.main-prompts", reads="heads_main_layouts", readout=PromptLayouts.readout,
    kind="anchor", section="3", needs="hub", guards=MAIN,
    statement="Every main family's R, D and O render with one-token labels, each object one token four before its label, one final 'Box', and O and D aligned.",
    headline="{failed} of {prompts} prompts fail",
    published={"failed": 0},
    provenance=ASSERTED.format("§3's that O and D share their label positions",
                               "a one-token 'Box' (printed at 192 for main family 0) and "
                               "one-token objects in context are"),
    criterion=Exact("failed"), holds=EVERY_CHECK,
    decisions=("all 32 main families are checked whatever the profile's sizes run",
               "each object must be one token with its leading space in context, four tokens "
               "before its label ('the <object> is in Box <label>'), as §3's single-token "
               "filter intends"))


test_reference_forward = claim("heads.reference-forward", reads="heads_reference_forward", readout=machinery.ExactChecks.readout,
    statement="The nnsight run's logits equal an independent plain-PyTorch pre-hook forward's, edits included.",
    headline="logits exact: {all_exact} over {checked} comparisons",
    published={"all_exact": True}, provenance=NB.format(1) + " (checks['reference:…'] all True)",
    criterion=Exact("all_exact"), guards=MACHINERY, holds=EVERY_CHECK,
    decisions=("checked on opening family 0 for no edit and, at every block, a donor residual, "
               "a zeroed head, a foreign head output and a residual plus two heads; the notebook "
               "checks the first family of each study, which the record-counts anchor re-checks",
               ANCHOR_SITES))


test_edit_receipts = claim("heads.edit-receipts", reads="heads_edit_receipts", readout=machinery.ExactChecks.readout,
    statement="Every edit is the tensor consumed; unpatched tokens and heads, the previous token's logits and the hooks are untouched.",
    headline="receipts exact: {all_exact} over {checked} edits",
    published={"all_exact": True}, provenance=NB.format(1) + " (_verify_block_patches, hook_ids)",
    criterion=Exact("all_exact"), guards=MACHINERY, holds=EVERY_CHECK,
    decisions=("nnsight 0.8 edits inside the wrapped forward, after PyTorch pre-hooks run, so the "
               "consumed o_proj input is observed by a torch function mode on o_proj's matmul and "
               "the consumed residual by a pre-hook on the block's input norm",
               ANCHOR_SITES))


test_residual_identity = claim("heads.residual-identity", reads="heads_residual_identity", readout=machinery.ExactChecks.readout,
    statement="R's own final residual patched into a block input leaves the logits identical.",
    headline="logits identical: {all_exact} over {checked} blocks",
    published={"all_exact": True}, provenance=NB.format(2) + " (checks['residual_identity'])",
    criterion=Exact("all_exact"), guards=("heads_sweep",), holds=EVERY_CHECK,
    decisions=("checked at every block, not only at block 31 as the notebook does",
               ANCHOR_SITES))


test_head_identity = claim("heads.head-identity", reads="heads_head_identity", readout=machinery.ExactChecks.readout,
    statement="A head's own final-position output patched back, in H and in O, leaves the logits identical.",
    headline="logits identical: {all_exact} over {checked} heads",
    published={"all_exact": True}, provenance=NB.format(2) + " (checks['opening_head_identity:H/O'])",
    criterion=Exact("all_exact"), guards=STUDIED, holds=EVERY_CHECK,
    decisions=("checked for every head at every block on opening family 0, with H's transplant at "
               "that block; the notebook checks head 31.7 only",
               ANCHOR_SITES))


test_av_identity = claim("heads.av-identity", reads="heads_av_identity", readout=machinery.ExactChecks.readout,
    statement="O-attention with O-values recomposes a head's Z slice and the logits exactly.",
    headline="recomposition exact: {all_exact} over {checked} heads",
    published={"all_exact": True}, provenance=NB.format(4) + " (checks['content_identity:…'])",
    criterion=Exact("all_exact"), guards=CROSSED, holds=EVERY_CHECK,
    decisions=("checked for every head at every block on main family 0; the selected heads' "
               "identity over every family is re-checked by heads.record-counts",
               ANCHOR_SITES))


test_kv_groups = claim("heads.kv-groups", reads="heads_kv_groups", readout=machinery.ExactChecks.readout,
    kind="anchor", section="4", needs="gpu",
    statement="O-attention with a foreign value bank in a query head's key/value group equals a plain forward writing that bank into the KV head transformers' repeat_kv gives the head, message and logits.",
    headline="group crossing exact: {all_exact} over {checked} checks",
    published={"all_exact": True},
    provenance=NB.format(4) + " (ensure_content_test's OD crossing, which writes D's values "
               "into the head's shared value bank; issue 36)",
    criterion=Exact("all_exact"), guards=CROSSED, holds=EVERY_CHECK,
    decisions=("heads.av-identity writes a head's own values back, so a wrong key/value group "
               "gives the same message; here the donor is D's value bank plus unit noise "
               "seeded by the block (D alone equals O's bank in the organism's unused groups, "
               "whose v_proj rows are zero), and each site also checks that the reference's "
               "message moved",
               "the reference knows nothing of the experiment: plain hooks on the transformers "
               "model replace v_proj's columns of the KV head transformers' repeat_kv maps the "
               "query head to (n_rep = num_attention_heads // num_key_value_heads), read the "
               "head's final-position o_proj input, then write that slice alone into a second "
               "forward",
               "checked at every block (or the profile's anchor_blocks) on main family 0, at "
               "one query head per KV group that tiling (h % n_kv_heads) maps elsewhere: 1 and "
               "4 of the organism's 8 on 2 (4 is also off a fixed group 0), 1 and 8 of "
               "Qwen2.5-3B's 16 on 2; the profile's anchor_heads are not used, since the "
               "rehearsal's 0, 7 and 15 sit where the mappings agree"))


test_sweep_readback = claim("heads.sweep-readback", reads="heads_sweep_readback", readout=machinery.ExactChecks.readout,
    kind="anchor", section="2", needs="gpu",
    statement="The residual sweep transplanted before every declared block, and what it recorded for its first family is what a plain forward with D's residual written there gives.",
    headline="sweep read back: {all_exact} over {checked} checks",
    published={"all_exact": True},
    provenance=NB.format(2) + " (the residual transplant sweep; issue 36: what a study reads "
               "back, and the blocks it covered)",
    criterion=Exact("all_exact"), guards=("heads_sweep",), holds=EVERY_CHECK,
    decisions=("the declared blocks are every block of the model's config, or those the "
               "profile's sizes name (sweep_blocks)",
               "D's final residual before each block is read from a plain forward's hidden "
               "states, not from the experiment's capture",
               "p(U), p(L) and p(D) within " + str(SCREEN_TOLERANCE) + " of a probability"))


test_native_answers = claim("heads.native-answers", reads="heads_native_answers", readout=readouts.native_answers,
    kind="anchor", section="4", needs="gpu",
    statement="Every main family's native O prompt is answered with its own label L, the answer every crossing and deletion of §3–§6 reads a move away from.",
    headline="{native_L}/{n} native O answers are L",
    published={"native_L": 32, "n": 32},
    provenance=NB.format(4) + " (cohort table: native L answers 32/32)",
    criterion=Binomial("native_L"), guards=STUDIED[1:],  # §3–§6, on the main families
    holds=Holds(Every("native_L"), behavioural=True),
    decisions=("a behavioural anchor (issue 36): where the model does not answer L natively, "
               "a crossing that moves p(C) has no direction to be judged in, so the findings "
               "that read one are blocked rather than 'not replicated'",))


test_screen_readback = claim("heads.screen-readback", reads="heads_screen_readback", readout=machinery.ExactChecks.readout,
    kind="anchor", section="2", needs="gpu",
    statement="What the opening and next-block screens recorded for their first family in O is what a plain forward with that head zeroed at the site's block gives, for every declared head, and each screen ranks exactly those heads by their mean loss.",
    headline="screens read back: {all_exact} over {checked} checks",
    published={"all_exact": True},
    provenance=NB.format(2) + " (screen_heads and rank_heads; issue 36: what a study reads "
               "back, not only what it writes)",
    criterion=Exact("all_exact"), guards=("heads_opening", "heads_main_screen"),
    holds=EVERY_CHECK,
    decisions=("the declared heads are every query head of the model's config, or those the "
               "profile's sizes name (screen_heads); the blocks are the site's and the next, "
               "not the screens' own",
               "the loss of p(L) is re-measured through the plain transformers reference "
               "forward, p(L) taken here as the float64 softmax of the label's own token",
               "within " + str(SCREEN_TOLERANCE) + " of a probability: the screen's float32 "
               "exp(logit - logsumexp) against a float64 softmax of the same logits"))


test_crossing_readback = claim("heads.crossing-readback", reads="heads_crossing_readback", readout=machinery.ExactChecks.readout,
    kind="anchor", section="4–6", needs="gpu",
    statement="What §4–§6's crossings, joint crossing and grid recorded for main family 0 is what a plain forward writing each cell's messages gives, and §4's rows, §5's content effects and §6's summaries are those of the recorded observations.",
    headline="crossings read back: {all_exact} over {checked} checks",
    published={"all_exact": True},
    provenance=NB.format("4–6") + " (ensure_content_test, the content effects, joint "
               "crossing and grid; issue 36: what a study reads back and summarises)",
    criterion=Exact("all_exact"), holds=EVERY_CHECK,
    guards=("heads_first_crossing", "heads_content", "heads_joint", "heads_grid"),
    decisions=("each crossed message is rebuilt knowing nothing of the experiment: a plain "
               "forward writes D's value bank (or O's with D's at the queried label) into the "
               "KV head transformers' repeat_kv gives the head and reads its o_proj input, "
               "as heads.kv-groups does",
               "p(L), p(C) and the C−L margin within " + str(SCREEN_TOLERANCE) + ", at both "
               "head sites and every grid cell, on main family 0; the summaries against "
               "every main family's recorded observations"))


test_record_counts = claim("heads.record-counts", reads="heads_record_counts", readout=machinery.RecordCounts.readout,
    statement="Every condition was recorded once: 61 per main family and 72 per opening family, and every check held.",
    headline="{main_records} main and {opening_records} opening records",
    published={"main_records": 1952, "opening_records": 576},
    provenance=NB.format(7) + " ('1952 main and 576 opening observations')",
    criterion=all_of(Exact("main_records"), Exact("opening_records")), guards=STUDIED,
    holds=EVERY_CHECK,
    decisions=("the per-family counts follow from the architecture: 13 + 3 × heads per main "
               "family and 4 + blocks + 2 × heads per opening family (61 and 72 for Qwen2.5-3B)",
               "where a profile's sizes sweep fewer blocks or screen fewer heads (the CPU "
               "rehearsal), the counts take those for every block and every head"))
