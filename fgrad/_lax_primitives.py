"""``lax.add_p``, ``lax.exp_p``, ...: JAX's primitive objects, for programs that import them.

Programs that walk a jaxpr (JAX's "Writing custom Jaxpr interpreters" tutorial) key rules on
primitive objects (``{lax.exp_p: jnp.log, lax.tanh_p: jnp.arctanh}``) and compare them with
``eqn.primitive``.  fgrad's jaxprs record fgrad's primitives, so ``fgrad.lax.exp_p`` *is* the
primitive ``fgrad.numpy.exp`` binds: the comparison holds and ``bind`` computes.

Primitives whose ``bind`` takes JAX's operands and parameters are exported as they are, under
JAX's name (``exp_p`` and the other transcendental functions also take JAX's ``accuracy=None``,
``mul_p`` its ``out_dtype=None``).  The others (``div_p``, ``rem_p``, ``select_n_p``, ``round_p``,
the reductions, ``gather_p``, ``scatter_p``, ``sort_p``, the collectives, ``lax.linalg``'s ...)
are `JaxPrimitive` objects: ``bind`` takes JAX's operands and parameters and runs the
``fgrad.lax`` function, and the object compares equal to fgrad's primitive of the operation.
``tests/test_jax_programs_round9.py`` and ``tests/test_jax_api_round14.py`` compare them with
JAX (the latter runs JAX's own jaxprs through them).

>>> import fgrad
>>> import fgrad.numpy as fnp
>>> from fgrad import lax
>>> lax.exp_p.name, float(lax.add_p.bind(1.0, 2.0))
('exp', 3.0)
>>> [e.primitive is lax.exp_p for e in fgrad.make_jaxpr(fnp.exp)(1.0).eqns]
[True]
"""

from __future__ import annotations

from typing import Any, Callable

from .core.primitive import PRIMITIVES, Primitive
from .ops import elementwise as ew
from .ops.bits import reduce_precision_p
from .ops.bits import shift_left_p, shift_right_arithmetic_p, shift_right_logical_p, stop_gradient_p
from .ops.elementwise import (
    abs_p, acos_p, acosh_p, add_p, and_p, asin_p, asinh_p, atan2_p, atan_p, atanh_p, cbrt_p, ceil_p,
    clamp_p, complex_p, cos_p, cosh_p, eq_p, exp2_p, exp_p, expm1_p, floor_p, ge_p, gt_p, imag_p,
    integer_pow_p,
    le_p, log1p_p, log_p, logistic_p, lt_p, max_p, min_p, mul_p, ne_p, neg_p, or_p, pow_p, real_p,
    rsqrt_p, sign_p, sin_p, sinh_p, sqrt_p, square_p, sub_p, tan_p, tanh_p, xor_p,
)
from .ops.shape import squeeze_p
from .ops.structural import slice_p, stack_p, unstack_p
from .ops.elementwise_more import nextafter_p
from .ops.special import erf_inv_p, erf_p, erfc_p
from .ops.special_functions import (
    bessel_i0e_p, bessel_i1e_p, digamma_p, igamma_grad_a_p, igamma_p, igammac_p, lgamma_p, polygamma_p,
    zeta_p,
)

__all__ = [
    "abs_p", "acos_p", "acosh_p", "add_p", "and_p", "asin_p", "asinh_p", "atan2_p", "atan_p", "atanh_p",
    "bessel_i0e_p", "bessel_i1e_p", "cbrt_p", "ceil_p", "clamp_p", "complex_p", "cos_p", "cosh_p",
    "digamma_p", "eq_p",
    "erf_inv_p", "erf_p", "erfc_p", "exp2_p", "exp_p", "expm1_p", "floor_p", "ge_p", "gt_p",
    "igamma_grad_a_p", "igamma_p", "igammac_p", "imag_p", "integer_pow_p", "le_p", "lgamma_p", "log1p_p",
    "log_p",
    "logistic_p", "lt_p", "max_p",
    "min_p", "mul_p", "ne_p", "neg_p", "nextafter_p", "or_p", "polygamma_p", "pow_p", "real_p", "rsqrt_p",
    "shift_left_p", "shift_right_arithmetic_p", "shift_right_logical_p", "sign_p", "sin_p", "sinh_p",
    "slice_p", "sqrt_p", "square_p", "squeeze_p", "stack_p", "stop_gradient_p", "sub_p", "tan_p", "tanh_p",
    "unstack_p", "xor_p",
    "zeta_p",
]


