"""Public datasets converted to paired dialogs, and seeded errors to score them against.

- ``sgd``: the Schema-Guided Dialogue corpus (system turns as gold actions and replies).
- ``perturbation``: realistic, seeded errors in the predicted side of any paired dialog, recorded in
  its metadata.
"""

from aem_bench.perturbation import (
    ACCEPTED_REASONS,
    EXPECTED_REASON,
    Perturbation,
    PerturbationPool,
    PerturbationRecord,
    build_pool,
    perturb,
    perturb_dialogs,
    perturbations_of,
)
from aem_bench.sgd import load_sgd_dialogs, sgd_files

__all__ = [
    "ACCEPTED_REASONS",
    "EXPECTED_REASON",
    "Perturbation",
    "PerturbationPool",
    "PerturbationRecord",
    "build_pool",
    "load_sgd_dialogs",
    "perturb",
    "perturb_dialogs",
    "perturbations_of",
    "sgd_files",
]
