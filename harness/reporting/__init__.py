"""What a run leaves: its typed record (record), the diff of two runs (run_diff), the history,
what changed, the page (report, figures), the upgrade canary and the nightly's guards."""
