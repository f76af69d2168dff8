"""`fgrad.lax`: thin, JAX-`lax`-named wrappers over fgrad's primitives.

Unlike `fgrad.numpy`, these do not add NumPy conveniences (no axis=None, no keepdims); they
mirror `jax.lax` signatures.  Everything is differentiable/batchable as its primitive is.
This module only re-exports: the wrappers of single primitives are generated from the op
specs (`fgrad.ops.specs`) in `fgrad.ops.lax_ops`, which also holds the other definitions;
the few written over `fgrad.numpy` live in `fgrad._lax_numpy`.

Example::

    >>> import fgrad, fgrad.lax as lax
    >>> fgrad.grad(lambda x: x * lax.stop_gradient(x))(3.0)
    Array(3., dtype=float64, weak_type=True)
"""

from __future__ import annotations

import sys as _sys

from ._lax_numpy import (
    broadcast_shapes, dot, dynamic_index_in_dim, dynamic_slice, dynamic_slice_in_dim, full, full_like,
    zeros_like_array,
)
from ._lax_more import (  # noqa: A004,F401 - listed in __all__ through _MORE
    GatherScatterMode, batch_matmul, bessel_i0e, bessel_i1e, betainc, broadcast_to_rank, broadcasted_iota,
    clz, collapse, complex, conv_shape_tuple, digamma, dynamic_update_index_in_dim,
    dynamic_update_slice_in_dim, empty, igamma, igamma_grad_a, igammac, index_take, lgamma,
    platform_dependent,
    polygamma, population_count, reciprocal, reduce, reduce_precision, reduce_window_shape_tuple, reduce_xor,
    select_n, split, stack, tile, unstack, with_sharding_constraint, zeta,
)
from ._lax_more import __all__ as _MORE
from ._lax_gather_scatter import (  # noqa: F401 - listed in __all__ through _GATHER_SCATTER
    GatherDimensionNumbers, ScatterDimensionNumbers, gather, scatter, scatter_add, scatter_apply, scatter_max,
    scatter_min, scatter_mul, scatter_sub,
)
from ._lax_gather_scatter import __all__ as _GATHER_SCATTER
from ._lax_extras import (  # noqa: F401 - listed in __all__ through _EXTRAS
    RandomAlgorithm, all_to_all, composite, pswapaxes, ragged_dot, random_gamma_grad, rng_bit_generator,
)
from ._lax_extras import __all__ as _EXTRAS
from ._lax_patches_topk import (  # noqa: F401 - listed in __all__ through _PATCHES_TOPK
    approx_max_k, approx_min_k, conv_general_dilated_patches, dtype,
)
from ._lax_patches_topk import __all__ as _PATCHES_TOPK
from ._lax_round10 import *  # noqa: F403  (FftType, mulhi, conv_general_dilated_local, tokens, ...)
from ._lax_round10 import __all__ as _ROUND10
from ._lax_collectives import (
    all_gather, axis_index, axis_size, pbroadcast, pcast, pmax, pmean, pmin, ppermute, pshuffle, psum,
    psum_scatter, pvary,
)
from .ops.bits import (
    bitcast_convert_type, shift_left, shift_right_arithmetic, shift_right_logical,
    stop_gradient,
)
from .ops.control_flow import cond, fori_loop, map, scan, switch, while_loop  # noqa: A004
from .ops.convolution import (
    ConvDimensionNumbers, conv, conv_dimension_numbers, conv_general_dilated, conv_general_shape_tuple,
    conv_transpose, conv_transpose_shape_tuple, conv_with_general_padding, padtype_to_pads,
)
from .ops.linear_solve import custom_linear_solve
from .ops.custom_root import custom_root
from .ops.cumulative import associative_scan, cumlogsumexp, cummax, cummin, cumprod, cumsum
from .ops.lax_ops import GENERATED as _GENERATED
from ._lax_primitives import *  # noqa: F403  (lax.add_p, lax.exp_p, ...: JAX's primitive objects)
from ._lax_primitives import __all__ as _PRIMITIVES
from .ops.lax_ops import _convert_element_type  # noqa: F401  (JAX's private name, used by libraries)
from .ops.lax_ops import (  # noqa: A004
    RoundingMethod, argmax, argmin, broadcast, broadcast_in_dim, clamp, concatenate, convert_element_type,
    div, dynamic_update_slice, expand_dims, index_in_dim, integer_pow, iota, reduce_and, reduce_max,
    reduce_min, reduce_or, reduce_prod, reduce_sum, reshape, rev, round, rsqrt, select, slice, slice_in_dim,
    square, squeeze, transpose,
)
from .ops.fft import fft
from .ops.linalg import Precision, dot_general
from .ops.optimization_barrier import optimization_barrier
from .ops.sorting import sort, sort_key_val, top_k
from .ops.specs import point_faces as _point_faces
from .ops.structural import pad
from .ops.windowed import reduce_window