# --------------------------------------------------------------------------------------
# JAX's other primitive objects: the operation exists in fgrad, but its fgrad primitive takes
# other parameters (or is several fgrad primitives).  A `JaxPrimitive` takes JAX's operands
# and parameters in ``bind`` and runs the ``fgrad.lax`` function that binds fgrad's primitive,
# so derivatives, vmap and jit come from fgrad's rules.  It compares (and hashes) equal to the
# fgrad primitive of the same operation, so ``{lax.reduce_sum_p: rule}[eqn.primitive]`` and
# ``eqn.primitive == lax.cumsum_p`` work on fgrad's jaxprs.


class JaxPrimitive:
    """JAX's primitive object for an operation whose fgrad primitive has other parameters.

    ``bind(*operands, **params)`` takes JAX's operands and parameters (those ``jax.make_jaxpr``
    records) and gives JAX's results; ``name`` is JAX's.  It equals fgrad's primitive of the
    same operation (``eqn.primitive == lax.cumsum_p`` for fgrad's jaxprs).

    Example::

        >>> import fgrad
        >>> from fgrad import lax
        >>> lax.reduce_sum_p.name, float(lax.reduce_sum_p.bind(fgrad.numpy.ones((2, 3)), axes=(0, 1)))
        ('reduce_sum', 6.0)
        >>> [e.primitive == lax.cumsum_p for e in fgrad.make_jaxpr(lax.cumsum)(fgrad.numpy.ones(3)).eqns]
        [True]
    """

    def __init__(self, name: str, bind: Callable[..., Any], *, multiple_results: bool = False,
                 fgrad_name: str | None = None) -> None:
        self.name = name
        self.multiple_results = multiple_results
        self._bind = bind
        self._fgrad_name = fgrad_name  # None: no single fgrad primitive is this operation

    @property
    def fgrad_primitive(self) -> Primitive | None:
        """fgrad's primitive for this operation (None where fgrad stages several)."""
        return None if self._fgrad_name is None else PRIMITIVES.get(self._fgrad_name)

    def bind(self, *args: Any, **params: Any) -> Any:
        """Run the operation on ``args`` with JAX's parameters ``params``."""
        try:
            out = self._bind(*args, **params)
        except TypeError as e:
            if "keyword argument" in str(e) or "positional argument" in str(e):
                raise TypeError(f"{self.name}_p.bind: {e} (JAX's parameters of {self.name} are "
                                f"{_params_of(self._bind)})") from None
            raise
        return list(out) if self.multiple_results else out

    def __eq__(self, other: object) -> bool:
        return other is self or (other is not None and other is self.fgrad_primitive)

    def __hash__(self) -> int:
        prim = self.fgrad_primitive
        return hash(prim) if prim is not None else object.__hash__(self)

    def __repr__(self) -> str:
        return self.name


def _params_of(fn: Callable) -> str:
    import inspect

    return ", ".join(p.name for p in inspect.signature(fn).parameters.values()
                     if p.kind is inspect.Parameter.KEYWORD_ONLY) or "none"


def _no_sharding(name: str, sharding: Any) -> None:
    if sharding is not None:
        raise NotImplementedError(
            f"{name}_p.bind: sharding={sharding!r}: fgrad keeps each array whole on one device; "
            "bind with sharding=None (jax.sharding.reshard keeps values)")


_LAX_MODULE: list = []  # `fgrad.lax`, which hands itself over when it loads (it imports this module)


def _lax():
    return _LAX_MODULE[0]


def _by_name(enum_type: Any, value: Any) -> Any:
    """JAX's enum member (``jax.lax.GatherScatterMode.CLIP``) as fgrad's of the same name."""
    name = getattr(value, "name", None)
    return enum_type[name] if isinstance(name, str) else value


def _as(named_tuple: type, value: Any) -> Any:
    """JAX's dimension-number tuple as fgrad's (the same fields, in the same order)."""
    return value if value is None or isinstance(value, (str, named_tuple)) else named_tuple(*value)


def _top_k(x, *, k, axis=-1):
    from . import numpy as fnp

    x = fnp.asarray(x)
    axis = axis % x.ndim
    if axis == x.ndim - 1:
        return _lax().top_k(x, k)
    vals, idx = _lax().top_k(fnp.moveaxis(x, axis, -1), k)
    return fnp.moveaxis(vals, -1, axis), fnp.moveaxis(idx, -1, axis)


