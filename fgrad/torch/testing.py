"""``torch.testing``: `assert_close` (PyTorch's comparison of tensors, numbers, NumPy arrays
and nested sequences/mappings of them, with its default tolerances per dtype and its error
messages) and `make_tensor` (random test tensors drawn as PyTorch draws them).

Example::

    >>> import fgrad.torch as torch
    >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
    >>> torch.testing.assert_close(1.0, 1.5)
    Traceback (most recent call last):
    ...
    AssertionError: Scalars are not close!
    <BLANKLINE>
    Expected 1.5 but got 1.0.
    Absolute difference: 0.5 (up to 1e-07 allowed)
    Relative difference: 0.3333333333333333 (up to 1e-07 allowed)
"""

from __future__ import annotations

import collections.abc
import math
import numbers
import warnings
from typing import Any, Callable

import numpy as np

import fgrad.torch as torch

from . import _dtypes as D
from ._tensor import Tensor

__all__ = ["assert_allclose", "assert_close", "make_tensor"]

# PyTorch's default (rtol, atol) by dtype; integers and bools compare exactly
_TOLERANCES = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
    "complex32": (1e-3, 1e-5),
    "complex64": (1.3e-6, 1e-5),
    "complex128": (1e-7, 1e-7),
}


class _Mismatch(AssertionError):
    """An assertion failure that says where in a nested input it happened."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def _as_tensor(x):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.ndarray):
        return torch.from_numpy(x)
    if isinstance(x, bool):
        return torch.tensor(x, dtype=torch.bool)
    if isinstance(x, numbers.Integral):
        return torch.tensor(x, dtype=torch.int64)
    if isinstance(x, numbers.Real):
        return torch.tensor(x, dtype=torch.float64)
    return torch.tensor(complex(x), dtype=torch.complex128)


def _is_tensor_like(x) -> bool:
    return isinstance(x, (Tensor, np.ndarray, numbers.Number))


def _type_name(x) -> str:
    return "<class 'torch.Tensor'>" if isinstance(x, Tensor) else str(type(x))


def _tolerances(*dtypes, rtol, atol) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
            f"{'rtol' if rtol is None else 'atol'}."
        )
    if rtol is not None:
        return rtol, atol
    pairs = [_TOLERANCES.get(str(d).removeprefix("torch."), (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _diff_line(kind: str, diff, idx, tol, equality: bool) -> str:
    line = (
        f"{kind.title()} difference: {diff}"
        if idx is None
        else f"Greatest {kind} difference: {diff} at index {idx}"
    )
    return line + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _message(identifier: str, extra: str, abs_diff, abs_idx, rel_diff, rel_idx, rtol, atol) -> str:
    equality = rtol == 0 and atol == 0
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += _diff_line("absolute", abs_diff, abs_idx, atol, equality)
    msg += _diff_line("relative", rel_diff, rel_idx, rtol, equality)
    return msg.strip()


def _scalar_message(actual, expected, rtol, atol) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = math.inf if expected == 0 else abs_diff / abs(expected)
    return _message(
        "Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, rel_diff, None, rtol, atol
    )


def _tensor_message(a: np.ndarray, e: np.ndarray, matches: np.ndarray, rtol, atol, default_float) -> str:
    total = matches.size
    mismatches = total - int(matches.sum())
    extra = f"Mismatched elements: {mismatches} / {total} ({mismatches / total:.1%})"
    a, e, m = a.reshape(-1), e.reshape(-1), matches.reshape(-1)
    if a.dtype.kind not in "fc":
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e)
        abs_diff[m] = 0
        rel_diff = abs_diff / np.abs(e)
        if rel_diff.dtype.kind == "f" and a.dtype.kind not in "fc":
            rel_diff = rel_diff.astype(default_float)  # PyTorch: integer / integer is the default float
    rel_diff[m] = 0

    def greatest(d):
        i = int(np.argmax(d))  # NaN counts as the greatest, as torch.max
        return d[i].item(), tuple(int(k) for k in np.unravel_index(i, matches.shape))

    (ad, ai), (rd, ri) = greatest(abs_diff), greatest(rel_diff)
    return _message("Tensor-likes", extra, ad, ai, rd, ri, rtol, atol)


def _attr_mismatch(name: str, a, e) -> _Mismatch:
    return _Mismatch(f"The values for attribute '{name}' do not match: {a} != {e}.")


def _compare_tensors(actual, expected, *, rtol, atol, equal_nan, check_device, check_dtype, check_stride):
    a, e = _as_tensor(actual), _as_tensor(expected)
    if a.shape != e.shape:
        raise _attr_mismatch("shape", a.shape, e.shape)
    if check_device and a.device != e.device:
        raise _attr_mismatch("device", a.device, e.device)
    if check_dtype and a.dtype != e.dtype:
        raise _attr_mismatch("dtype", a.dtype, e.dtype)
    if check_stride and a.stride() != e.stride():
        raise _attr_mismatch("stride()", a.stride(), e.stride())
    rtol, atol = _tolerances(a.dtype, e.dtype, rtol=rtol, atol=atol)
    if a.dtype != e.dtype:
        common = torch.promote_types(a.dtype, e.dtype)
        a, e = a.to(common), e.to(common)
    an = a.detach().cpu().resolve_conj().numpy() if a.is_complex() else a.detach().cpu().numpy()
    en = e.detach().cpu().resolve_conj().numpy() if e.is_complex() else e.detach().cpu().numpy()
    if an.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            matches = np.isclose(an, en, rtol=rtol, atol=atol, equal_nan=equal_nan)
    else:
        matches = an == en
        rtol = atol = 0.0
    if matches.all():
        return
    if an.ndim == 0:
        raise _Mismatch(_scalar_message(an.item(), en.item(), rtol, atol))
    default_float = D.to_np(torch.get_default_dtype())
    raise _Mismatch(_tensor_message(an, en, matches, rtol, atol, default_float))


def _compare(actual, expected, path: str, **kw) -> None:
    allow_subclasses = kw.pop("allow_subclasses")
    if _is_tensor_like(actual) and _is_tensor_like(expected):
        both_numbers = isinstance(actual, numbers.Number) and isinstance(expected, numbers.Number)
        if not both_numbers and (isinstance(actual, numbers.Number) or isinstance(expected, numbers.Number)):
            raise TypeError(
                f"No comparison pair was able to handle inputs of type {_type_name(actual)} and "
                f"{_type_name(expected)}."
            )
        if not allow_subclasses and type(actual) is not type(expected):
            raise TypeError(
                f"No comparison pair was able to handle inputs of type {_type_name(actual)} and "
                f"{_type_name(expected)}."
            )
        try:
            _compare_tensors(actual, expected, **kw)
        except _Mismatch as m:
            raise _Mismatch(m.message, path) from None
        return
    kw["allow_subclasses"] = allow_subclasses
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            raise _Mismatch(
                f"The keys of the mappings do not match:\nMissing keys in the actual mapping: "
                f"{sorted(set(expected) - set(actual), key=repr)}\nAdditional keys in the actual "
                f"mapping: {sorted(set(actual) - set(expected), key=repr)}",
                path,
            )
        for k in expected:
            _compare(actual[k], expected[k], f"{path}[{k!r}]", **kw)
        return
    seq = collections.abc.Sequence
    if (
        isinstance(actual, seq)
        and isinstance(expected, seq)
        and not isinstance(actual, str)
        and not isinstance(expected, str)
    ):
        if len(actual) != len(expected):
            raise _Mismatch(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", path)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, f"{path}[{i}]", **kw)
        return
    if actual is None and expected is None:
        return
    raise TypeError(
        f"No comparison pair was able to handle inputs of type {_type_name(actual)} and "
        f"{_type_name(expected)}."
    )


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: str | Callable[[str], str] | None = None,
) -> None:
    """Assert that ``actual`` and ``expected`` are close: ``|a - e| <= atol + rtol * |e|``
    elementwise (exact for integers and bools), after checking shapes, devices and dtypes.
    Tensors, NumPy arrays, numbers and (nested) sequences and mappings of them are compared.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.testing.assert_close([torch.ones(2), {"b": 2}], [torch.ones(2), {"b": 2}])
    """
    try:
        _compare(
            actual,
            expected,
            "",
            allow_subclasses=allow_subclasses,
            rtol=rtol,
            atol=atol,
            equal_nan=equal_nan,
            check_device=check_device,
            check_dtype=check_dtype,
            check_stride=check_stride,
        )
    except _Mismatch as m:
        text = m.message
        if m.path:
            text += f"\n\nThe failure occurred for item {m.path}"
        if callable(msg):
            text = msg(text)
        elif msg is not None:
            text = msg
        raise AssertionError(text) from None


def assert_allclose(
    actual: Any,
    expected: Any,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = True,
    msg: str = "",
) -> None:
    """Deprecated: `assert_close` without dtype checks, NaNs equal by default.

    Example::

        >>> import fgrad.torch as torch
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.testing.assert_allclose(torch.ones(1), 1.0)
    """
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future "
        "release. Please use `torch.testing.assert_close()` instead.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if expected.shape != actual.shape:
        expected = expected.expand_as(actual)
    if rtol is None and atol is None:
        rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=None, atol=None)
    assert_close(
        actual,
        expected,
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        check_device=True,
        check_dtype=False,
        check_stride=False,
        msg=msg or None,
    )


def make_tensor(
    *shape: int | tuple[int, ...] | list[int],
    dtype: Any,
    device: Any = None,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)`` (default ``[-9, 9)``
    for floats, ``[-9, 10)`` for integers, 0/1 for bools), from the global generator as
    PyTorch draws them.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.testing.make_tensor(3, dtype=torch.float32, device="cpu").shape
        torch.Size([3])
    """
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = tuple(shape[0])
    shape = tuple(int(s) for s in shape)
    dt = D.canonical(dtype)
    integral = dt == torch.bool or not (dt.is_floating_point or dt.is_complex)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
            f"noncontiguous={noncontiguous} and memory_format={memory_format}"
        )
    if requires_grad and integral:
        raise ValueError(
            f"`requires_grad=True` is not supported for boolean and integral dtypes, but got dtype={dt}"
        )

    def bounds(lo_incl, hi_excl, default_low, default_high):
        lo = default_low if low is None else low
        hi = default_high if high is None else high
        if any(isinstance(v, float) and math.isnan(v) for v in (lo, hi)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got low={lo} and high={hi}")
        if lo > hi or (lo == hi and integral):
            raise ValueError(f"`low` must be less than `high`, but got {lo} >= {hi}")
        lo, hi = min(max(lo, lo_incl), hi_excl), min(max(hi, lo_incl), hi_excl)
        return (math.ceil(lo), math.ceil(hi)) if integral else (lo, hi)

    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if dt == torch.bool:
        lo, hi = bounds(0, 2, 0, 2)
        result = torch.randint(lo, hi, shape, device=device, dtype=dt)
    elif integral:
        info = torch.iinfo(dt)
        lo, hi = bounds(info.min, info.max + (1 if dt != torch.int64 else 0), -9, 10)
        result = torch.randint(lo, hi, shape, device=device, dtype=dt)
    else:
        info = torch.finfo(dt)
        lo, hi = bounds(info.min, info.max, -9, 9)
        result = torch.empty(shape, device=device, dtype=dt)
        target = torch.view_as_real(result) if dt.is_complex else result
        if hi - lo >= info.max:
            target.uniform_(lo / 2, hi / 2).mul_(2)
        else:
            target.uniform_(lo, hi)
    if noncontiguous:
        result = result[..., 1::2]
    if exclude_zero:
        result[result == 0] = 1 if integral else torch.finfo(dt).tiny
    if not integral:
        result.requires_grad = requires_grad
    return result
