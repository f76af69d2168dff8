"""`fgrad.nn`: activation functions, softmax/logsumexp, one-hot encoding, standardization,
dot-product attention and parameter initializers (like `jax.nn`).

All are composites of `fgrad.numpy` / `fgrad.ops`, so they differentiate (to any order),
vectorize and stage like everything else.  Conventions follow JAX: ``relu`` has derivative
0 at 0; ``gelu`` uses the tanh approximation unless ``approximate=False``; ``softmax``,
``log_softmax`` and ``logsumexp`` subtract a ``stop_gradient``-ed maximum for stability.

Example::

    >>> import fgrad, fgrad.nn as nn, fgrad.numpy as fnp
    >>> nn.softmax(fnp.asarray([1000.0, 1000.0]))
    Array([0.5, 0.5], dtype=float64)
    >>> fgrad.grad(nn.relu)(0.0)
    Array(0., dtype=float64, weak_type=True)
"""

from __future__ import annotations

from . import initializers
from ._activations import (
    celu, elu, gelu, glu, hard_sigmoid, hard_silu, hard_swish, hard_tanh, identity, leaky_relu,
    log1mexp, log_sigmoid, log_softmax, logmeanexp, logsumexp, mish, one_hot, relu, relu6, selu,
    sigmoid, silu, soft_sign, softmax, softplus, sparse_plus, sparse_sigmoid, squareplus,
    standardize, swish, tanh,
)
from ._attention import dot_product_attention

__all__ = [
    "relu", "relu6", "leaky_relu", "elu", "celu", "selu", "gelu", "sigmoid", "log_sigmoid", "softplus",
    "soft_sign", "silu", "swish", "hard_tanh", "hard_sigmoid", "hard_silu", "hard_swish", "mish", "tanh",
    "glu", "softmax", "log_softmax", "logsumexp", "logmeanexp", "log1mexp", "one_hot", "standardize",
    "identity", "squareplus", "sparse_plus", "sparse_sigmoid", "dot_product_attention", "initializers",
]

from .. import _docs as _docs_examples  # noqa: E402

_docs_examples.attach("fgrad.nn")  # runnable examples for the functions without one (fgrad/_docs)
