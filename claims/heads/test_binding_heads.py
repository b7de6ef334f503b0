"""Seed 001, "Investigating Attention Heads in In-Context Retrieval": every `heads.*` row.

Anchors first, as in the notebook; each claim reads a session fixture's study and judges it.
"""
from __future__ import annotations

from harness.claims import Tolerance, claim
from harness.criteria import Binomial, CoversPublished, Exact, InInterval, all_of
from harness.sources.heads import anchors as A
from harness.sources.heads.task import MAIN, OBJECTS, OPENING, binding_tables, generate_family, render


@claim("heads.problem-sets", kind="anchor", section="1", needs="cpu",
       statement="sha256-seeded families reproduce opening family 0's questions and tables.",
       published={"questions": {"R": ["cross", "O"], "D": ["machine", "L"], "O": ["machine", "Y"]},
                  "rows": {"4": [["machine", "Y"], ["camera", "J"]],
                           "6": [["dress", "K"], ["machine", "L"]],
                           "20": [["cross", "O"], ["game", "N"]]}},
       provenance="seed 001 notebook output, §2 (opening family 0's tables)",
       criterion=all_of(Exact("questions"), Exact("rows")),
       decisions=("the opening set draws from every object, as the notebook's does; the "
                  "disjointness of opening and main tables is heads.disjoint-sets",))
def test_problem_sets(judge):
    family = generate_family(OPENING, 0)
    rows = sorted({q.query_row for q in (family.R, family.D, family.O)})
    judge({"questions": {k: [q.query, q.answer] for k, q in
                         (("R", family.R), ("D", family.D), ("O", family.O))},
           "rows": {str(r): [family.R.bindings[r - 1], family.D.bindings[r - 1]] for r in rows}})


@claim("heads.disjoint-sets", kind="anchor", section="1", needs="hub",
       statement="The 8 opening and 32 single-token main families share no R or D binding table.",
       published={"disjoint": True},
       provenance="seed 001 notebook, §1 (its assertion binding_tables(all_opening_problems)"
                  ".isdisjoint(binding_tables(all_main_problems)))",
       criterion=Exact("disjoint"),
       decisions=("the main set keeps the objects that are one token with a leading space under "
                  "the profile's tokenizer (Qwen2.5's on published), as the notebook filters it "
                  "before it checks",))
def test_disjoint_sets(judge, heads_single_token, heads_families):
    opening, main = heads_families
    judge({"disjoint": binding_tables(opening).isdisjoint(binding_tables(main)),
           "opening": len(opening), "main": len(main),
           "single_token_objects": sum(map(heads_single_token, OBJECTS)), "objects": len(OBJECTS)})


@claim("heads.main-example", kind="anchor", section="1", needs="hub",
       statement="Main family 0 renders with single-token labels; its prompt ends ' Answer', ':', the chat turn and 'Box'.",
       published={"first_row": ["stone", "V"], "last_row": ["train", "M"], "query": "brick",
                  "answer_L": "Y", "last8_ids": [21806, 25, 151645, 198, 151644, 77091, 198, 1611],
                  "last8_positions": [185, 186, 187, 188, 189, 190, 191, 192]},
       provenance="seed 001 notebook output, §1 (the printed table and token listing)",
       criterion=all_of(*(Exact(k) for k in ("first_row", "last_row", "query", "answer_L",
                                             "last8_ids", "last8_positions"))),
       decisions=("the main set keeps the objects that are one token with a leading space under "
                  "the profile's tokenizer, as the notebook filters under Qwen2.5's",))
def test_main_example(judge, heads_tokenizer):
    tok = heads_tokenizer
    family = generate_family(MAIN, 0, single_token=lambda w: len(
        tok.encode(" " + w, add_special_tokens=False)) == 1)
    rendered = render(family.O, tok)  # asserts single-token labels and the 'Box' extension
    n = len(rendered.input_ids)
    judge({"first_row": family.O.bindings[0], "last_row": family.O.bindings[-1],
           "query": family.O.query, "answer_L": family.O.answer,
           "last8_ids": rendered.input_ids[-8:], "last8_positions": list(range(n - 8, n)),
           "last8_tokens": tok.convert_ids_to_tokens(rendered.input_ids[-8:])})


