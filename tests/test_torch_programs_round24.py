"""PyTorch programs of kinds rounds 9 to 23 did not cover (tests/torch_programs_round24/:
DeepSurv's Cox partial likelihood by logcumsumexp, the RNN-Transducer loss over its
alignment lattice, a neural Turing machine on the copy task, TransE/DistMult link prediction
with a max_norm embedding, evolution strategies over a flattened policy under vmap, TabNet
with a sparsemax autograd.Function, conditional and latent neural processes against the exact
GP posterior, a Conformer with SpecAugment, a neural Hawkes-style temporal point process,
sliced score matching with Langevin sampling), run with ``import torch`` changed to ``import
fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines only) and compared with
PyTorch 2.13's output, stored in ``torch_programs_round24/expected/`` (written by running each
program with PyTorch: ``python tests/torch_programs_round24/NAME.py > .../expected/NAME.txt``)
and, by the slow tests, with the installed PyTorch: the same text and the same numbers to one
and a half units of their last printed digit.  The regression tests of the defects this round
found are in ``tests/shim/test_torch_round24_defects.py`` (docs/torch-programs-round24.md).

The default run runs one program (``transe_knowledge_graph``, about 6 s on fgrad: every
program takes more than 2 s, importing fgrad.torch alone about 1.7 s of CPU);
``pytest tests/test_torch_programs_round24.py -m slow`` runs all of them against the stored
and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round24"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"transe_knowledge_graph"}  # the default run's program


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 10)
