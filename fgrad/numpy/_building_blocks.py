"""The `fgrad.numpy` functions defined below this point of the package, gathered in one
namespace for the higher composites (`_calculus`, `_statistics`, `_polynomial`, `_setops`,
`_windows`, `_misc`), which use it as ``fnp``: the package ``__init__`` itself cannot be
imported from inside the package.

>>> import fgrad.numpy._building_blocks as fnp
>>> fnp.sum(fnp.arange(4))
Array(6, dtype=int64)
"""
# ruff: noqa: F401,F403
from ._creation import *
from ._creation import asarray, array
from ._elementwise import *
from ._math import *
from ._math import abs, round, divmod, pow
from ._reductions import *
from ._reductions import sum, max, min, all, any, prod, mean, var, std, argmax, argmin
from ._shape import *
from ._shape import reshape, ravel, transpose, moveaxis, swapaxes, squeeze, shape, ndim, size
from ._indexing import *
from ._products import *
from ._sorting import *
from ._array_api import *
import fgrad.numpy.linalg as linalg

import sys as _sys  # noqa: E402
from . import _indexing as _indexing_module  # noqa: E402  (below this module)

_indexing_module._ABOVE["fnp"] = _sys.modules[__name__]  # the package's composites it calls