def _reduce_window(computation: str):
    """``reduce_window_{sum,max,min}_p``: `lax.reduce_window` with the monoid's identity."""
    def bind(x, *, window_dimensions, window_strides, padding, base_dilation, window_dilation):
        from . import numpy as fnp
        from .dtypes import iinfo

        x = fnp.asarray(x)
        if computation == "add" or x.dtype == bool:
            init = fnp.asarray(computation == "min", x.dtype)  # 0 / False (True for min)
        elif fnp.issubdtype(x.dtype, fnp.inexact):
            init = fnp.asarray(-fnp.inf if computation == "max" else fnp.inf, x.dtype)
        else:
            info = iinfo(x.dtype)
            init = fnp.asarray(info.min if computation == "max" else info.max, x.dtype)
        return _lax().reduce_window(x, init, computation, window_dimensions, window_strides,
                                    padding, base_dilation, window_dilation)
    return bind


def _select_and(what: str):
    """``select_and_{scatter,gather}_add_p``: JAX's ``select_prim`` (``ge_p``: the window's
    maximum, ``le_p``: its minimum) as fgrad's ``select``; no dilation for the scatter."""
    def bind(t, x, *, select_prim, window_dimensions, window_strides, padding,
             base_dilation=None, window_dilation=None):
        from .ops import windowed

        kind = {"ge": "max", "gt": "max", "le": "min", "lt": "min"}.get(getattr(select_prim, "name", None))
        if kind is None:
            raise NotImplementedError(f"select_and_{what}_add_p.bind: select_prim={select_prim!r}; fgrad "
                                      "selects a window's maximum (lax.ge_p) or minimum (lax.le_p)")
        ones = (1,) * len(window_dimensions)
        prim = windowed.select_and_scatter_add_p if what == "scatter" else windowed.select_and_gather_add_p
        return prim.bind(t, x, select=kind, window_dimensions=tuple(window_dimensions),
                         window_strides=tuple(window_strides),
                         padding=tuple(tuple(p) for p in padding),
                         base_dilation=tuple(base_dilation or ones),
                         window_dilation=tuple(window_dilation or ones))
    return bind


def _scatter(fn_name: str):
    def bind(x, idx, upd, *, dimension_numbers, indices_are_sorted=False, unique_indices=False,
             mode=None, update_jaxpr=None, update_consts=()):
        lax = _lax()
        return getattr(lax, fn_name)(
            x, idx, upd, _as(lax.ScatterDimensionNumbers, dimension_numbers),
            indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
            mode=_by_name(lax.GatherScatterMode, mode))
    return bind


def _no_jaxpr_bind(name: str, use: str):
    def bind(*args, **params):
        raise NotImplementedError(
            f"{name}_p.bind: its parameters hold JAX jaxprs; fgrad's {name} takes fgrad's "
            f"(use {use}, or bind eqn.primitive -- fgrad's own primitive -- with eqn.params of "
            "an fgrad jaxpr)")
    return bind


_SAME = "<same>"  # the fgrad primitive has JAX's name


def _table() -> tuple[dict[str, JaxPrimitive], Callable[..., None]]:
    table: dict[str, JaxPrimitive] = {}

    def add(name, bind, multiple_results=False, fgrad_name=_SAME):
        table[name] = JaxPrimitive(name, bind, multiple_results=multiple_results,
                                   fgrad_name=name if fgrad_name is _SAME else fgrad_name)
    return table, add


def _copy(x):
    from . import numpy as fnp

    return fnp.array(x, copy=True)


