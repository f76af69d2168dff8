"""``gradcheck`` / ``gradgradcheck``: compare autograd's Jacobians with central finite
differences (use float64 inputs)."""

from __future__ import annotations

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
from .._dtypes import float64
from .._tensor import Tensor, _wrap
from ._grad import grad as autograd_grad
from collections.abc import Callable
from fgrad.torch.types import TensorOrTensors
from typing import Any


def _host64(t) -> np.ndarray:
    """A flat float64 host copy of a tensor's values (its buffer may be on the CUDA device);
    a complex tensor's as (real, imaginary) pairs: the Jacobians are those of the function
    of real numbers, as PyTorch's gradcheck checks complex functions."""
    b = _dev.to_host(t._buf)
    if _dtype_kind(b.dtype) == "c":
        return np.ascontiguousarray(b, np.complex128).reshape(-1).view(np.float64)
    return np.array(b, np.float64).reshape(-1)


def _parts(dtype) -> tuple:
    """The directions of one element's real components: 1 (and 1j for a complex dtype)."""
    return (1, 1j) if _dtype_kind(dtype) == "c" else (1,)


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
        parts = _parts(buf.dtype)
        jac = np.zeros((n_in * len(parts), _host64(base).size), np.float64)
        for i in range(n_in):
            at = np.unravel_index(i, buf.shape)  # the i-th element in logical order, any strides
            orig = buf[at].item()
            for p, part in enumerate(parts):
                buf[at] = orig - eps * part
                lo = _host64(_outputs(func, inputs)[out_index])
                buf[at] = orig + eps * part
                hi = _host64(_outputs(func, inputs)[out_index])
                buf[at] = orig
                jac[i * len(parts) + p] = (hi - lo) / (2 * eps)
    return jac


def _analytical_jacobian(func, inputs, out_index, in_index):


    out = _outputs(func, inputs)[out_index]
    x = inputs[in_index]
    out_parts = _parts(out._buf.dtype)
    n_out = out._buf.size
    jac = np.zeros((x._buf.size * len(_parts(x._buf.dtype)), n_out * len(out_parts)), np.float64)
    if not out.requires_grad:
        return jac
    for j in range(n_out):
        for p, part in enumerate(out_parts):  # PyTorch's convention: the gradient of a real
            g = np.zeros(out._buf.shape, out._buf.dtype)  # loss is dL/dRe + i dL/dIm
            g.reshape(-1)[j] = part
            (gx,) = autograd_grad(out, x, _like(g, out), retain_graph=True, allow_unused=True)
            if gx is not None:
                jac[:, j * len(out_parts) + p] = _as_input_components(_host64(gx), x)
    return jac


def _as_input_components(g: np.ndarray, x) -> np.ndarray:
    """A gradient's components in the layout of ``x``'s (a real gradient of a complex input
    has zero imaginary parts)."""
    if _dtype_kind(x._buf.dtype) == "c" and g.size == x._buf.size:
        return np.stack([g, np.zeros_like(g)], axis=1).reshape(-1)
    return g


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
    parts = _parts(x._buf.dtype)
    rows = []
    for i in range(x._buf.size):
        for part in parts:
            t = np.zeros(x._buf.shape, x._buf.dtype)
            t.reshape(-1)[i] = part
            with dual_level():
                ins = list(inputs)
                ins[in_index] = make_dual(x, _like(t, x))
                out = _as_tuple(func(*ins))[out_index]
                tangent = unpack_dual(out).tangent
                rows.append(np.zeros(_host64(out).size) if tangent is None else _host64(tangent))
    return np.array(rows, np.float64) if rows else np.zeros((0, 0), np.float64)


def gradgradcheck(func: Callable[..., Any], inputs: TensorOrTensors,
                  grad_outputs: TensorOrTensors | None = None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False, masked: bool = False) -> bool:
    """Check second derivatives: gradcheck of ``(x, v) -> d<func(x), v>/dx``, ``v`` one
    cotangent per differentiable output (an output that requires grad).  Without
    ``grad_outputs`` they are drawn as PyTorch draws them: ``torch.testing.make_tensor`` in
    ``[-1, 1)`` from the global generator (so a program's later random numbers are PyTorch's).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradgradcheck(lambda x: x.sin() * x, (x,))
        True
    """
    from ..testing import make_tensor

    inputs = _as_tuple(inputs)
    diff = _diff_inputs(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(
            make_tensor(o.shape, dtype=o.dtype if o.is_floating_point() or o.is_complex() else float64,
                        device=o.device, low=-1, high=1, requires_grad=True,
                        noncontiguous=gen_non_contig_grad_outputs)
            for o in _differentiable_outputs(func, inputs))
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)

    def new_func(*args):
        ins, gos = args[:n_in], args[n_in:]
        gi = autograd_grad(
            list(_differentiable_outputs(func, ins)),
            [ins[i] for i in diff],
            list(gos),
            create_graph=True,
            allow_unused=True,
        )
        return tuple(g for g in gi if g is not None)

    return gradcheck(
        new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception
    )


def _differentiable_outputs(func, inputs) -> tuple:
    """The outputs of ``func(*inputs)`` that require grad (PyTorch's gradgradcheck pairs its
    grad_outputs with these only)."""
    return tuple(o for o in _outputs(func, inputs) if isinstance(o, Tensor) and o.requires_grad)


__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]
