"""The shim refuses the operand dtypes PyTorch refuses, with PyTorch's error type and words
(op specs' ``torch_refuses``), instead of computing something (``maximum`` of complex tensors,
``hypot`` of integers, ``lt`` of complex numbers, ``abs``/``floor``/``pow`` of bools used to
return a result) or leaking NumPy's ufunc TypeError.

``STORED`` holds PyTorch 2.13's errors (type, message) for ``op(x)`` / ``op(x, x)``;
``test_live_pytorch_agrees`` compares every generated unary/binary face with live PyTorch on
bool, int64, uint8, float16 and complex64 operands: the same error type and message, or
results of the same dtype."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.ops.specs import SPEC_LIST
from tests._peers import torch_or_none

NIE, RE = NotImplementedError, RuntimeError
STORED = {
    ("abs", "b"): (NIE, '"abs_cpu" not implemented for \'Bool\''),
    ("neg", "b"): (RE, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                       "invert a mask, use the `~` or `logical_not()` operator instead."),
    ("sign", "c"): (NIE, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                         "torch.sgn instead."),
    ("floor", "b"): (NIE, '"floor_vml_cpu" not implemented for \'Bool\''),
    ("floor", "c"): (NIE, "floor is not supported for complex inputs"),
    ("trunc", "c"): (NIE, "trunc is not supported for complex inputs"),
    ("signbit", "c"): (NIE, "signbit is not implemented for complex tensors."),
    ("bitwise_not", "h"): (NIE, '"bitwise_not_cpu" not implemented for \'Half\''),
    ("erf", "c"): (NIE, '"erf_vml_cpu" not implemented for \'ComplexFloat\''),
    ("sub", "b"): (RE, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                       "or `logical_xor()` operator instead."),
    ("pow", "b"): (NIE, '"pow" not implemented for \'Bool\''),
    ("maximum", "c"): (RE, "maximum not implemented for complex tensors."),
    ("fmin", "c"): (RE, "fmin not implemented for complex tensors."),
    ("atan2", "c"): (NIE, '"atan2_cpu" not implemented for \'ComplexFloat\''),
    ("hypot", "i"): (NIE, '"hypot_cpu" not implemented for \'Long\''),
    ("hypot", "u"): (NIE, '"hypot_cpu" not implemented for \'Byte\''),
    ("logaddexp", "b"): (NIE, '"logaddexp_cpu" not implemented for \'Bool\''),
    ("logaddexp2", "c"): (NIE, '"logaddexp2_cpu" not implemented for \'ComplexFloat\''),
    ("remainder", "c"): (NIE, '"remainder_cpu" not implemented for \'ComplexFloat\''),
    ("fmod", "b"): (NIE, '"fmod_cpu" not implemented for \'Bool\''),
    ("floor_divide", "b"): (NIE, '"div_floor_cpu" not implemented for \'Bool\''),
    ("bitwise_and", "h"): (NIE, '"bitwise_and_cpu" not implemented for \'Half\''),
    ("lt", "c"): (NIE, '"lt_cpu" not implemented for \'ComplexFloat\''),
    ("ge", "c"): (NIE, '"ge_cpu" not implemented for \'ComplexFloat\''),
}
BINARY = {"sub", "pow", "maximum", "fmin", "atan2", "hypot", "logaddexp", "logaddexp2", "remainder", "fmod",
          "floor_divide", "bitwise_and", "lt", "ge"}
VALUES = {"b": ([True, False], "bool"), "i": ([1, -2], "int64"), "u": ([1, 2], "uint8"),
          "h": ([1.5, 2.0], "float16"), "c": ([1 + 1j, 2 - 1j], "complex64")}


def _tensor(m, kind):
    values, dtype = VALUES[kind]
    return m.tensor(values, dtype=getattr(m, dtype))


def _outcome(m, name, kind, binary):
    f = getattr(m, name)
    x = _tensor(m, kind)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = f(x, x) if binary else f(x)
    except Exception as e:  # noqa: BLE001 - the outcome compared is the error
        return type(e), str(e)
    return "ok", str(r.dtype)


@pytest.mark.parametrize("name, kind", sorted(STORED))
def test_pytorchs_errors(name, kind):
    error, message = STORED[name, kind]
    with pytest.raises(error) as info:
        x = _tensor(ft, kind)
        getattr(ft, name)(x, x) if name in BINARY else getattr(ft, name)(x)
    assert str(info.value) == message


@pytest.mark.parametrize("kind", ["b", "c"])
def test_methods_operators_and_inplace_forms_refuse_too(kind):
    x = _tensor(ft, kind)
    calls = {"b": [lambda: -x, lambda: abs(x), lambda: x.floor(), lambda: x.clone().floor_(), lambda: x - x,
                   lambda: x ** x],
             "c": [lambda: x < x, lambda: x < 1.0, lambda: x.maximum(x), lambda: x % x,
                   lambda: x.clone().trunc_()]}
    for call in calls[kind]:
        with pytest.raises((NotImplementedError, RuntimeError), match="not (implemented|supported)"):
            call()


def test_accepted_dtypes_still_compute():
    i, f = ft.tensor([3, 4]), ft.tensor([3.0, 4.0])
    np.testing.assert_array_equal(ft.hypot(f, f).numpy(), np.hypot([3.0, 4.0], [3.0, 4.0]).astype(np.float32))
    assert ft.maximum(i, i).dtype == ft.int64 and abs(i).dtype == ft.int64 and (i - 1).dtype == ft.int64
    assert ft.floor(i).dtype == ft.int64 and (ft.tensor([1j]) == ft.tensor([1j])).item()


def _faces():
    for spec in SPEC_LIST:
        if spec.family in ("unary", "binary") and spec.torch and spec.prim is not None:
            yield spec.torch[0], spec.family == "binary"


def test_live_pytorch_agrees():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    differ = []
    for name, binary in _faces():
        if getattr(torch, name, None) is None:
            continue
        for kind in VALUES:
            want, got = _outcome(torch, name, kind, binary), _outcome(ft, name, kind, binary)
            if want != got and not (want[0] == "ok" and got[0] == "ok" and want[1][6:] == got[1][6:]):
                differ.append((name, kind, want, got))
    assert not differ, differ