globals().update(_GENERATED)  # abs, add, sin, ... (one per lax name in the op specs)
_point_faces(globals(), "lax")

__all__ = sorted(_GENERATED) + [
    "stop_gradient", "div", "round", "rsqrt", "integer_pow", "square", "clamp", "select", "shift_left",
    "shift_right_logical", "shift_right_arithmetic", "convert_element_type", "bitcast_convert_type",
    "broadcast", "broadcast_in_dim", "broadcast_shapes",
    "reshape", "transpose", "squeeze", "expand_dims", "rev", "iota",
    "full", "full_like", "zeros_like_array", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod",
    "reduce_and", "reduce_or", "argmax", "argmin", "cumsum", "cumprod", "cummax", "cummin",
    "cumlogsumexp", "associative_scan", "sort", "sort_key_val", "top_k", "dot", "dot_general", "pad",
    "concatenate", "slice", "slice_in_dim", "index_in_dim", "RoundingMethod", "dynamic_slice",
    "dynamic_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_slice", "cond", "switch", "scan",
    "map", "fori_loop", "while_loop", "conv_general_dilated", "conv", "conv_with_general_padding",
    "conv_transpose", "conv_dimension_numbers", "ConvDimensionNumbers", "reduce_window",
    "conv_general_shape_tuple", "conv_transpose_shape_tuple", "padtype_to_pads", "fft", "Precision",
    "psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute", "pshuffle", "axis_index",
    "pcast", "pvary", "pbroadcast",
    "axis_size", "custom_linear_solve", "custom_root", "optimization_barrier",
] + list(_MORE) + list(_GATHER_SCATTER) + list(_EXTRAS) + list(_PATCHES_TOPK) + list(_PRIMITIVES) + list(
    _ROUND10)


from .ops.lax_dtypes import LAX_ACCEPTS as _LAX_ACCEPTS  # noqa: E402
from .ops.lax_dtypes import with_lax_dtype_check as _with_lax_dtype_check  # noqa: E402

# JAX's input dtypes for the elementwise functions (lax.exp of an int32 is a TypeError)
globals().update({_n: _with_lax_dtype_check(_n, globals()[_n]) for _n in _LAX_ACCEPTS if _n in globals()})

from . import _docs as _docs_examples  # noqa: E402

_docs_examples.attach("fgrad.lax")  # runnable examples for the functions without one (fgrad/_docs)

# ``fgrad.lax.linalg`` (JAX's ``jax.lax.linalg``): a module of its own, importable by that name
from . import _lax_linalg as linalg  # noqa: E402

_sys.modules[__name__ + ".linalg"] = linalg

from . import _lax_primitives as _views  # noqa: E402

_views._LAX_MODULE.append(_sys.modules[__name__])  # the JAX primitive objects bind this module's functions
__path__: list[str] = []  # a package to the import system, so ``jax.lax.linalg`` resolves under the alias