def _views() -> dict[str, JaxPrimitive]:
    lax = _lax

    def fl(name):  # a one-operand/elementwise lax function with no parameters
        return lambda *xs: getattr(lax(), name)(*xs)

    def cum(name):
        return lambda x, *, axis, reverse=False: getattr(lax(), name)(x, axis, reverse)

    def red(name):
        def bind(x, *, axes, out_sharding=None):
            _no_sharding(name, out_sharding)
            return getattr(lax(), name)(x, tuple(axes))
        return bind

    def bcast(x, *dyn, shape, broadcast_dimensions, sharding=None):
        _no_sharding("broadcast_in_dim", sharding)
        return lax().broadcast_in_dim(x, shape, broadcast_dimensions)

    def convert(x, *, new_dtype, weak_type=False, sharding=None):
        _no_sharding("convert_element_type", sharding)
        return ew.convert_element_type(x, new_dtype, weak_type=bool(weak_type))

    def dot(a, b, *, dimension_numbers, precision=None, preferred_element_type=None,
            out_sharding=None):
        _no_sharding("dot_general", out_sharding)
        return lax().dot_general(a, b, dimension_numbers, precision, preferred_element_type)

    def iota(*, dtype, shape, dimension, sharding=None):
        _no_sharding("iota", sharding)
        return lax().broadcasted_iota(dtype, shape, dimension)

    def reshape(x, *dyn, new_sizes, dimensions=None, sharding=None):
        _no_sharding("reshape", sharding)
        return lax().reshape(x, new_sizes, dimensions)

    def approx_top_k(x, *, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,
                     reduction_input_size_override=-1, aggregate_to_topk=True):
        f = lax().approx_max_k if is_max_k else lax().approx_min_k
        return f(x, k, reduction_dimension, recall_target, reduction_input_size_override,
                 aggregate_to_topk)

    def gather(x, idx, *, dimension_numbers, slice_sizes, unique_indices=False,
               indices_are_sorted=False, mode=None, fill_value=None):
        L = lax()
        return L.gather(x, idx, _as(L.GatherDimensionNumbers, dimension_numbers), slice_sizes,
                        unique_indices=unique_indices, indices_are_sorted=indices_are_sorted,
                        mode=_by_name(L.GatherScatterMode, mode), fill_value=fill_value)

    def conv(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
             feature_group_count, batch_group_count, precision=None, preferred_element_type=None,
             out_sharding=None):
        _no_sharding("conv_general_dilated", out_sharding)
        L = lax()
        return L.conv_general_dilated(
            lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
            _as(L.ConvDimensionNumbers, dimension_numbers), feature_group_count,
            batch_group_count, precision, preferred_element_type)

    def psum_like(name):
        def bind(x, *, axes, axis_index_groups=None):
            axes = tuple(axes) if isinstance(axes, (tuple, list)) else axes
            return getattr(lax(), name)(x, axes, axis_index_groups=axis_index_groups)
        return bind

    def all_gather(x, *, all_gather_dimension, axis_name, axis_index_groups=None, axis_size=None,
                   tiled=False):
        return lax().all_gather(x, axis_name, axis_index_groups=axis_index_groups,
                                axis=all_gather_dimension, tiled=tiled)

    def all_to_all(x, *, split_axis, concat_axis, axis_name, axis_index_groups=None, tiled=False):
        return lax().all_to_all(x, axis_name, split_axis, concat_axis,
                                axis_index_groups=axis_index_groups, tiled=tiled)

    def rng_bit_generator(key, *, shape, dtype, algorithm, out_sharding=None):
        _no_sharding("rng_bit_generator", out_sharding)
        L = lax()
        return L.rng_bit_generator(key, tuple(shape), dtype, _by_name(L.RandomAlgorithm, algorithm))

    def device_put(*xs, devices=None, srcs=None, copy_semantics=None):
        from .core.placement import device_put as put

        return [put(x, d) for x, d in zip(xs, devices or [None] * len(xs))]

    def sharding_constraint(x, *, sharding=None, layout=None, context_mesh=None,
                            unconstrained_dims=frozenset()):
        return x  # fgrad keeps each array whole on one device: a constraint keeps values

    L = lax
    table, add = _table()

    add("argmax", lambda x, *, axes, index_dtype: L().argmax(x, axes[0], index_dtype))
    add("argmin", lambda x, *, axes, index_dtype: L().argmin(x, axes[0], index_dtype))
    add("bitcast_convert_type", lambda x, *, new_dtype: L().bitcast_convert_type(x, new_dtype))
    add("broadcast_in_dim", bcast)
    add("clz", fl("clz"), fgrad_name=None)
    add("concatenate", lambda *xs, dimension: L().concatenate(list(xs), dimension))
    add("conj", lambda x, *, input_dtype=None: L().conj(x))
    add("convert_element_type", convert)
    add("copy", _copy, fgrad_name=None)
    for n in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"):
        add(n, cum(n))
    add("div", fl("div"))
    add("dot_general", dot)
    add("dynamic_slice", lambda x, *idx, slice_sizes: L().dynamic_slice(x, idx, slice_sizes),
        fgrad_name=None)
    add("dynamic_update_slice", lambda x, upd, *idx: L().dynamic_update_slice(x, upd, idx),
        fgrad_name=None)
    add("fft", lambda x, *, fft_type, fft_lengths: L().fft(x, _by_name(L().FftType, fft_type),
                                                            tuple(fft_lengths)))
    add("iota", iota, fgrad_name=None)
    add("is_finite", fl("is_finite"), fgrad_name="isfinite")
    add("not", fl("bitwise_not"), fgrad_name="invert")
    add("pad", lambda x, padding_value, *, padding_config: L().pad(x, padding_value, padding_config))
    add("population_count", fl("population_count"), fgrad_name=None)
    for n in ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_and", "reduce_or",
              "reduce_xor"):
        add(n, red(n), fgrad_name=None if n == "reduce_xor" else _SAME)
    add("rem", fl("rem"))
    add("reshape", reshape)
    add("rev", lambda x, *, dimensions: L().rev(x, dimensions))
    add("round", lambda x, *, rounding_method=0: L().round(x, int(rounding_method)))
    add("select_n", fl("select_n"))
    add("sort", lambda *xs, dimension, is_stable=True, num_keys=1: L().sort(
        xs, dimension=dimension, is_stable=is_stable, num_keys=num_keys), multiple_results=True)
    add("split", lambda x, *, sizes, axis: L().split(x, sizes, axis), multiple_results=True)
    add("tile", lambda x, *, reps: L().tile(x, reps), fgrad_name=None)
    add("top_k", _top_k, multiple_results=True, fgrad_name=None)
    add("transpose", lambda x, *, permutation: L().transpose(x, permutation))
    add("approx_top_k", approx_top_k, multiple_results=True, fgrad_name=None)
    add("gather", gather)
    add("scatter", _scatter("scatter"))
    for n in ("add", "sub", "mul", "min", "max"):
        add(f"scatter_{n}", _scatter(f"scatter_{n}"), fgrad_name="scatter")
    table["scatter_add"].name = "scatter-add"  # JAX's spelling of these names
    table["scatter_sub"].name = "scatter-sub"
    table["scatter_mul"].name = "scatter-mul"
    table["scatter_min"].name = "scatter-min"
    table["scatter_max"].name = "scatter-max"
    add("reduce_window_sum", _reduce_window("add"), fgrad_name=None)
    add("reduce_window_max", _reduce_window("max"))
    add("reduce_window_min", _reduce_window("min"))
    add("conv_general_dilated", conv)
    add("select_and_scatter_add", _select_and("scatter"))
    add("select_and_gather_add", _select_and("gather"))
    add("optimization_barrier", lambda *xs: L().optimization_barrier(tuple(xs)),
        multiple_results=True)
    add("psum", psum_like("psum"))
    add("pmax", psum_like("pmax"))
    add("pmin", psum_like("pmin"))
    add("ppermute", lambda x, *, axis_name, perm: L().ppermute(x, axis_name, perm))
    add("all_gather", all_gather)
    add("all_to_all", all_to_all, fgrad_name=None)
    add("axis_index", lambda *, axis_name: L().axis_index(axis_name), fgrad_name=None)
    add("create_token", lambda *xs: L().create_token(), fgrad_name=None)
    add("after_all", lambda *xs: L().after_all(*xs), fgrad_name=None)
    add("rng_uniform", lambda a, b, *, shape: L().rng_uniform(a, b, shape), fgrad_name=None)
    add("rng_bit_generator", rng_bit_generator, multiple_results=True, fgrad_name=None)
    add("regularized_incomplete_beta", lambda a, b, x: L().betainc(a, b, x), fgrad_name="betainc")
    add("device_put", device_put, multiple_results=True, fgrad_name=None)
    add("mulhi", fl("mulhi"), fgrad_name=None)
    add("stage", fl("stage"), fgrad_name=None)
    add("dce_sink", lambda *xs: [L().dce_sink(x) for x in xs][:0], multiple_results=True, fgrad_name=None)
    add("sharding_constraint", sharding_constraint, fgrad_name=None)
    add("cond", _no_jaxpr_bind("cond", "lax.cond or lax.switch"), multiple_results=True)
    add("while", _no_jaxpr_bind("while", "lax.while_loop or lax.fori_loop"), multiple_results=True)
    add("scan", _no_jaxpr_bind("scan", "lax.scan"), multiple_results=True)
    add("linear_solve", _no_jaxpr_bind("custom_linear_solve", "lax.custom_linear_solve"),
        multiple_results=True, fgrad_name="custom_linear_solve")
    table["linear_solve"].name = "custom_linear_solve"  # JAX's name for lax.linear_solve_p
    return table


