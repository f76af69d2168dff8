"""PyTorch programs of kinds rounds 9 to 24 did not cover (tests/torch_programs_round25/:
Glow with an LU-parametrised invertible 1x1 convolution, rational-quadratic neural spline
flows, word2vec skip-gram with negative sampling on sparse embeddings and SparseAdam, a hidden
Markov model (forward-backward, Viterbi, Baum-Welch against Adam), an E(n)-equivariant graph
network with force matching, a masked autoencoder, a reversible network with a
memory-saving autograd.Function, N-BEATS, Bayes by Backprop with the local reparametrisation
trick and MC dropout, Hinton's forward-forward (float32), Performer's FAVOR+ and causal linear
attention), run with ``import
torch`` changed to ``import fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines
only) and compared with PyTorch 2.13's output, stored in ``torch_programs_round25/expected/``
(written by running each program with PyTorch: ``python tests/torch_programs_round25/NAME.py
> .../expected/NAME.txt``) and, by the slow tests, with the installed PyTorch: the same text
and the same numbers to one and a half units of their last printed digit
(docs/torch-programs-round25.md).

The default run runs one program (``word2vec_sgns``, about 10 s on fgrad on the loaded
machine: every program takes more than 2 s, importing fgrad.torch alone about 1.7 s of CPU);
``pytest tests/test_torch_programs_round25.py -m slow`` runs all of them against the stored
and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round25"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"word2vec_sgns"}  # the default run's program


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 10)
