"""The run record read in the terminal: why published values do not apply on the profile, and
one line per claim (its verdict, drift and message)."""
from __future__ import annotations

from harness.reporting.record import RunRecord
from harness.verdicts import Drift


# On a profile whose models are not the notebooks' (the organisms, the rehearsal's random
# weights): why no verdict there says "replicated", said once for the run.
UNJUDGED_BANNER = ("{profile} profile: published values are for the notebooks' models, so none "
                   "applies here; an anchor whose checks held reads \"held\", a study reads "
                   "\"recovered\" or \"missed\" where its organism planted what it measures, "
                   "and \"not applicable\" where nothing was planted")


# A replication whose sources ran on different profiles (`interp-claims replicate`).
MIXED_BANNER = ("{organisms} ran on {their} organism{s} ({published}): published values apply "
                "to the sources on their published models alone; on an organism an anchor whose "
                "checks held reads \"held\", a study reads \"recovered\" or \"missed\" where it "
                "planted what it measures, and \"not applicable\" where nothing was planted")


def banner(record: RunRecord) -> str | None:
    """The run's one line on why published values do not apply, to which sources (None where
    every source ran its published model)."""
    chosen = record.environment.get("sources")
    if chosen:
        organisms = sorted(n for n, c in chosen.items() if c["profile"] != "published")
        published = sorted(n for n, c in chosen.items() if c["profile"] == "published")
        if not organisms:
            return None
        return MIXED_BANNER.format(
            organisms=", ".join(organisms), their="its" if len(organisms) == 1 else "their",
            s="" if len(organisms) == 1 else "s",
            published=f"{', '.join(published)} on the published models" if published
            else "no source's published model can run here")
    profile = record.environment.get("profile")
    return None if profile in (None, "published") else UNJUDGED_BANNER.format(profile=profile)


def status_table(record: RunRecord) -> list[str]:
    """One line per claim for the terminal: verdict, id, and the message if any."""
    lines = [line for line in [banner(record)] if line]
    if record.run.partial:
        lines.append(f"PARTIAL RUN: {len(record.run.not_run)} selected tests never ran")
    for entry in record.in_order:
        shown = entry.message and (entry.verdict.explained or entry.drift is Drift.DRIFTED)
        msg = f"  {entry.message}" if shown else ""
        status = entry.verdict + (f" · {entry.drift}" if entry.drift in (Drift.DRIFTED,
                                                                          Drift.UNPINNED) else "")
        if entry.generalisation:
            msg = f"  (generalisation test on {entry.generalisation}){msg}"
        lines.append(f"{status:<26} {entry.kind:<11} {entry.id}{msg}"[:220])
    summary = ", ".join(f"{n} {v}" for v, n in sorted(record.counts.get("all", {}).items()))
    lines.append(f"claims: {summary or 'none run'} (profile {record.environment['profile']})")
    return lines
