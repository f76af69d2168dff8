"""Ops probed under CPU autocast (tests/shim/test_amp.py and tools/make_autocast_table.py):
name -> function of (torch module, float tensor maker) returning a tensor.  ``mk(*shape)``
gives a float32 tensor of that shape (deterministic values)."""

from __future__ import annotations


def _f(t):
    return t.nn.functional


OPS = {
    # PyTorch's CPU lower_precision_fp list
    "matmul": lambda t, mk: t.matmul(mk(3, 4), mk(4, 2)),
    "mm": lambda t, mk: t.mm(mk(3, 4), mk(4, 2)),
    "bmm": lambda t, mk: t.bmm(mk(2, 3, 4), mk(2, 4, 2)),
    "baddbmm": lambda t, mk: t.baddbmm(mk(2, 3, 2), mk(2, 3, 4), mk(2, 4, 2)),
    "addmm": lambda t, mk: t.addmm(mk(3, 2), mk(3, 4), mk(4, 2)),
    "addbmm": lambda t, mk: t.addbmm(mk(3, 2), mk(2, 3, 4), mk(2, 4, 2)),
    "linear": lambda t, mk: _f(t).linear(mk(3, 4), mk(2, 4), mk(2)),
    "conv1d": lambda t, mk: _f(t).conv1d(mk(1, 2, 5), mk(3, 2, 2)),
    "conv2d": lambda t, mk: _f(t).conv2d(mk(1, 2, 5, 5), mk(3, 2, 2, 2)),
    "conv3d": lambda t, mk: _f(t).conv3d(mk(1, 2, 4, 4, 4), mk(3, 2, 2, 2, 2)),
    "conv_transpose1d": lambda t, mk: _f(t).conv_transpose1d(mk(1, 2, 5), mk(2, 3, 2)),
    "conv_transpose2d": lambda t, mk: _f(t).conv_transpose2d(mk(1, 2, 5, 5), mk(2, 3, 2, 2)),
    "prelu": lambda t, mk: _f(t).prelu(mk(2, 3), mk(3)),
    "scaled_dot_product_attention": lambda t, mk: _f(t).scaled_dot_product_attention(mk(1, 3, 4), mk(1, 3, 4),
                                                                                    mk(1, 3, 4)),
    "matmul_operator": lambda t, mk: mk(3, 4) @ mk(4, 2),
    "einsum": lambda t, mk: t.einsum("ij,jk->ik", mk(3, 4), mk(4, 2)),
    "nn_linear_module": lambda t, mk: t.nn.Linear(4, 2)(mk(3, 4)),
    # PyTorch's CPU fp32 list (their inputs are cast to float32)
    "mse_loss": lambda t, mk: _f(t).mse_loss(mk(3, 4), mk(3, 4)),
    "l1_loss": lambda t, mk: _f(t).l1_loss(mk(3, 4), mk(3, 4)),
    "smooth_l1_loss": lambda t, mk: _f(t).smooth_l1_loss(mk(3, 4), mk(3, 4)),
    "huber_loss": lambda t, mk: _f(t).huber_loss(mk(3, 4), mk(3, 4)),
    "cross_entropy": lambda t, mk: _f(t).cross_entropy(mk(3, 4), t.tensor([0, 1, 3])),
    "nll_loss": lambda t, mk: _f(t).nll_loss(mk(3, 4), t.tensor([0, 1, 3])),
    "binary_cross_entropy_with_logits": lambda t, mk: _f(t).binary_cross_entropy_with_logits(
        mk(3, 4), mk(3, 4).sigmoid()),
    "kl_div": lambda t, mk: _f(t).kl_div(mk(3, 4), mk(3, 4), reduction="batchmean"),
    "prod": lambda t, mk: t.prod(mk(3, 4)),
    "cdist": lambda t, mk: t.cdist(mk(3, 4), mk(2, 4)),
    "trace": lambda t, mk: t.trace(mk(3, 3)),
    "margin_ranking_loss": lambda t, mk: _f(t).margin_ranking_loss(mk(3), mk(3), mk(3).sign()),
    "soft_margin_loss": lambda t, mk: _f(t).soft_margin_loss(mk(3), mk(3).sign()),
    "hinge_embedding_loss": lambda t, mk: _f(t).hinge_embedding_loss(mk(3), mk(3).sign()),
    "poisson_nll_loss": lambda t, mk: _f(t).poisson_nll_loss(mk(3), mk(3).abs()),
    "max_pool3d": lambda t, mk: _f(t).max_pool3d(mk(1, 1, 4, 4, 4), 2),
    "avg_pool3d": lambda t, mk: _f(t).avg_pool3d(mk(1, 1, 4, 4, 4), 2),
    "adaptive_avg_pool3d": lambda t, mk: _f(t).adaptive_avg_pool3d(mk(1, 1, 4, 4, 4), 2),
    # promote
    "cat": lambda t, mk: t.cat([mk(2), mk(2).bfloat16()]),
    "stack": lambda t, mk: t.stack([mk(2), mk(2).bfloat16()]),
    # not on a list: run in their inputs' dtype
    "softmax": lambda t, mk: t.softmax(mk(3, 4), -1),
    "log_softmax": lambda t, mk: t.log_softmax(mk(3, 4), -1),
    "layer_norm": lambda t, mk: _f(t).layer_norm(mk(3, 4), (4,)),
    "relu": lambda t, mk: t.relu(mk(3, 4)),
    "gelu": lambda t, mk: _f(t).gelu(mk(3, 4)),
    "add": lambda t, mk: mk(3, 4) + mk(3, 4),
    "sum": lambda t, mk: mk(3, 4).sum(),
    "exp": lambda t, mk: mk(3, 4).exp(),
    "batch_norm": lambda t, mk: _f(t).batch_norm(mk(3, 4), mk(4), mk(4).abs(), training=False),
    "max_pool2d": lambda t, mk: _f(t).max_pool2d(mk(1, 1, 4, 4), 2),
    "dropout_eval": lambda t, mk: _f(t).dropout(mk(3, 4), training=False),
    "sigmoid": lambda t, mk: t.sigmoid(mk(3, 4)),
    "mean": lambda t, mk: mk(3, 4).mean(),
    "pow": lambda t, mk: mk(3, 4).pow(2),
    "binary_cross_entropy": lambda t, mk: _f(t).binary_cross_entropy(mk(3, 4).sigmoid(), mk(3, 4).sigmoid()),
}