NB = "seed 001 notebook output, §{}"
SETUP = ("heads.problem-sets", "heads.disjoint-sets", "heads.main-example")
MACHINERY = SETUP + ("heads.reference-forward", "heads.edit-receipts")
CONTENT = MACHINERY + ("heads.head-identity", "heads.av-identity")
PROB = Tolerance(abs=0.02)


def interval(summary) -> dict:
    """A bootstrap summary as a mean and its [lower, upper] interval."""
    return {"mean": summary.mean, "ci": list(summary.ci95)}


def judge_checks(judge, checks: A.Checks, **extra) -> None:
    assert not checks.failed, f"{len(checks.failed)} of {checks.n} checks failed: {checks.failed[:8]}"
    judge({"all_exact": not checks.failed, "checked": checks.n, **extra})


@claim("heads.reference-forward", kind="anchor", section="1",
       statement="The nnsight run's logits equal an independent plain-PyTorch pre-hook forward's, edits included.",
       published={"all_exact": True}, provenance=NB.format(1) + " (checks['reference:…'] all True)",
       criterion=Exact("all_exact"), requires=SETUP,
       decisions=("checked on opening family 0 for no edit and, at every block, a donor residual, "
                  "a zeroed head, a foreign head output and a residual plus two heads; the notebook "
                  "checks the first family of each study, which the record-counts anchor re-checks",))
def test_reference_forward(judge, heads_model, heads_families):
    judge_checks(judge, A.reference_equality(heads_model, heads_families[0][0]))


@claim("heads.edit-receipts", kind="anchor", section="1",
       statement="Every edit is the tensor consumed; unpatched tokens and heads, the previous token's logits and the hooks are untouched.",
       published={"all_exact": True}, provenance=NB.format(1) + " (_verify_block_patches, hook_ids)",
       criterion=Exact("all_exact"), requires=SETUP,
       decisions=("nnsight 0.8 edits inside the wrapped forward, after PyTorch pre-hooks run, so the "
                  "consumed o_proj input is observed by a torch function mode on o_proj's matmul and "
                  "the consumed residual by a pre-hook on the block's input norm",))
def test_edit_receipts(judge, heads_model, heads_families):
    judge_checks(judge, A.edit_receipts(heads_model, heads_families[0][0]))


@claim("heads.residual-identity", kind="anchor", section="2",
       statement="R's own final residual patched into a block input leaves the logits identical.",
       published={"all_exact": True}, provenance=NB.format(2) + " (checks['residual_identity'])",
       criterion=Exact("all_exact"), requires=MACHINERY,
       decisions=("checked at every block, not only at block 31 as the notebook does",))
def test_residual_identity(judge, heads_model, heads_families):
    judge_checks(judge, A.residual_identity(heads_model, heads_families[0][0]))


@claim("heads.residual-transplant", kind="claim", section="2",
       statement="D's final residual transplanted into R favours L at block 31, the latest block the selection rule admits.",
       published={"retrieval_block": 31, "p_L_at_block": 0.646},
       provenance=NB.format(2) + " (Observation: 'At input 31, mean p(L) is 0.646')",
       criterion=all_of(Exact("retrieval_block"), CoversPublished("p_L_at_block", "p_L_ci")),
       requires=MACHINERY + ("heads.residual-identity",), tolerance=PROB,
       decisions=("the notebook prints only the mean at block 31, so the criterion asks that the "
                  "measured 95% family-bootstrap interval (seed 31001) contain it",))
def test_residual_transplant(judge, heads_sweep):
    s, block = heads_sweep.stats, heads_sweep.retrieval_block
    chosen = s[block]["L"] if block is not None else None
    judge({"retrieval_block": block,
           "p_L_at_block": chosen.mean if chosen else None,
           "p_L_ci": list(chosen.ci95) if chosen else None,
           "curves": {role: [interval(s[b][role]) for b in sorted(s)] for role in ("U", "L", "D")}})


