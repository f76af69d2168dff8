"""``torch.autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp on the tape."""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor, _wrap
from ._grad import grad
from collections.abc import Callable as _Callable
from typing import Any as _Any


def _tup(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _prep(inputs, create_graph):
    return tuple(
        i.detach().requires_grad_(True) if not create_graph or not i.requires_grad else i
        for i in _tup(inputs)
    )


def vjp(func: _Callable[..., _Any], inputs: _Any, v: _Any = None, create_graph: _Any = False,
        strict: _Any = False) -> _Any:


    """``(func(*inputs), v^T J)``: the output and the vector-Jacobian product with ``v`` (as
    ``torch.autograd.functional.vjp``).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import vjp
        >>> vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    single = isinstance(inputs, Tensor)
    ins = _prep(inputs, create_graph)
    out = func(*ins)
    outs = _tup(out)
    vs = _tup(v) if v is not None else (None,) * len(outs)
    g = grad(outs, ins, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    res = (
        out
        if create_graph
        else (out.detach() if isinstance(out, Tensor) else tuple(o.detach() for o in outs))
    )
    return res, (g[0] if single else g)


def jacobian(func: _Callable[..., _Any], inputs: _Any, create_graph: _Any = False, strict: _Any = False,
             vectorize: _Any = False, strategy: _Any = "reverse-mode") -> _Any:


    """The Jacobian of ``func`` at ``inputs`` (a tensor, or a tuple per output and input).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import jacobian
        >>> jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    single_in = isinstance(inputs, Tensor)
    ins = _prep(inputs, create_graph)
    out = func(*ins)
    single_out = isinstance(out, Tensor)
    outs = _tup(out)
    jac = []
    for o in outs:
        rows = []
        n = o._buf.size
        for j in range(n):
            e = np.zeros(o._buf.shape, o._buf.dtype)
            e.reshape(-1)[j] = 1
            g = grad(
                o,
                ins,
                _wrap(e),
                retain_graph=True,
                create_graph=create_graph,
                allow_unused=True,
                materialize_grads=True,
            )
            rows.append(g)
        per_in = []
        for k, x in enumerate(ins):
            from .._ops_shape import stack, reshape

            st = stack([r[k] for r in rows]) if rows else _wrap(np.zeros((0,) + x._buf.shape, x._buf.dtype))
            per_in.append(reshape(st, o._buf.shape + x._buf.shape))
        jac.append(per_in[0] if single_in else tuple(per_in))
    return jac[0] if single_out else tuple(jac)


def hessian(
    func: _Callable[..., _Any], inputs: _Any, create_graph: _Any = False, strict: _Any = False,
            vectorize: _Any = False, outer_jacobian_strategy: _Any = "reverse-mode"
) -> _Any:


    """The Hessian of the scalar function ``func`` at ``inputs``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import hessian
        >>> hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    single = isinstance(inputs, Tensor)

    def jac_fn(*ins):
        out = func(*ins)
        g = grad(out, ins, create_graph=True, allow_unused=True, materialize_grads=True)
        return g[0] if single else g

    return jacobian(jac_fn, inputs, create_graph=create_graph)


def jvp(func: _Callable[..., _Any], inputs: _Any, v: _Any = None, create_graph: _Any = False,
        strict: _Any = False) -> _Any:


    """``(func(*inputs), J v)``: the output and the Jacobian-vector product with ``v``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import jvp
        >>> jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
        (tensor([1., 4.]), tensor([2., 0.]))
    """
    single = isinstance(inputs, Tensor)
    ins = _prep(inputs, True)
    out = func(*ins)
    outs = _tup(out)
    vs = _tup(v)
    dummies = tuple(_wrap(np.zeros(o._buf.shape, o._buf.dtype)).requires_grad_() for o in outs)
    g = grad(outs, ins, dummies, create_graph=True, allow_unused=True, materialize_grads=True)
    r = grad(g, dummies, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    res = out.detach() if isinstance(out, Tensor) else tuple(o.detach() for o in outs)
    del single
    return res, (r[0] if isinstance(out, Tensor) else r)


def hvp(func: _Callable[..., _Any], inputs: _Any, v: _Any = None, create_graph: _Any = False,
        strict: _Any = False) -> _Any:


    """``(func(*inputs), H v)``: the value and the Hessian-vector product with ``v``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import hvp
        >>> hvp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        (tensor(9.), tensor([ 6., 12.]))
    """
    single = isinstance(inputs, Tensor)
    ins = _prep(inputs, True)
    out = func(*ins)
    g = grad(out, ins, create_graph=True)
    r = grad(g, ins, _tup(v), create_graph=create_graph, allow_unused=True, materialize_grads=True)
    return out.detach(), (r[0] if single else r)


vhp = hvp
