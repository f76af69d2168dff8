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


# ---- nn.EmbeddingBag(sparse=True): PyTorch's sparse COO gradient ----------------------------------
# fgrad ignored ``sparse`` for bags: the weight's gradient was dense (no ``_nnz``, ``layout``
# strided), where PyTorch gives one uncoalesced entry per index but padding (a mean's scaled by
# 1/count in the output's dtype).

_BAG_CASES = {
    "sum": (([1, 2, 1, 5], [0, 3]), "sum", None, "float32"),
    "mean": (([1, 2, 1, 5], [0, 3]), "mean", None, "float32"),
    "mean padding, empty bag": (([1, 0, 1, 5, 0], [0, 2, 2]), "mean", 0, "float32"),
    "2-D mean, negative padding": (([[1, 2, 4], [3, 3, 0]], None), "mean", -6, "float64"),
}
_BAG_STORED = {
    "sum": ["torch.sparse_coo", 4, False, [[1, 2, 1, 5]], [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0], [3.0, 4.0]]],
    "mean": ["torch.sparse_coo", 4, False, [[1, 2, 1, 5]],
             [[0.3333333432674408, 0.6666666865348816], [0.3333333432674408, 0.6666666865348816],
              [0.3333333432674408, 0.6666666865348816], [3.0, 4.0]]],
    "mean padding, empty bag": ["torch.sparse_coo", 3, False, [[1, 1, 5]],
                                [[1.0, 2.0], [2.5, 3.0], [2.5, 3.0]]],
    "2-D mean, negative padding": ["torch.sparse_coo", 5, False, [[1, 2, 4, 3, 3]],
                                   [[1 / 3, 2 / 3], [1 / 3, 2 / 3], [1 / 3, 2 / 3], [1.5, 2.0], [1.5, 2.0]]],
}


def _bag_sparse_grad(lib, case):
    (inp, offsets), mode, pad, dtype = _BAG_CASES[case]
    dtype = getattr(lib, dtype)
    w = (-lib.arange(1.0, 13.0, dtype=dtype).view(6, 2) / 7).requires_grad_()
    offsets = None if offsets is None else lib.tensor(offsets)
    bag = lib.nn.functional.embedding_bag
    out = bag(lib.tensor(inp), w, offsets, mode=mode, sparse=True, padding_idx=pad)
    (out * lib.arange(1.0, out.numel() + 1, dtype=dtype).view_as(out)).sum().backward()
    g = w.grad
    return [str(g.layout).replace("fgrad.", ""), g._nnz(), g.is_coalesced(), g._indices().tolist(),
            g._values().tolist()], out.detach()


@pytest.mark.parametrize("case", sorted(_BAG_CASES))
def test_embedding_bag_sparse_gradient_as_pytorch(case):
    got, out = _bag_sparse_grad(torch, case)
    assert got == _BAG_STORED[case]
    (inp, offsets), mode, pad, dtype = _BAG_CASES[case]  # the values: the dense path's, unchanged
    w = -torch.arange(1.0, 13.0, dtype=getattr(torch, dtype)).view(6, 2) / 7
    offsets = None if offsets is None else torch.tensor(offsets)
    dense = torch.nn.functional.embedding_bag(torch.tensor(inp), w, offsets, mode=mode, padding_idx=pad)
    assert torch.equal(out, dense)


@pytest.mark.parametrize("case", sorted(_BAG_CASES))
def test_embedding_bag_sparse_gradient_as_live_pytorch(case):
    real = pytest.importorskip("torch")
    got, out = _bag_sparse_grad(torch, case)
    want, want_out = _bag_sparse_grad(real, case)
    assert got == want and out.tolist() == want_out.tolist()


def test_embedding_bag_sparse_gradient_trains_with_sparse_adam():
    torch.manual_seed(0)
    bag = torch.nn.EmbeddingBag(6, 2, mode="mean", sparse=True)
    opt = torch.optim.SparseAdam(bag.parameters(), lr=0.1)
    before = bag.weight.detach().clone()
    bag(torch.tensor([[1, 4], [4, 4]])).sum().backward()
    opt.step()
    assert (bag.weight.detach() != before).any(1).tolist() == [False, True, False, False, True, False]


# ---- an empty bag (or one of padding only) is +0, as PyTorch's ----------------------------------
# The bag map's zero-weighted entries of negative rows summed to -0.0 (printed "-0.0000").

_EMPTY_BAGS = {  # PyTorch 2.13: the empty bags print 0.0, not -0.0
    "mean, padding only": ((([1, 0, 1, 5, 0], [0, 2, 2]), "mean", 0, None),
                           ["-0.4285714328289032", "-0.5714285969734192", "0.0", "0.0", "-1.0",
                            "-1.1428571939468384"]),
    "sum, empty": ((([1, 5, 2], [0, 2, 2, 3]), "sum", None, None),
                   ["-2.0", "-2.2857143878936768", "0.0", "0.0", "-0.7142857313156128", "-0.8571428656578064",
                    "0.0", "0.0"]),
    "sum with per_sample_weights, empty": ((([1, 5, 2], [0, 2, 2, 3]), "sum", None, [1.0, 2.0, 3.0]),
                                           ["-3.5714285373687744", "-4.0", "0.0", "0.0", "-2.142857074737549",
                                            "-2.5714285373687744", "0.0", "0.0"]),
}


@pytest.mark.parametrize("linear_nodes", [True, False])
@pytest.mark.parametrize("case", sorted(_EMPTY_BAGS))
def test_an_empty_bag_is_positive_zero(case, linear_nodes, monkeypatch):
    import fgrad.torch.nn._embedding_bag as bags

    monkeypatch.setattr(bags, "LINEAR_NODES", linear_nodes)  # the host path and the staged one
    ((inp, offsets), mode, pad, psw), want = _EMPTY_BAGS[case]
    w = -torch.arange(1.0, 13.0).view(6, 2) / 7
    out = torch.nn.functional.embedding_bag(torch.tensor(inp), w, torch.tensor(offsets), mode=mode,
                                            padding_idx=pad,
                                            per_sample_weights=None if psw is None else torch.tensor(psw))
    assert [str(v) for v in out.flatten().tolist()] == want
