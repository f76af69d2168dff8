"""``gradcheck`` / ``gradgradcheck``: compare autograd's Jacobians with central finite
differences (use float64 inputs)."""

from __future__ import annotations

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
from .._tensor import Tensor, _wrap
from ._grad import grad as autograd_grad
from collections.abc import Callable
from fgrad.torch.types import TensorOrTensors
from typing import Any


def _host64(t) -> np.ndarray:
    """A float64 host copy of a tensor's values (its buffer may be on the CUDA device)."""
    return np.array(_dev.to_host(t._buf), np.float64)


def _like(arr: np.ndarray, t: Tensor):
    """The host array ``arr`` as a tensor on ``t``'s device."""
    b = t._buf
    return _wrap(arr if not _dev.is_dev(b) else _dev.to_dev(arr, _dev.index_of(b)))


class GradcheckError(RuntimeError):
    """Raised by `gradcheck` when the analytical and numerical Jacobians differ.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.gradcheck import GradcheckError
        >>> issubclass(GradcheckError, RuntimeError)
        True
    """


def _as_tuple(x):
    if isinstance(x, Tensor):
        return (x,)
    return tuple(x)


def _diff_inputs(inputs):
    return [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]


def _outputs(func, inputs):
    out = func(*inputs)
    return _as_tuple(out)


def _numerical_jacobian(func, inputs, out_index, in_index, eps):
    x = inputs[in_index]
    buf = x._buf
    n_in = buf.size
    if True:  # evaluated with grad mode on: func may itself use autograd (gradgradcheck)
        base = _outputs(func, inputs)[out_index]
        n_out = base._buf.size
        jac = np.zeros((n_in, n_out), np.float64)
        flat = buf.reshape(-1) if buf.flags.c_contiguous else None
        if flat is None:
            raise GradcheckError("gradcheck: inputs must be contiguous")
        for i in range(n_in):
            orig = flat[i].item()
            flat[i] = orig - eps
            lo = _host64(_outputs(func, inputs)[out_index]).reshape(-1)
            flat[i] = orig + eps
            hi = _host64(_outputs(func, inputs)[out_index]).reshape(-1)
            flat[i] = orig
            jac[i] = (hi - lo) / (2 * eps)
    return jac


def _analytical_jacobian(func, inputs, out_index, in_index):


    out = _outputs(func, inputs)[out_index]
    x = inputs[in_index]
    n_in, n_out = x._buf.size, out._buf.size
    jac = np.zeros((n_in, n_out), np.float64)
    if not out.requires_grad:
        return jac
    for j in range(n_out):
        g = np.zeros(out._buf.shape, out._buf.dtype)
        g.reshape(-1)[j] = 1
        (gx,) = autograd_grad(out, x, _like(g, out), retain_graph=True, allow_unused=True)
        if gx is not None:
            jac[:, j] = _host64(gx).reshape(-1)
    return jac


def gradcheck(func: Callable[..., Any], inputs: TensorOrTensors, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True, fast_mode: bool = False,
              masked: bool | None = None) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against finite differences.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.randn(3, dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(lambda x: (x ** 3).sum(), (x,))
        True
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    inputs = _as_tuple(inputs)
    outs = _outputs(func, inputs)
    modes = [(_analytical_jacobian, "")] if check_backward_ad else []
    if check_forward_ad:
        modes.append((_forward_jacobian, " computed with forward mode"))
    for i in _diff_inputs(inputs):
        for k, o in enumerate(outs):
            if not isinstance(o, Tensor) or _dtype_kind(o._buf.dtype) not in "fc":
                continue
            num = _numerical_jacobian(func, inputs, k, i, eps)
            for jacobian, how in modes:
                ana = jacobian(func, inputs, k, i)
                if not np.allclose(ana, num, rtol=rtol, atol=atol):
                    msg = (
                        f"Jacobian{how} mismatch for output {k} with respect to input {i},\n"
                        f"numerical:{_wrap(num)}\nanalytical:{_wrap(ana)}\n"
                    )
                    if raise_exception:
                        raise GradcheckError(msg)
                    return False
    return True


def _forward_jacobian(func, inputs, out_index, in_index):
    """The Jacobian by forward-mode AD (one dual-tensor evaluation per input element),
    laid out as `_analytical_jacobian`'s: row i holds d output / d input element i."""
    from .forward_ad import dual_level, make_dual, unpack_dual

    x = inputs[in_index]
    n_in = x._buf.size
    jac = None
    for i in range(n_in):
        t = np.zeros(x._buf.shape, x._buf.dtype)
        t.reshape(-1)[i] = 1
        with dual_level():
            ins = list(inputs)
            ins[in_index] = make_dual(x, _like(t, x))
            out = _as_tuple(func(*ins))[out_index]
            tangent = unpack_dual(out).tangent
            if jac is None:
                jac = np.zeros((n_in, out.numel()), np.float64)
            if tangent is not None:
                jac[i] = _host64(tangent).reshape(-1)
    return jac if jac is not None else np.zeros((0, 0), np.float64)


def gradgradcheck(func: Callable[..., Any], inputs: TensorOrTensors,
                  grad_outputs: TensorOrTensors | None = None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False, masked: bool = False) -> bool:
    """Check second derivatives: gradcheck of ``v -> d<func(x), v>/dx``."""


    inputs = _as_tuple(inputs)
    outs = _outputs(func, inputs)
    diff = _diff_inputs(inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            _like(rng.standard_normal(o._buf.shape).astype(o._buf.dtype), o).requires_grad_() for o in outs
        )
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def new_func(*args):
        ins, gos = args[:n_in], args[n_in:]
        o = _outputs(func, ins)
        pairs = [(oo, g) for oo, g in zip(o, gos, strict=False) if oo.requires_grad]
        gi = autograd_grad(
            [p[0] for p in pairs],
            [ins[i] for i in diff],
            [p[1] for p in pairs],
            create_graph=True,
            allow_unused=True,
        )
        return tuple(g for g in gi if g is not None)

    return gradcheck(
        new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception
    )


__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]