@claim("heads.head-identity", kind="anchor", section="2",
       statement="A head's own final-position output patched back, in H and in O, leaves the logits identical.",
       published={"all_exact": True}, provenance=NB.format(2) + " (checks['opening_head_identity:H/O'])",
       criterion=Exact("all_exact"), requires=MACHINERY,
       decisions=("checked for every head at every block on opening family 0, with H's transplant at "
                  "that block; the notebook checks head 31.7 only",))
def test_head_identity(judge, heads_model, heads_families):
    judge_checks(judge, A.head_identity(heads_model, heads_families[0][0]))


@claim("heads.opening-screen", kind="claim", section="2",
       statement="Zeroing 31.7's final output loses the most p(L) in H and almost none in O; H's L answers drop 5 to 4 of 8.",
       published={"site": "31.7", "H_loss": 0.18741, "H_loss_ci": [0.02514, 0.43268],
                  "O_loss": -0.00002, "O_loss_ci": [-0.00005, 0.00000],
                  "H_correct_before": 5, "H_correct_after": 4, "n": 8},
       provenance=NB.format(2) + " (Observation after the opening screen)",
       criterion=all_of(Exact("site"), InInterval("H_loss", "H_loss_ci"),
                        InInterval("O_loss", "O_loss_ci"), Binomial("H_correct_before"),
                        Binomial("H_correct_after")),
       requires=MACHINERY + ("heads.residual-identity", "heads.head-identity"), tolerance=PROB,
       decisions=("when §2's rule selects no block with a next block after it, later studies run "
                  "at the profile's smoke-test block (the notebook's RUN_ALL_FAMILIES=False path "
                  "uses block 31); 'block_chosen_by' records which; published has no such block",))
def test_opening_screen(judge, heads_opening, heads_site):
    o, block = heads_opening, heads_site.block
    head = o.retrieval_head
    summary = o.screen.summary
    judge({"site": f"{block}.{head}", "block_chosen_by": heads_site.chosen_by, "H_loss": summary["H"][head]["loss_pL"].mean,
           "H_loss_measured_ci": list(summary["H"][head]["loss_pL"].ci95),
           "O_loss": summary["O"][head]["loss_pL"].mean,
           "O_loss_measured_ci": list(summary["O"][head]["loss_pL"].ci95),
           "H_correct_before": o.hybrid_correct_before, "H_correct_after": o.hybrid_correct_after,
           "n": len(o.screen.values("H", head)),
           "screen": {c: [interval(summary[c][h]["loss_pL"]) for h in sorted(summary[c])]
                      for c in ("H", "O")}})


@claim("heads.block32-screen", kind="claim", section="3",
       statement="Single-head deletions one block later barely move p(L) in H or O, and every ordinary answer survives.",
       published={"H_top": "32.6", "H_top_loss": 0.01110, "H_top_loss_ci": [-0.00008, 0.02647],
                  "O_top": "32.7", "O_top_loss": 0.00021, "O_top_loss_ci": [0.00003, 0.00049],
                  "ordinary_survivors": 512, "deletions": 512},
       provenance=NB.format(3) + " (table of largest mean p(L) loss, and the survival assertion)",
       criterion=all_of(InInterval("H_top_loss", "H_top_loss_ci"),
                        InInterval("O_top_loss", "O_top_loss_ci"),
                        Binomial("ordinary_survivors", "deletions")),
       requires=MACHINERY + ("heads.residual-identity", "heads.head-identity"), tolerance=PROB,
       decisions=("which head tops a screen whose intervals include zero is recorded, not judged; "
                  "the judged finding is the size of the largest loss and the survival count",
                  "survival is judged per (family, head) deletion: 32 × 16 = 512"))
def test_block32_screen(judge, heads_main_screen, heads_site):
    m = heads_main_screen
    s = m.screen.summary
    top = {c: m.screen.ranking(c)[0] for c in ("H", "O")}
    judge({"block_chosen_by": heads_site.chosen_by, "H_top": f"{m.screen.block}.{top['H']}", "H_top_loss": s["H"][top["H"]]["loss_pL"].mean,
           "O_top": f"{m.screen.block}.{top['O']}", "O_top_loss": s["O"][top["O"]]["loss_pL"].mean,
           "ordinary_survivors": m.ordinary_survivors, "deletions": m.deletions,
           "screen": {c: [interval(s[c][h]["loss_pL"]) for h in sorted(s[c])] for c in ("H", "O")}})


