"""PyTorch programs of kinds rounds 9 to 16 did not cover (tests/torch_programs_round18/: a VAE
with torch.distributions, a graph convolution with index_add_/scatter_reduce, an EmbeddingBag
text classifier, per-sample gradients with torch.func, data plumbing and a checkpoint
round-trip, knowledge distillation with an orthogonal parametrization, a DCGAN, a ViT with a
norm-first encoder, a seq2seq with attention), run with ``import torch`` changed to ``import
fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines only) and compared with
PyTorch 2.13's output, stored in ``torch_programs_round18/expected/`` (written by running each
program with PyTorch: ``python tests/torch_programs_round18/NAME.py > .../expected/NAME.txt``)
and, by the slow tests, with the installed PyTorch: the same text and the same numbers to one
and a half units of their last printed digit.  The regression tests of the defects this round
found are in ``tests/shim/test_torch_round18_defects.py`` (docs/torch-programs-round18.md).

The default run runs two programs; ``pytest tests/test_torch_programs_round18.py -m slow`` runs
all of them against the stored and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round18"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"graph_conv_scatter", "embeddingbag_text"}  # the default run's programs


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 9)
