"""What runs cost: the work each step did, pinned (ledger), the plan that prices it on a GPU
(plan, build, split) and the test tiers' time budgets (budget)."""