@claim("heads.av-identity", kind="anchor", section="4",
       statement="O-attention with O-values recomposes a head's Z slice and the logits exactly.",
       published={"all_exact": True}, provenance=NB.format(4) + " (checks['content_identity:…'])",
       criterion=Exact("all_exact"), requires=MACHINERY,
       decisions=("checked for every head at every block on main family 0; the selected heads' "
                  "identity over every family is re-checked by heads.record-counts",))
def test_av_identity(judge, heads_model, heads_families):
    judge_checks(judge, A.av_identity(heads_model, heads_families[1][0]))


@claim("heads.example-crossing", kind="claim", section="4",
       statement="Crossing 31.7 (O attention, D values) in main family 0 moves evidence to C while Y still wins.",
       published={"native_p_L": 0.9999961853, "native_p_C": 2.06e-9, "native_margin": -20.0,
                  "native_top": "Y", "crossed_p_L": 0.9924147784, "crossed_p_C": 0.0075771803,
                  "crossed_margin": -4.875, "crossed_top": "Y"},
       provenance=NB.format(4) + " (worked-example table)",
       criterion=all_of(Exact("native_top"), Exact("crossed_top")),
       requires=CONTENT, tolerance=Tolerance(abs=0.02, rel=0.05),
       decisions=("one prompt has no sampling interval: the top labels are judged and the "
                  "probabilities and margins are pinned by the snapshot",))
def test_example_crossing(judge, heads_first_crossing):
    native, crossed = heads_first_crossing.example
    judge({**{f"native_{k}": v for k, v in (("p_L", native.p_L), ("p_C", native.p_C),
                                              ("margin", native.margin_C_minus_L), ("top", native.top))},
           **{f"crossed_{k}": v for k, v in (("p_L", crossed.p_L), ("p_C", crossed.p_C),
                                               ("margin", crossed.margin_C_minus_L), ("top", crossed.top))}})


@claim("heads.crossing-31.7", kind="claim", section="4",
       statement="Over 32 families, crossing 31.7 raises mean p(C) to 0.199 and leaves 27/32 answers correct.",
       published={"native_mean_p_L": 0.99969, "native_mean_p_C": 1.67e-8, "native_L": 32,
                  "crossed_mean_p_L": 0.80070, "crossed_mean_p_C": 0.19908, "crossed_L": 27, "n": 32},
       provenance=NB.format(4) + " (cohort table)",
       criterion=all_of(Binomial("native_L"), Binomial("crossed_L")),
       requires=CONTENT, tolerance=PROB)
def test_crossing(judge, heads_first_crossing, heads_site):
    native, crossed = heads_first_crossing.rows
    judge({"block_chosen_by": heads_site.chosen_by, "site": f"{heads_first_crossing.block}.{heads_first_crossing.head}",
           "native_mean_p_L": native.mean_p_L, "native_mean_p_C": native.mean_p_C,
           "native_L": native.L_predictions, "crossed_mean_p_L": crossed.mean_p_L,
           "crossed_mean_p_C": crossed.mean_p_C, "crossed_L": crossed.L_predictions, "n": native.n})


RANKING = [("32.7", 0.60715, 0.50600, 0.70182), ("32.5", 0.00841, -0.00994, 0.02489),
           ("32.13", 0.00256, -0.01141, 0.01660), ("32.1", 0.00204, -0.01054, 0.01338),
           ("32.9", -0.00056, -0.01186, 0.01179), ("32.2", -0.00616, -0.01407, 0.00149),
           ("32.4", -0.00695, -0.01598, 0.00143), ("32.8", -0.01194, -0.02553, 0.00168),
           ("32.0", -0.01228, -0.02557, -0.00049), ("32.3", -0.01267, -0.04170, 0.01577),
           ("32.14", -0.01467, -0.02777, -0.00294), ("32.10", -0.01595, -0.03201, -0.00151),
           ("32.12", -0.01601, -0.02772, -0.00523), ("32.11", -0.01889, -0.03062, -0.00784),
           ("32.6", -0.01915, -0.03388, -0.00553), ("32.15", -0.02220, -0.03432, -0.01115)]


