"""Round 25's defects of ``fgrad.torch`` (docs/torch-programs-round25.md), each against
PyTorch 2.13's numbers or messages stored here (printed by the same code with ``import
torch``) and, when PyTorch is installed, live."""

from __future__ import annotations

import warnings

import pytest

import fgrad.torch as torch

# ---- Adagrad with sparse gradients (nn.Embedding(sparse=True)) ----------------------------------
# PyTorch's Adagrad takes sparse gradients (its sparse branch: the coalesced gradient's squares
# added to the sum, the update at those entries only); fgrad refused ("Adagrad does not support
# sparse gradients").

_W0 = [[1.5409960746765137, -0.293428897857666], [-2.1787893772125244, 0.5684312582015991],
       [-1.0845223665237427, -1.3985954523086548], [0.40334683656692505, 0.8380263447761536],
       [-0.7192575931549072, -0.40334352850914]]
_BATCHES = ([[1, 2, 1], [4, 1, 0]], [[3, 3]], [[1]])  # repeated indices: coalesced before the update
_STORED = {
    "plain": ([[1.4409960508346558, -0.1934289038181305], [-2.0484819412231445, 0.4419431984424591],
               [-0.9845223426818848, -1.2985954284667969], [0.3033468425273895, 0.7380263209342957],
               [-0.6192575693130493, -0.3033435344696045]],
              [[9.498675346374512, 0.3444020748138428], [188.18190002441406, 12.509819030761719],
               [4.704754829406738, 7.824276924133301], [2.6030187606811523, 11.236610412597656],
               [2.0693259239196777, 0.6507440209388733]]),
    "decay, initial sum, maximize": (
        [[1.639959692955017, -0.37296658754348755], [-2.2951819896698, 0.6856750845909119],
         [-1.1824623346328735, -1.4973413944244385], [0.4675911068916321, 0.9041075110435486],
         [-0.8147493600845337, -0.4908027648925781]],
        [[9.698675155639648, 0.5444020628929138], [191.8668975830078, 13.61477279663086],
         [4.904754638671875, 8.024276733398438], [2.803018808364868, 11.436610221862793],
         [2.2693259716033936, 0.8507440090179443]]),
}
_OPTIONS = {"plain": dict(lr=0.1),
            "decay, initial sum, maximize": dict(lr=0.1, lr_decay=0.5, initial_accumulator_value=0.2,
                                                 maximize=True)}


def _sparse_adagrad(lib, options):
    emb = lib.nn.Embedding(5, 2, sparse=True)
    with lib.no_grad():
        emb.weight.copy_(lib.tensor(_W0))
    opt = lib.optim.Adagrad(emb.parameters(), **options)
    for idx in _BATCHES:
        loss = emb(lib.tensor(idx)).pow(2).sum()
        opt.zero_grad()
        loss.backward()
        assert emb.weight.grad.is_sparse
        with warnings.catch_warnings():  # PyTorch's "Sparse invariant checks are implicitly disabled"
            warnings.simplefilter("ignore", UserWarning)
            opt.step()
    return emb.weight.tolist(), opt.state[emb.weight]["sum"].tolist()


@pytest.mark.parametrize("case", sorted(_OPTIONS))
def test_adagrad_steps_with_a_sparse_gradient_as_pytorch(case):
    assert _sparse_adagrad(torch, _OPTIONS[case]) == _STORED[case]  # bit for bit


@pytest.mark.parametrize("case", sorted(_OPTIONS))
def test_adagrad_steps_with_a_sparse_gradient_as_live_pytorch(case):
    real = pytest.importorskip("torch")
    assert _sparse_adagrad(torch, _OPTIONS[case]) == _sparse_adagrad(real, _OPTIONS[case])


def test_adagrad_refuses_weight_decay_with_a_sparse_gradient_as_pytorch():
    emb = torch.nn.Embedding(5, 2, sparse=True)
    opt = torch.optim.Adagrad(emb.parameters(), lr=0.1, weight_decay=0.1)
    emb(torch.tensor([1, 2])).sum().backward()
    with pytest.raises(RuntimeError, match="^weight_decay option is not compatible with sparse gradients$"):
        opt.step()


def test_adam_and_rmsprop_still_refuse_sparse_gradients():
    for opt_class, message in ((torch.optim.Adam, "Adam does not support sparse gradients, please consider "
                                                  "SparseAdam instead"),
                               (torch.optim.RMSprop, "RMSprop does not support sparse gradients")):
        emb = torch.nn.Embedding(5, 2, sparse=True)
        emb(torch.tensor([1, 2])).sum().backward()
        with pytest.raises(RuntimeError, match=f"^{message}$"):
            opt_class(emb.parameters()).step()
