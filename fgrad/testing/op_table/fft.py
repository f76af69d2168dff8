"""fgrad.numpy.fft and fgrad.lax.fft rows.

Complex results are returned as ``(real, imag)`` and complex inputs are built from two real
arguments (``re + 1j * im``), so the generic tests (finite differences orders 1-2 in both
modes, vmap vs a loop, jit vs eager) exercise the complex FFTs and their transposes with
real-valued inputs and outputs.
"""

from __future__ import annotations

from hypothesis import strategies as st
import numpy as np

import fgrad
import fgrad.numpy as fnp

from ._base import Arg, F32, F64, OpRow

ROWS: list[OpRow] = []

_TOL = {F32: (2e-5, 2e-5), F64: (1e-12, 1e-11)}
_NORM = st.sampled_from([None, "backward", "ortho", "forward"])


def _split(m, out):
    """``(real, imag)`` of a complex result (real results pass through)."""
    if np.iscomplexobj(out) if isinstance(out, np.ndarray) else out.dtype.kind == "c":
        return m.real(out), m.imag(out)
    return out


def _complex(m, re, im):
    return re + 1j * im if m is np else fnp.asarray(re) + 1j * fnp.asarray(im)


def _row_1d(name, complex_in, n_for=None):
    """A 1-d transform with ``n``, ``axis`` and ``norm`` drawn."""
    np_fn, f_fn = getattr(np.fft, name), getattr(fnp.fft, name)

    def kwargs(shapes):
        nd = len(shapes[0])
        return st.fixed_dictionaries({
            "axis": st.integers(-nd, nd - 1),
            "norm": _NORM,
            "n": st.one_of(st.none(), st.integers(2 if n_for else 1, 6)),
        })

    if complex_in:
        def fn(re, im, **kw):
            return _split(fnp, f_fn(_complex(fnp, re, im), **kw))

        def ref(re, im, **kw):
            return _split(np, np_fn(_complex(np, re, im), **kw))
        args = (Arg(), Arg())
    else:
        def fn(x, **kw):
            return _split(fnp, f_fn(x, **kw))

        def ref(x, **kw):
            return _split(np, np_fn(x, **kw))
        args = (Arg(),)
    shapes = st.lists(st.integers(2, 5), min_size=1, max_size=3).map(tuple).map(lambda s: (s,) * len(args))
    return OpRow(f"fft.{name}", fn, ref, args=args, shapes=shapes, kwargs=kwargs,
                 example_shapes=((3, 4),) * len(args), example_kwargs={"axis": -1, "norm": None, "n": None},
                 fwd_tol=_TOL, covers=(f"numpy.fft.{name}",))


def _row_nd(name, complex_in, two_d=False):
    """An n-d transform with ``s``, ``axes`` and ``norm`` drawn."""
    np_fn, f_fn = getattr(np.fft, name), getattr(fnp.fft, name)
    inverse_real = name.startswith("irfft")

    def kwargs(shapes):
        nd = len(shapes[0])
        k_lo, k_hi = (2, 2) if two_d else (1, nd)
        axes = st.integers(k_lo, k_hi).flatmap(
            lambda k: st.permutations(list(range(nd))).map(lambda p: tuple(p[:k])))

        def with_s(ax):
            lo = 2 if inverse_real else 1
            sizes = st.lists(st.integers(lo, 5), min_size=len(ax), max_size=len(ax)).map(tuple)
            s = st.one_of(st.none(), sizes)
            return st.fixed_dictionaries({"axes": st.just(ax), "s": s, "norm": _NORM})

        return axes.flatmap(with_s)

    if complex_in:
        def fn(re, im, **kw):
            return _split(fnp, f_fn(_complex(fnp, re, im), **kw))

        def ref(re, im, **kw):
            return _split(np, np_fn(_complex(np, re, im), **kw))
        args = (Arg(), Arg())
    else:
        def fn(x, **kw):
            return _split(fnp, f_fn(x, **kw))

        def ref(x, **kw):
            return _split(np, np_fn(x, **kw))
        args = (Arg(),)
    min_size = 2
    shapes = st.lists(st.integers(2, 4), min_size=min_size, max_size=3).map(tuple).map(
        lambda s: (s,) * len(args))
    return OpRow(f"fft.{name}", fn, ref, args=args, shapes=shapes, kwargs=kwargs,
                 example_shapes=((2, 3, 4),) * len(args),
                 example_kwargs={"axes": (0, 2), "s": None, "norm": "ortho"},
                 fwd_tol=_TOL, covers=(f"numpy.fft.{name}",))