@claim("heads.challenged-screen", kind="claim", section="5",
       statement="Under the fixed 31.7 crossing, zeroing 32.7 loses the most p(L), uniquely in 32/32 families.",
       published={"support_site": "32.7", "top_loss": 0.60715, "top_loss_ci": [0.50600, 0.70182],
                  "unique_wins": 32, "n": 32, "runner_up_site": "32.5", "gap": 0.59875,
                  "gap_ci": [0.49415, 0.69676],
                  "ranking": [{"site": s, "mean": m, "ci": [lo, hi]} for s, m, lo, hi in RANKING]},
       provenance=NB.format(5) + " (ranking table and Observation)",
       criterion=all_of(Exact("support_site"), InInterval("top_loss", "top_loss_ci"),
                        Binomial("unique_wins"), InInterval("gap", "gap_ci")),
       requires=CONTENT, tolerance=PROB)
def test_challenged_screen(judge, heads_challenged):
    c = heads_challenged
    block = c.screen.block
    top = c.ranking[0][1]
    judge({"support_site": f"{block}.{c.support_head}", "top_loss": top.mean,
           "unique_wins": c.unique_wins, "n": top.n_families,
           "runner_up_site": f"{block}.{c.runner_up}", "gap": c.gap.mean,
           "ranking": [{"site": f"{block}.{h}", **interval(s)} for h, s in c.ranking]})


@claim("heads.content-effects", kind="claim", section="5",
       statement="Crossing either head shifts the C−L margin towards C (31.7 by 19.4, 32.7 by 6.2); the label token alone carries most of it.",
       published={"first_margin": 19.41602, "first_margin_ci": [17.85547, 21.01763],
                  "first_label_margin": 19.63867, "first_label_margin_ci": [18.11714, 21.18955],
                  "second_margin": 6.21680, "second_margin_ci": [5.36523, 7.12700],
                  "second_label_margin": 6.66211, "second_label_margin_ci": [5.75977, 7.60161]},
       provenance=NB.format(5) + " (C−L margin shift table)",
       criterion=all_of(*(InInterval(k, f"{k}_ci") for k in (
           "first_margin", "first_label_margin", "second_margin", "second_label_margin"))),
       requires=CONTENT, tolerance=Tolerance(abs=0.5))
def test_content_effects(judge, heads_content):
    (b1, h1), (b2, h2) = heads_content.sites.items()
    e = heads_content.effects
    judge({"sites": [f"{b1}.{h1}", f"{b2}.{h2}"],
           "first_margin": e[b1]["margin"].mean, "first_label_margin": e[b1]["label_margin"].mean,
           "second_margin": e[b2]["margin"].mean, "second_label_margin": e[b2]["label_margin"].mean,
           "effects": {f"{b}": {k: interval(v) for k, v in e[b].items()} for b in e}})


@claim("heads.joint-flip", kind="claim", section="6",
       statement="Supplying both crossed messages flips the answer to C in 32/32 families (Y → P in the example).",
       published={"mean_p_C": 0.992, "c_wins": 32, "n": 32, "example_top": "P",
                  "example_p_L": 0.0011695, "example_p_C": 0.9988258, "second_alone_p_L": 0.9997330},
       provenance=NB.format(6) + " (worked-example table and Observation)",
       criterion=all_of(Binomial("c_wins"), Exact("example_top"),
                        CoversPublished("mean_p_C", "mean_p_C_ci")),
       requires=CONTENT, tolerance=PROB,
       decisions=("the notebook prints mean p(C) without its interval; the measured content-seed "
                  "bootstrap interval must contain it",))
