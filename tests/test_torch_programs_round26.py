"""PyTorch programs aimed at the API areas earlier rounds cover thinly
(tests/torch_programs_round26/: torch.func ensembling and per-sample gradients,
torch.autograd.functional second-order methods, torch.autograd.forward_ad, checkpointing with
hooks, parametrizations, pruning, packed sequences, distributions, spectral/linear-algebra/
special-function workloads, learning-rate schedules with saving and resuming), run with
``import torch`` changed to ``import fgrad.torch as torch`` (round 9's ``_swap.py``: the
import lines only) and compared with PyTorch 2.13's output, stored in
``torch_programs_round26/expected/`` (written by running each program with PyTorch:
``python tests/torch_programs_round26/NAME.py > .../expected/NAME.txt``) and, by the slow
tests, with the installed PyTorch: the same text and the same numbers to one and a half units
of their last printed digit (docs/torch-programs-round26.md).

The default run runs one program (``forward_ad_sensitivities``); ``pytest
tests/test_torch_programs_round26.py -m slow`` runs all of them against the stored and the
live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round26"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"forward_ad_sensitivities"}  # the default run's program


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 3)
