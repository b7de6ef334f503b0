"""Drafting a source from a notebook (`interp-claims new`): read it (notebook), find what it
printed (numbers, templates, printed), suggest how to judge each number (suggest), group them
into draft claims (draft), write the stubs, register and checklist (writing), and measure the
drafter against the hand-written register (share). Standard library only."""
