"""Bad input gets PyTorch's error (round 22): calls fgrad answered differently from PyTorch 2.13.

* ``sum``/``prod``/``mean`` (function and method) with ``keepdim=`` but no ``dim``: PyTorch's
  argument parser matches no overload (``TypeError``); fgrad reduced everything.  ``prod``'s
  ``dim`` is an ``int``: an explicit ``dim=None`` is a ``TypeError`` too.
* ``median``/``nanmedian``/``kthvalue`` of a bool or complex tensor along an empty dimension:
  PyTorch checks the size first (``IndexError``), fgrad checked the dtype first
  (``NotImplementedError``).
* ``interpolate(mode="area")`` to an empty size: PyTorch's adaptive average pooling returns the
  empty tensor; fgrad raised ``RuntimeError`` (and its backward failed on the empty cotangent).

``STORED`` holds PyTorch 2.13's answers (error type, or the result's shape); the live test
compares each call with the installed PyTorch (error types; messages with the pinned release).
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from tests._peers import torch_is_pinned, torch_or_none


def _calls(torch) -> dict:
    """name -> a call of ``torch`` (fgrad's shim or PyTorch) on fresh inputs."""
    x = torch.ones(2, 3)
    empty_bool = torch.zeros(2, 0, dtype=torch.bool)
    empty_complex = torch.zeros(2, 0, dtype=torch.complex64)
    F = torch.nn.functional
    calls = {}
    for op in ("sum", "prod", "mean"):
        calls[f"{op}(x, keepdim=True)"] = lambda op=op: getattr(torch, op)(x, keepdim=True)
        calls[f"x.{op}(keepdim=True)"] = lambda op=op: getattr(x, op)(keepdim=True)
        calls[f"{op}(x, keepdim=False)"] = lambda op=op: getattr(torch, op)(x, keepdim=False)
        calls[f"{op}(x, 1, keepdim=True)"] = lambda op=op: getattr(torch, op)(x, 1, keepdim=True)
        calls[f"{op}(x, dim=None)"] = lambda op=op: getattr(torch, op)(x, dim=None)
        calls[f"{op}(x)"] = lambda op=op: getattr(torch, op)(x)
    for name, e in (("bool", empty_bool), ("complex", empty_complex)):
        calls[f"median({name} (2,0), 1)"] = lambda e=e: torch.median(e, 1)
        calls[f"{name}.median(dim=-1, keepdim=True)"] = lambda e=e: e.median(dim=-1, keepdim=True)
        calls[f"nanmedian({name} (2,0), 1)"] = lambda e=e: torch.nanmedian(e, 1)
        calls[f"kthvalue({name} (2,0), 1, 1)"] = lambda e=e: torch.kthvalue(e, 1, 1)
        calls[f"kthvalue({name} (2,0), 1)"] = lambda e=e: torch.kthvalue(e, 1)
        calls[f"{name}.kthvalue(1, dim=1)"] = lambda e=e: e.kthvalue(1, dim=1)
        # the reduced dimension is not empty: the dtype is refused
        calls[f"median({name} (2,0), 0)"] = lambda e=e: torch.median(e, 0)
        calls[f"kthvalue({name} (2,0), 1, 0)"] = lambda e=e: torch.kthvalue(e, 1, 0)
    sizes = (((1, 2, 4), 0), ((1, 2, 4, 4), (0, 3)), ((1, 2, 4, 4), (2, 0)), ((1, 2, 4, 4, 4), (2, 2, 0)))
    for shape, size in sizes:
        calls[f"interpolate({shape}, {size}, area)"] = (
            lambda shape=shape, size=size: F.interpolate(torch.ones(*shape), size=size, mode="area"))
        calls[f"interpolate({shape}, {size}, nearest)"] = (
            lambda shape=shape, size=size: F.interpolate(torch.ones(*shape), size=size, mode="nearest"))
    return calls


TE, IE, NIE, RE = TypeError, IndexError, NotImplementedError, RuntimeError
_MEDIAN_EMPTY = "median(): Expected reduction dim 1 to have non-zero size."
_KTH_EMPTY = "kthvalue(): Expected reduction dim 1 to have non-zero size."
_NOT_SIZED = "Input and output sizes should be greater than 0, but got input (H: 4, W: 4) output "

# PyTorch 2.13: (error type, message start) or the result's shape
STORED: dict = {
    **{f"{op}(x, keepdim=True)": (TE, f"{op}() received an invalid combination of arguments - got "
                                      "(Tensor, keepdim=bool), but expected one of:")
       for op in ("sum", "prod", "mean")},
    **{f"x.{op}(keepdim=True)": (TE, f"{op}() received an invalid combination of arguments") for op in
       ("sum", "prod", "mean")},
    **{f"{op}(x, keepdim=False)": (TE, f"{op}() received an invalid combination of arguments") for op in
       ("sum", "prod", "mean")},
    **{f"{op}(x, 1, keepdim=True)": (2, 1) for op in ("sum", "prod", "mean")},
    "sum(x, dim=None)": (), "mean(x, dim=None)": (),
    "prod(x, dim=None)": (TE, "prod()"),
    **{f"{op}(x)": () for op in ("sum", "prod", "mean")},
    **{k: v for name, t in (("bool", "Bool"), ("complex", "ComplexFloat")) for k, v in {
        f"median({name} (2,0), 1)": (IE, _MEDIAN_EMPTY),
        f"{name}.median(dim=-1, keepdim=True)": (IE, _MEDIAN_EMPTY),
        f"nanmedian({name} (2,0), 1)": (IE, _MEDIAN_EMPTY),
        f"kthvalue({name} (2,0), 1, 1)": (IE, _KTH_EMPTY),
        f"kthvalue({name} (2,0), 1)": (IE, _KTH_EMPTY),
        f"{name}.kthvalue(1, dim=1)": (IE, _KTH_EMPTY),
        f"median({name} (2,0), 0)": (NIE, '"median_'),
        f"kthvalue({name} (2,0), 1, 0)": (NIE, f"\"kthvalue_cpu\" not implemented for '{t}'"),
    }.items()},
    "interpolate((1, 2, 4), 0, area)": (1, 2, 0),
    "interpolate((1, 2, 4, 4), (0, 3), area)": (1, 2, 0, 3),
    "interpolate((1, 2, 4, 4), (2, 0), area)": (1, 2, 2, 0),
    "interpolate((1, 2, 4, 4, 4), (2, 2, 0), area)": (1, 2, 2, 2, 0),
    "interpolate((1, 2, 4), 0, nearest)": (RE, "Input and output sizes should be greater than 0"),
    "interpolate((1, 2, 4, 4), (0, 3), nearest)": (RE, _NOT_SIZED + "(H: 0, W: 3)"),
    "interpolate((1, 2, 4, 4), (2, 0), nearest)": (RE, _NOT_SIZED + "(H: 2, W: 0)"),
    "interpolate((1, 2, 4, 4, 4), (2, 2, 0), nearest)": (RE, _NOT_SIZED[:47]),
}


def _outcome(call):
    """(error type, message) or the result's shape."""
    try:
        r = call()
    except Exception as e:  # noqa: BLE001 - the outcome compared
        return type(e), str(e)
    return tuple((r[0] if isinstance(r, tuple) else r).shape)


def test_stored_cases_cover_every_call():
    assert set(STORED) == set(_calls(ft))


@pytest.mark.parametrize("name", sorted(STORED))
def test_fgrad_answers_as_pytorch_213(name):
    got, want = _outcome(_calls(ft)[name]), STORED[name]
    if want and isinstance(want[0], type):
        assert isinstance(got, tuple) and got and got[0] is want[0], (name, got)
        assert got[1].startswith(want[1]), (name, got[1])
    else:
        assert got == want, (name, got)


# error types that PyTorch 2.11 gives otherwise (compared live with the pinned 2.13 only)
_TYPE_CHANGED_SINCE_2_11 = {"prod(x, dim=None)"}


def test_live_pytorch_agrees():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    theirs, ours = _calls(torch), _calls(ft)
    for name in STORED:
        want, got = _outcome(theirs[name]), _outcome(ours[name])
        if want and isinstance(want[0], type):
            if not torch_is_pinned(torch) and name in _TYPE_CHANGED_SINCE_2_11:
                continue
            assert got and got[0] is want[0], (name, got, want)
            # (fgrad names the kernel "median_cpu" also where PyTorch's reduction along a dim says
            # "median_out"; its argument parser's messages list overloads fgrad words otherwise)
            if torch_is_pinned(torch) and not any(s in want[1] for s in ("invalid combination", "median_out",
                                                                        "prod()")):
                assert got[1] == want[1], (name, got[1], want[1])
        else:
            assert got == want, (name, got, want)


@pytest.mark.parametrize("shape,size", [((1, 2, 4), 0), ((1, 2, 4, 4), (0, 3)), ((1, 2, 5, 4, 4), (2, 2, 0))])
def test_area_to_an_empty_size_has_a_zero_gradient(shape, size):
    """The empty output reads nothing: the gradient of its (empty) sum is zero.  (PyTorch's
    backward refuses the empty cotangent; fgrad's resample transpose used to crash on it.)"""
    x = ft.randn(*shape, requires_grad=True)
    y = ft.nn.functional.interpolate(x, size=size, mode="area")
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros(shape, np.float32))
