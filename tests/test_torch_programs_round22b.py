"""PyTorch programs of kinds rounds 9 to 22 did not cover (tests/torch_programs_round22b/: a WGAN
with the gradient penalty and with weight clipping, Deep Sets and the Set Transformer with
key_padding_mask, ISTA/FISTA/LISTA sparse coding with LU debiasing, an energy-based model
sampled by Langevin dynamics with spectral-normalised layers, a Kalman filter and RTS smoother
whose noise is learned through the filter, hypernetworks and FiLM with functional_call under
vmap, a Gumbel-softmax discrete VAE with ContinuousBernoulli and relaxed distributions, a full
nn.Transformer reversing strings with every padding mask and a Noam schedule), run with
``import torch`` changed to ``import fgrad.torch as torch`` (round 9's ``_swap.py``: the import
lines only) and compared with PyTorch 2.13's output, stored in
``torch_programs_round22b/expected/`` (written by running each program with PyTorch:
``python tests/torch_programs_round22b/NAME.py > .../expected/NAME.txt``) and, by the slow tests,
with the installed PyTorch: the same text and the same numbers to one and a half units of their
last printed digit.  The regression tests of the defects this round found are in
``tests/shim/test_torch_round22b_defects.py`` (docs/torch-programs-round22b.md).

Every program takes more than 2 s (importing fgrad.torch alone takes about 1.7 s of CPU), so
all of them are slow tests: ``pytest tests/test_torch_programs_round22b.py -m slow`` runs them
against the stored and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round22b"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST: set = set()  # no default-run program: each takes > 2 s


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 8)
