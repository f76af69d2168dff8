"""PyTorch programs of kinds rounds 9 to 21 did not cover (tests/torch_programs_round22/: a DDPM
with linear/cosine schedules and DDIM sampling, NeRF volume rendering with hierarchical
sampling by searchsorted, Swin window attention with shifted windows and a relative position
bias, LoRA adapters put in by set_submodule and merged, Bayesian bandits with Thompson
sampling and Binomial/exponential-family entropies, MAML with functional_call and vmap, growing
neural cellular automata, a Mamba selective scan with its recurrent step, Hamiltonian neural
networks, PointNet with T-Nets), run with ``import torch`` changed to ``import fgrad.torch as
torch`` (round 9's ``_swap.py``: the import lines only) and compared with PyTorch 2.13's output,
stored in ``torch_programs_round22/expected/`` (written by running each program with PyTorch:
``python tests/torch_programs_round22/NAME.py > .../expected/NAME.txt``) and, by the slow
tests, with the installed PyTorch: the same text and the same numbers to one and a half units
of their last printed digit.  The regression tests of the defects this round found are in
``tests/shim/test_torch_round22_defects.py`` (docs/torch-programs-round22.md).

Every program takes more than 2 s (importing fgrad.torch alone takes about 1.7 s of CPU), so
all of them are slow tests: ``pytest tests/test_torch_programs_round22.py -m slow`` runs them
against the stored and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round22"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST: set = set()  # no default-run program: each takes > 2 s


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 10)
