"""`fgrad.numpy`: the NumPy API over fgrad arrays, differentiable and transformable.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> fgrad.grad(lambda x: fnp.sum(fnp.tanh(x) ** 2))(fnp.ones(2))
    Array([0.63970001, 0.63970001], dtype=float64)
"""

from __future__ import annotations

import numpy as _np

from ..core import array as _array_mod
from ..core.array import Array as ndarray  # noqa: F401
from ..ops.specs import point_faces as _point_faces
from ._creation import *  # noqa: F401,F403
from ._creation import asarray, array  # noqa: F401
from ._dlpack import from_dlpack  # noqa: F401
from ._printing import get_printoptions, printoptions, set_printoptions  # noqa: F401
from ._elementwise import *  # noqa: F401,F403
from ._math import *  # noqa: F401,F403
from ._math import abs, round, divmod, pow  # noqa: F401
from ._reductions import *  # noqa: F401,F403
from ._reductions import sum, max, min, all, any, prod, mean, var, std, argmax, argmin  # noqa: F401
from ._shape import *  # noqa: F401,F403
from ._shape import reshape, ravel, transpose, moveaxis, swapaxes, squeeze, shape, ndim, size  # noqa: F401

# dtypes and constants, as in numpy
from numpy import (  # noqa: F401
    dtype, pi, e, inf, nan, newaxis,
    can_cast, integer, floating, inexact,
    number, complexfloating, signedinteger, unsignedinteger, generic,
)
from ._dtypes import finfo, iinfo, issubdtype, promote_types, result_type  # noqa: F401,E402
from ._scalar_types import (  # noqa: F401,E402  (JAX's scalar types: calling one converts, tracers too)
    bfloat16, bool_, complex64, complex128, float16, float32, float64, int8, int16, int32, int64, uint8,
    uint16, uint32, uint64, float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz, float8_e4m3b11fnuz,
    float8_e3m4, float8_e4m3, float8_e8m0fnu, float4_e2m1fn, float6_e2m3fn, float6_e3m2fn,
    int1, int2, int4, uint1, uint2, uint4,
)

__array_api_version__ = "2024.12"  # the array API standard version fgrad.numpy follows
euler_gamma = _np.euler_gamma
float_ = float64
int_ = int64
bool = bool_  # noqa: A001

from ._optional import *  # noqa: F401,F403,E402
from ._vectorize import vectorize  # noqa: F401,E402
from ._ufunc import frompyfunc, ufunc  # noqa: F401,E402
from ._bit_views import byteswap as _byteswap, view as _view  # noqa: F401,E402  (Array.byteswap/view)
from ._optional import __array_namespace_info__, _at_apply, _at_get, _at_mode, _at_power, _getitem, _no_wrap_index, _scatter, _SET_MODES, fft, linalg  # noqa: F401,E402,E501

_point_faces(globals(), "numpy")
_array_mod._set_numpy_api(__import__(__name__, fromlist=["*"]))

from .. import _docs as _docs_examples  # noqa: E402

_docs_examples.attach_loaded("fgrad.numpy")  # runnable examples for the functions without one (fgrad/_docs)

from ._arraylike import reject_lists as _reject_lists  # noqa: E402

_reject_lists(globals())  # JAX's TypeError for a list where an array goes (last: docs are attached)
