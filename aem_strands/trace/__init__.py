"""Trajectory evaluation (SPEC §9): how the agent got there, from a trace, with or without gold.

The folder reads as the pipeline: ``types`` (traces, policies, verdicts), ``load`` (trace files, policies and
gold in), ``checks`` (the nine dimensions), ``evaluate`` (status and veto), ``diagnose`` (the replay report),
``record`` (the JSON record, redacted). The public names (``evaluate_traces``, ``iter_traces``, ``Trace``, ...)
are exported by ``aem_strands``.
"""
