"""PyTorch programs of kinds rounds 9 to 22 did not cover (tests/torch_programs_round23/: a 1-D
Fourier neural operator with complex spectral weights, a deep equilibrium model with Anderson
acceleration and an implicit backward hook, slot attention with a GRUCell update, soft
actor-critic with a tanh-squashed Gaussian policy, BERT-style masked language modelling,
pointer networks, prototypical and matching networks on episodes from a batch Sampler,
DeepAR with a negative binomial likelihood, quantization-aware training with fake
quantization and an integer-only inference, ConvNeXt V1/V2 blocks), run with ``import torch``
changed to ``import fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines only) and
compared with PyTorch 2.13's output, stored in ``torch_programs_round23/expected/`` (written by
running each program with PyTorch: ``python tests/torch_programs_round23/NAME.py >
.../expected/NAME.txt``) and, by the slow tests, with the installed PyTorch: the same text and
the same numbers to one and a half units of their last printed digit.  The regression tests of
the defects this round found are in ``tests/shim/test_torch_round23_defects.py``
(docs/torch-programs-round23.md).

Every program takes more than 2 s (importing fgrad.torch alone takes about 1.7 s of CPU), so
all of them are slow tests: ``pytest tests/test_torch_programs_round23.py -m slow`` runs them
against the stored and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round23"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST: set = set()  # no default-run program: each takes > 2 s


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 10)
