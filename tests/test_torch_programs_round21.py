"""PyTorch programs of kinds rounds 9 to 18 did not cover (tests/torch_programs_round21/: a
CycleGAN ResnetGenerator with ReflectionPad2d/InstanceNorm2d and an image pool, a VQ-VAE with
an EMA codebook and the straight-through estimator, a LeNet with ReduceLROnPlateau and early
stopping, a LLaMA-style decoder with RoPE, grouped-query attention and a KV cache, a top-k
mixture of experts, Newton-CG with Hessian-vector products, quantile regression with custom
autograd Functions and gradcheck/gradgradcheck, a SIREN with input gradients and Laplacians,
Grad-CAM with module hooks and a weights_only checkpoint, an AWD-LSTM with an adaptive softmax
and NT-ASGD), run with ``import torch`` changed to ``import fgrad.torch as torch`` (round 9's
``_swap.py``: the import lines only) and compared with PyTorch 2.13's output, stored in
``torch_programs_round21/expected/`` (written by running each program with PyTorch:
``python tests/torch_programs_round21/NAME.py > .../expected/NAME.txt``) and, by the slow
tests, with the installed PyTorch: the same text and the same numbers to one and a half units
of their last printed digit.  The regression tests of the defects this round found are in
``tests/shim/test_torch_round21_defects.py`` (docs/torch-programs-round21.md).

Every program takes more than 2 s (importing fgrad.torch alone takes about 1.7 s of CPU), so
all of them are slow tests: ``pytest tests/test_torch_programs_round21.py -m slow`` runs them
against the stored and the live outputs (about a minute).
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round21"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST: set = set()  # no default-run program: each takes > 2 s


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 10)