def _linalg_views() -> dict[str, JaxPrimitive]:
    def ll():
        return _lax().linalg

    def eigh(x, *, lower=True, sort_eigenvalues=True, subset_by_index=None, algorithm=None):
        v, w = ll().eigh(x, lower=lower, symmetrize_input=False, sort_eigenvalues=sort_eigenvalues,
                         subset_by_index=subset_by_index,
                         implementation=_by_name(ll().EighImplementation, algorithm))
        return v, w

    def svd(x, *, full_matrices=True, compute_uv=True, subset_by_index=None, algorithm=None):
        out = ll().svd(x, full_matrices=full_matrices, compute_uv=compute_uv,
                       subset_by_index=subset_by_index,
                       algorithm=_by_name(ll().SvdAlgorithm, algorithm))
        if compute_uv:
            u, s, vh = out
            return s, u, vh  # JAX's primitive's order
        return (out,)

    def eig(x, *, compute_left_eigenvectors=True, compute_right_eigenvectors=True,
            enable_eigvec_derivs=False, implementation=None):
        return ll().eig(x, compute_left_eigenvectors=compute_left_eigenvectors,
                        compute_right_eigenvectors=compute_right_eigenvectors,
                        enable_eigvec_derivs=enable_eigvec_derivs,
                        implementation=_by_name(ll().EigImplementation, implementation))

    def qr(x, *, pivoting=False, full_matrices=True, use_magma=None):
        return ll().qr(x, pivoting=pivoting, full_matrices=full_matrices, use_magma=use_magma)

    def symmetric_product(a, c, *, alpha=1.0, beta=0.0):
        return ll().symmetric_product(a, c, alpha=alpha, beta=beta)

    def tri_solve(a, b, *, left_side=False, lower=False, transpose_a=False, conjugate_a=False,
                  unit_diagonal=False):
        return ll().triangular_solve(a, b, left_side=left_side, lower=lower,
                                     transpose_a=transpose_a, conjugate_a=conjugate_a,
                                     unit_diagonal=unit_diagonal)

    table, add = _table()
    add("cholesky", lambda x: ll().cholesky(x, symmetrize_input=False))
    add("cholesky_update", lambda r, w: ll().cholesky_update(r, w), fgrad_name=None)
    add("eig", eig, multiple_results=True)
    add("eigh", eigh, multiple_results=True)
    add("hessenberg", lambda a: ll().hessenberg(a), multiple_results=True, fgrad_name=None)
    add("householder_product", lambda a, taus: ll().householder_product(a, taus), fgrad_name=None)
    add("lu", lambda x: ll().lu(x), multiple_results=True)
    add("lu_pivots_to_permutation", lambda pivots, *, permutation_size:
        ll().lu_pivots_to_permutation(pivots, permutation_size))
    add("ormqr", lambda a, taus, c, *, left=True, transpose=False:
        ll().ormqr(a, taus, c, left=left, transpose=transpose), fgrad_name=None)
    add("qr", qr, multiple_results=True)
    add("schur", lambda x, *, compute_schur_vectors=True, sort_eig_vals=False, select_callable=None:
        ll().schur(x, compute_schur_vectors=compute_schur_vectors, sort_eig_vals=sort_eig_vals,
                   select_callable=select_callable), multiple_results=True)
    add("svd", svd, multiple_results=True)
    add("symmetric_product", symmetric_product, fgrad_name=None)
    add("triangular_solve", tri_solve)
    add("tridiagonal", lambda a, *, lower=True: ll().tridiagonal(a, lower=lower),
        multiple_results=True, fgrad_name=None)
    add("tridiagonal_solve", lambda dl, d, du, b, *, perturb_singular=False:
        ll().tridiagonal_solve(dl, d, du, b, perturb_singular=perturb_singular), fgrad_name=None)
    return table


_VIEWS = _views()
_LINALG_VIEWS = _linalg_views()
globals().update({f"{n}_p": v for n, v in _VIEWS.items()})
__all__ += [f"{n}_p" for n in _VIEWS] + ["reduce_precision_p"]
