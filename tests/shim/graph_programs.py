"""Small programs whose autograd graphs are compared with PyTorch's (`test_graph_display.py`):
``programs(torch)`` with ``torch`` being PyTorch or ``fgrad.torch``.  Regenerate the stored
graphs with ``python tests/shim/graph_programs.py > tests/stored/torch_autograd_graphs.json``
(needs PyTorch)."""

from __future__ import annotations

import json
import sys


def walk(fn):
    """``[name, [walk(next) ...]]``: the graph below ``fn`` as ``next_functions`` shows it."""
    if fn is None:
        return None
    return [fn.name(), [walk(n) for n, _ in fn.next_functions]]


def programs(torch):
    F = torch.nn.functional
    torch.manual_seed(0)
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(2, 3, requires_grad=True)
    b = torch.randn(2, requires_grad=True)
    c = torch.randn(4, 3)
    img = torch.randn(1, 2, 5, 5, requires_grad=True)
    k = torch.randn(3, 2, 3, 3, requires_grad=True)
    kb = torch.randn(3, requires_grad=True)
    P = {}
    P["linear"] = lambda: F.linear(x, w, b)
    P["linear_nobias"] = lambda: F.linear(x, w)
    P["linear_1d"] = lambda: F.linear(x[0], w, b)
    P["linear_3d"] = lambda: F.linear(x.reshape(2, 2, 3), w, b)
    P["linear_const_input"] = lambda: F.linear(c, w, b)
    P["conv2d"] = lambda: F.conv2d(img, k, kb)
    P["conv2d_nobias"] = lambda: F.conv2d(img, k)
    P["mse_loss"] = lambda: F.mse_loss(F.linear(x, w, b), torch.zeros(4, 2))
    P["cross_entropy"] = lambda: F.cross_entropy(F.linear(x, w, b), torch.tensor([0, 1, 1, 0]))
    P["view_chain"] = lambda: x.view(12).reshape(3, 4).t().transpose(0, 1).permute(1, 0)
    P["inplace"] = lambda: (x * 2).add_(1).mul_(3).relu_()
    P["sum_mean"] = lambda: x.sum() + x.mean() + x.sum(0).mean()
    P["matmul_2d"] = lambda: x @ w.t()
    P["matmul_mv"] = lambda: torch.matmul(x, b.new_ones(3))
    P["mm"] = lambda: torch.mm(x, w.t())
    P["bmm"] = lambda: torch.bmm(x[None], w.t()[None])
    P["cat"] = lambda: torch.cat([x, x * 2])
    P["stack"] = lambda: torch.stack([x, x])
    P["index_int"] = lambda: x[0]
    P["index_slice"] = lambda: x[1:3]
    P["index_tensor"] = lambda: x[torch.tensor([0, 2])]
    P["index_col"] = lambda: x[:, 1]
    P["unary_chain"] = lambda: torch.tanh(x).exp().log().sigmoid()
    P["relu_softmax"] = lambda: F.softmax(F.relu(x), -1)
    P["pow_div"] = lambda: x ** 2 / (x + 1) - 3
    P["mul_const"] = lambda: x * c
    P["expand"] = lambda: b.expand(4, 2) * 1.0
    P["clone_detach"] = lambda: x.clone() + x.detach()
    P["setitem"] = lambda: _setitem(x)
    lnw = torch.ones(3, requires_grad=True)
    emb = torch.randn(5, 3, requires_grad=True)
    P["layer_norm"] = lambda: F.layer_norm(x, (3,), lnw, None)
    P["embedding"] = lambda: F.embedding(torch.tensor([0, 2]), emb)
    P["gelu"] = lambda: F.gelu(x)
    P["max_pool2d"] = lambda: F.max_pool2d(img, 2)
    P["avg_pool2d"] = lambda: F.avg_pool2d(img, 2)
    P["bce_logits"] = lambda: F.binary_cross_entropy_with_logits(x, torch.ones(4, 3))
    P["l1_loss"] = lambda: F.l1_loss(x, c)
    P["smooth_l1"] = lambda: F.smooth_l1_loss(x, c)
    P["where"] = lambda: torch.where(c > 0, x, x * 2)
    P["masked_fill"] = lambda: x.masked_fill(c > 0, 0.0)
    P["max_dim"] = lambda: x.max(1).values
    P["max_all"] = lambda: x.max()
    P["amax"] = lambda: x.amax(1)
    P["log_softmax"] = lambda: F.log_softmax(x, 1)
    P["norm"] = lambda: x.norm()
    P["clamp"] = lambda: x.clamp(-0.5, 0.5)
    P["abs_sqrt"] = lambda: x.abs().sqrt()
    P["repeat"] = lambda: x.repeat(2, 1)
    P["flatten"] = lambda: img.flatten(1)
    P["squeeze_unsqueeze"] = lambda: x.unsqueeze(0).squeeze(0)
    P["chunk"] = lambda: x.chunk(3, 1)[1]
    P["split"] = lambda: x.split(2)[0]
    P["unbind"] = lambda: x.unbind(0)[2]
    P["gather"] = lambda: x.gather(1, torch.tensor([[0], [1], [2], [0]]))
    P["var_std"] = lambda: x.var(0) + x.std(1).sum()
    P["einsum"] = lambda: torch.einsum("ij,kj->ik", x, w)
    P["contiguous"] = lambda: x.t().contiguous()
    P["sub_rsub"] = lambda: 1 - x - x
    P["neg_reciprocal"] = lambda: (-x).reciprocal()
    P["linear_module"] = lambda: torch.nn.Linear(3, 2)(x)
    nn = torch.nn
    P["sequential"] = lambda: nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))(x)
    P["batch_norm_train"] = lambda: torch.nn.BatchNorm1d(3)(x)
    P["tanh_tanh_"] = lambda: (x * 1).tanh_()
    P["pad"] = lambda: F.pad(x, (1, 1))
    P["cumsum"] = lambda: x.cumsum(1)
    P["prod"] = lambda: x.prod(1)
    P["dot"] = lambda: torch.dot(x[0], x[1])
    P["outer"] = lambda: torch.outer(b, b)
    P["addmm"] = lambda: torch.addmm(b, x, w.t())
    P["sdpa"] = lambda: F.scaled_dot_product_attention(x[None], x[None], x[None])
    P["layer_norm_nowb"] = lambda: F.layer_norm(x, (3,))
    P["layer_norm_bias_only"] = lambda: F.layer_norm(x, (3,), None, lnw)
    P["batch_norm_eval"] = lambda: torch.nn.BatchNorm1d(3).eval()(x)
    P["batch_norm_noaffine"] = lambda: torch.nn.BatchNorm1d(3, affine=False)(x)
    P["group_norm"] = lambda: F.group_norm(img, 1)
    return P
def _setitem(x):
    y = x * 1
    y[0] = 0
    return y


def graphs(torch) -> dict:
    return {k: walk(f().grad_fn) for k, f in programs(torch).items()}


if __name__ == "__main__":
    import torch

    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in graphs(torch).items()]
    sys.stdout.write("{\n" + ",\n".join(lines) + "\n}\n")