def test_joint_flip(judge, heads_joint):
    j = heads_joint
    both = j.summaries["followup.both.OD"]
    native, first, second, joint = j.example
    judge({"mean_p_C": both.mean, "mean_p_C_ci": list(both.ci95), "c_wins": j.c_wins, "n": j.n,
           "example_top": joint.top, "example_p_L": joint.p_L, "example_p_C": joint.p_C,
           "second_alone_p_L": second.p_L,
           "bars": {c: interval(s) for c, s in j.summaries.items()}})


GRID_KEYS = {f"{a}_{b}": (a, b) for a in ("normal", "zero", "cross") for b in ("normal", "zero", "cross")}


@claim("heads.grid", kind="claim", section="6",
       statement="Zeroing both heads spares every answer; under the 31.7 crossing, crossing 32.7 adds 0.186 p(C) over zeroing it.",
       published={"zero_zero_survivors": 32, "n": 32, "cross_normal_p_C": 0.199,
                  "cross_zero_p_C": 0.806, "cross_cross_p_C": 0.992,
                  "both_minus_zero": 0.18641, "both_minus_zero_ci": [0.09941, 0.28687],
                  "both_minus_zero_margin": 3.88672, "both_minus_zero_margin_ci": [3.36709, 4.40635]},
       provenance=NB.format(6) + " (Deletion controls)",
       criterion=all_of(Binomial("zero_zero_survivors"),
                        CoversPublished("cross_normal_p_C", "cross_normal_p_C_ci"),
                        CoversPublished("cross_zero_p_C", "cross_zero_p_C_ci"),
                        CoversPublished("cross_cross_p_C", "cross_cross_p_C_ci"),
                        InInterval("both_minus_zero", "both_minus_zero_ci"),
                        InInterval("both_minus_zero_margin", "both_minus_zero_margin_ci")),
       requires=CONTENT, tolerance=PROB,
       decisions=("the three grid means are printed to 3 decimals without intervals; the measured "
                  "content-seed intervals must contain them",))
def test_grid(judge, heads_grid):
    g = heads_grid
    cells = {k: g.p_C[pair] for k, pair in GRID_KEYS.items()}
    judge({"zero_zero_survivors": g.zero_zero_survivors, "n": g.n,
           **{f"{k}_p_C": cells[k].mean for k in ("cross_normal", "cross_zero", "cross_cross")},
           **{f"{k}_p_C_ci": list(cells[k].ci95) for k in ("cross_normal", "cross_zero", "cross_cross")},
           "both_minus_zero": g.both_minus_zero.mean,
           "both_minus_zero_margin": g.both_minus_zero_margin.mean,
           "p_C": {k: interval(v) for k, v in cells.items()},
           "margin": {k: interval(g.margin[pair]) for k, pair in GRID_KEYS.items()}})


@claim("heads.record-counts", kind="anchor", section="7",
       statement="Every condition was recorded once: 61 per main family and 72 per opening family, and every check held.",
       published={"main_records": 1952, "opening_records": 576},
       provenance=NB.format(7) + " ('1952 main and 576 opening observations')",
       criterion=all_of(Exact("main_records"), Exact("opening_records")), requires=CONTENT,
       decisions=("the per-family counts follow from the architecture: 13 + 3 × heads per main "
                  "family and 4 + blocks + 2 × heads per opening family (61 and 72 for Qwen2.5-3B)",))
def test_record_counts(judge, heads_lab, heads_grid):
    lab, g = heads_lab, heads_lab.geometry
    studies = [k[0] for k in lab.observations]
    main, opening = studies.count("main"), studies.count("opening")
    failed = [k for k, ok in lab.checks.items() if not ok]
    assert main == (13 + 3 * g.n_heads) * len(lab.main), main
    assert opening == (4 + g.n_blocks + 2 * g.n_heads) * len(lab.opening), opening
    assert not failed, f"{len(failed)} of {len(lab.checks)} checks failed: {failed[:8]}"
    kinds = sorted({k.split(":")[0] for k in lab.checks})
    judge({"main_records": main, "opening_records": opening, "checks_failed": len(failed),
           "checks": {kind: sum(k.startswith(kind + ":") for k in lab.checks) for kind in kinds}})
