"""``torch.autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp on the tape."""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor, _wrap
from ._grad import grad
from .._ops_creation import zeros_like as _zeros_like
from collections.abc import Callable as _Callable
from typing import Any as _Any


def _tup(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _prep(inputs, create_graph):
    return tuple(
        i.detach().requires_grad_(True) if not create_graph or not i.requires_grad else i
        for i in _tup(inputs)
    )


def _autograd_grad(outs, ins, vs=None, create_graph=False, retain_graph=None):
    """``grad`` of the outputs that require grad (others contribute nothing); None for an
    input none of them depends on, and for every input when no output requires grad (as
    PyTorch's helper of the same name)."""
    vs = (None,) * len(outs) if vs is None else vs
    pairs = [(o, v) for o, v in zip(outs, vs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(ins)
    return grad([o for o, _ in pairs], ins, [v for _, v in pairs], retain_graph=retain_graph,
                create_graph=create_graph, allow_unused=True)


_INDEPENDENT = {  # what strict mode says of a missing derivative, per stage (PyTorch's words)
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
            "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs "
                  "when using the double backward trick to compute forward mode gradients. This is not "
                  "allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not "
                   "allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the "
                         "double backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, stage):
    """Missing derivatives as zeros shaped like ``refs`` (strict mode: an error)."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = _zeros_like(refs[i])
        out.append(g)
    return tuple(out)


_NO_GRAD_MESSAGES = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be "
               "computed in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
                   "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with "
                "respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                "should ensure that your function is twice differentiable and that the jacobian depends on "
                "the inputs (this would be violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is independent of the "
               "input. This is not allowed in strict mode. You should ensure that your function is thrice "
               "differentiable and that the hessian depends on the inputs.",
}


def _check_requires_grad(tensors, kind, strict):
    """Strict mode: every one of ``tensors`` must depend on the inputs (PyTorch's checks)."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(_INDEPENDENT["back"].format(i=i))
        if not t.requires_grad:
            raise RuntimeError(_NO_GRAD_MESSAGES[kind].format(i=i))


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
    _check_requires_grad(outs, "outputs", strict)
    vs = _tup(v) if v is not None else (None,) * len(outs)
    g = _fill_in_zeros(_autograd_grad(outs, ins, vs, create_graph), ins, strict, "back")
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
    _check_requires_grad(outs, "outputs", strict)
    jac = []
    for i, o in enumerate(outs):
        rows = []
        n = o._buf.size
        for j in range(n):
            e = np.zeros(o._buf.shape, o._buf.dtype)
            e.reshape(-1)[j] = 1
            g = _autograd_grad((o,), ins, (_wrap(e),), create_graph, retain_graph=True)
            if strict and any(r is None for r in g):
                k = next(k for k, r in enumerate(g) if r is None)
                raise RuntimeError(f"Output {i} of the user-provided function is independent of input {k}. "
                                   "This is not allowed in strict mode.")
            rows.append(_fill_in_zeros(g, ins, False, "back"))
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
        _check_requires_grad(_tup(out), "outputs", strict)
        g = _fill_in_zeros(_autograd_grad(_tup(out), ins, None, True), ins, False, "back")
        _check_requires_grad(g, "jacobian", strict)
        return g[0] if single else g

    return jacobian(jac_fn, inputs, create_graph=create_graph, strict=strict)


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
    _check_requires_grad(outs, "outputs", strict)
    vs = _tup(v)
    dummies = tuple(_wrap(np.zeros(o._buf.shape, o._buf.dtype)).requires_grad_() for o in outs)
    g = _autograd_grad(outs, ins, dummies, True)
    _check_requires_grad(g, "grad_inputs", strict)
    r = _fill_in_zeros(_autograd_grad(g, dummies, vs, create_graph), outs, strict, "back_trick")
    res = out.detach() if isinstance(out, Tensor) else tuple(o.detach() for o in outs)
    del single
    return res, (r[0] if isinstance(out, Tensor) else r)


def _second_order(func, inputs, v, create_graph, strict, stage):
    single = isinstance(inputs, Tensor)
    ins = _prep(inputs, True)
    out = func(*ins)
    _check_requires_grad(_tup(out), "outputs", strict)
    g = _autograd_grad(_tup(out), ins, None, True)
    _check_requires_grad(g, "jacobian", strict)
    r = _fill_in_zeros(_autograd_grad(g, ins, _tup(v), create_graph), ins, strict, stage)
    return out.detach(), (r[0] if single else r)


def hvp(func: _Callable[..., _Any], inputs: _Any, v: _Any = None, create_graph: _Any = False,
        strict: _Any = False) -> _Any:
    """``(func(*inputs), H v)``: the value and the Hessian-vector product with ``v`` (the
    Hessian is symmetric: computed as ``v^T H``, PyTorch's numbers).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import hvp
        >>> hvp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        (tensor(9.), tensor([ 6., 12.]))
    """
    return _second_order(func, inputs, v, create_graph, strict, "double_back_trick")


def vhp(func: _Callable[..., _Any], inputs: _Any, v: _Any = None, create_graph: _Any = False,
        strict: _Any = False) -> _Any:
    """``(func(*inputs), v^T H)``: the value and the vector-Hessian product with ``v``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.functional import vhp
        >>> vhp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
        (tensor(9.), tensor([6., 0.]))
    """
    return _second_order(func, inputs, v, create_graph, strict, "double_back")
