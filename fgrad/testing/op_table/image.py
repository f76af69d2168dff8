"""Image resampling rows (``fgrad.image.resize``, ``scale_and_translate``: the ``resample``
primitive).  The references are written independently of the weight tables: ``np.interp``
along each axis for linear upsampling (half-pixel centres; JAX's renormalised edge weights
clamp to the border pixel), index arithmetic for nearest, block means for area downsampling
by an integer factor.
"""

from __future__ import annotations

from hypothesis import strategies as st
import numpy as np

import fgrad.image as fimage

from ._base import Arg, F32, F64, OpRow

ROWS: list[OpRow] = []
_TOL = {F32: (1e-5, 1e-5), F64: (1e-12, 1e-12)}


def _np_linear(x, shape):
    for d, (n, m) in enumerate(zip(x.shape, shape)):
        if n == m:
            continue
        sample = (np.arange(m) + 0.5) * n / m - 0.5
        x = np.apply_along_axis(lambda v: np.interp(sample, np.arange(n), v), d, x)
    return x


def _np_nearest(x, shape):
    for d, (n, m) in enumerate(zip(x.shape, shape)):
        x = np.take(x, np.minimum(((np.arange(m) + 0.5) * n / m).astype(int), n - 1), axis=d)
    return x


def _np_area_down(x, shape):
    for d, (n, m) in enumerate(zip(x.shape, shape)):
        x = np.moveaxis(
            np.moveaxis(x, d, -1).reshape(np.moveaxis(x, d, -1).shape[:-1] + (m, n // m)).mean(-1), -1, d
        )
    return x


for _name, _method, _ref, _shape, _out in [
    ("linear,up", "linear", _np_linear, (2, 3, 4), (2, 5, 7)),
    ("nearest", "nearest", _np_nearest, (3, 4), (5, 3)),
    ("area,down", "area", _np_area_down, (4, 6), (2, 3)),
]:
    ROWS.append(
        OpRow(
            f"image.resize[{_name}]",
            (lambda m, o: lambda x: fimage.resize(x, o, m))(_method, _out),
            (lambda r, o: lambda x: r(x, o).astype(x.dtype))(_ref, _out),
            args=(Arg(),),
            shapes=st.just((_shape,)),
            example_shapes=(_shape,),
            covers=("image.resize",),
            fwd_tol=_TOL,
        )
    )

ROWS.append(
    OpRow(
        "image.scale_and_translate[linear]",
        lambda x: fimage.scale_and_translate(x, (6,), (0,), [2.0], [0.0], "linear"),
        lambda x: _np_linear(x, (6,)).astype(x.dtype),
        args=(Arg(),),
        shapes=st.just(((3,),)),
        example_shapes=((3,),),
        covers=("image.scale_and_translate",),
        fwd_tol=_TOL,
    )
)