def _shift_row(name):
    np_fn, f_fn = getattr(np.fft, name), getattr(fnp.fft, name)

    def kwargs(shapes):
        nd = len(shapes[0])
        return st.fixed_dictionaries({"axes": st.one_of(
            st.none(), st.integers(-nd, nd - 1),
            st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True).map(tuple))})

    return OpRow(f"fft.{name}", lambda x, **kw: f_fn(x, **kw), lambda x, **kw: np_fn(x, **kw),
                 shapes=st.lists(st.integers(1, 5), min_size=1, max_size=3).map(lambda s: (tuple(s),)),
                 kwargs=kwargs, example_shapes=((3, 4),), example_kwargs={"axes": None},
                 covers=(f"numpy.fft.{name}",))


def _freq_row(name):
    np_fn, f_fn = getattr(np.fft, name), getattr(fnp.fft, name)
    return OpRow(f"fft.{name}", lambda d, n: f_fn(n, d), lambda d, n: np_fn(n, d),
                 args=(Arg(0.5, 2.0),), shapes=st.just(((),)),
                 kwargs=lambda shapes: st.fixed_dictionaries({"n": st.integers(1, 7)}),
                 example_shapes=((),), example_kwargs={"n": 5}, covers=(f"numpy.fft.{name}",))


def _lax_row(fft_type, lengths_rank):
    """``fgrad.lax.fft`` on the trailing axes (as ``jax.lax.fft``)."""
    np_fn = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn, "IRFFT": np.fft.irfftn}[fft_type]
    complex_in = fft_type != "RFFT"

    def lengths(shape):
        s = tuple(shape[len(shape) - lengths_rank:])
        return s[:-1] + (2 * (s[-1] - 1),) if fft_type == "IRFFT" else s

    def fn(*a):
        x = _complex(fnp, *a) if complex_in else a[0]
        return _split(fnp, fgrad.lax.fft(x, fft_type, lengths(x.shape)))

    def ref(*a):
        x = _complex(np, *a) if complex_in else a[0]
        axes = tuple(range(x.ndim - lengths_rank, x.ndim))
        kw = {"s": lengths(x.shape)} if fft_type == "IRFFT" else {}
        return _split(np, np_fn(x, axes=axes, **kw))

    nargs = 2 if complex_in else 1
    shapes = st.lists(st.integers(2, 4), min_size=lengths_rank, max_size=lengths_rank + 1).map(
        lambda s: (tuple(s),) * nargs)
    return OpRow(f"lax.fft[{fft_type},{lengths_rank}]", fn, ref, args=(Arg(),) * nargs, shapes=shapes,
                 example_shapes=((2, 3, 4),) * nargs, fwd_tol=_TOL, covers=("lax.fft",))


ROWS += [
    _row_1d("fft", True),
    _row_1d("ifft", True),
    _row_1d("rfft", False),
    _row_1d("irfft", True, n_for=True),
    _row_1d("hfft", True, n_for=True),
    _row_1d("ihfft", False),
    _row_nd("fftn", True),
    _row_nd("ifftn", True),
    _row_nd("rfftn", False),
    _row_nd("irfftn", True),
    _row_nd("fft2", True, two_d=True),
    _row_nd("ifft2", True, two_d=True),
    _row_nd("rfft2", False, two_d=True),
    _row_nd("irfft2", True, two_d=True),
    _shift_row("fftshift"),
    _shift_row("ifftshift"),
    _freq_row("fftfreq"),
    _freq_row("rfftfreq"),
] + [_lax_row(t, k) for t in ("FFT", "IFFT", "RFFT", "IRFFT") for k in (1, 2)]
