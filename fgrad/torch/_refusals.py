"""The operand dtypes PyTorch's hand-written functions refuse, as data: ``REFUSALS`` maps an op
name to rules ``(kinds, error type, message)``, and `install` wraps the functions of that name
in ``fgrad.torch``, ``torch.nn.functional`` and the ``Tensor`` methods so they raise PyTorch's
error (type and words) before computing, where they used to compute something.  The generated
elementwise faces take the same rules from their op specs' ``torch_refuses`` (`refusal` builds
the check for both).

Kinds: ``b`` bool, ``u`` unsigned, ``i`` signed integers, ``f`` floats, ``h`` the 16-bit floats
(float16/bfloat16), ``B`` bfloat16, ``c`` complex; the first rule naming a dtype applies.  A
message may name ``{type}`` (PyTorch's legacy name: ``'Long'``, ``'ComplexFloat'``...) and
``{shape}``.  The dtype checked is that of the first tensor argument (``input``/``self``).
PyTorch 2.13's verdicts for every function and method on eleven dtypes are stored in
``tests/stored/torch_dtype_verdicts.json`` (tests/shim/test_refusal_sweep.py).

Example::

    >>> import fgrad.torch as torch
    >>> try:
    ...     torch.tensor([1j, 2j]).max()
    ... except NotImplementedError as e:
    ...     print(e)
    "max_all" not implemented for 'ComplexFloat'
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from ..core.narrow_floats import NARROW_FLOATS as _NARROW, bfloat16 as _BF16, dtype_kind as _dtype_kind
import fgrad.torch._dtypes as D
from ._autocast_state import policy_dtype

NIE, RE = NotImplementedError, RuntimeError
_CAST = (RE, "result type Float can't be cast to the desired output type {type}")
_SORT = (RE, " Sort does not support complex dtypes on CPU")
_CLAMP = (NIE, "clamp is not supported for complex types")
_MM = "addmm_impl_cpu_"


def _nie(kernel: str) -> tuple:
    return NIE, f"\"{kernel}\" not implemented for '{{type}}'"


def _linalg(name: str, low: tuple | None = None) -> tuple:
    """A linalg function's rules: integers and bools, then 16-bit floats (``low``: its error
    there; by default PyTorch's "Low precision dtypes not supported")."""
    return (
        ("biu", RE, f"{name}: Expected a floating point or complex tensor as input. Got {{type}}"),
        ("h", *(low or (RE, f"{name}: Low precision dtypes not supported. Got {{type}}"))),
    )


REFUSALS: dict[str, tuple] = {
    # orderings: complex numbers are not ordered
    **{
        n: (("c", *_nie(k)),)
        for n, k in (
            ("max", "max_all"),
            ("min", "min_all"),
            ("amax", "max_values_cpu"),
            ("amin", "min_values_cpu"),
            ("aminmax", "aminmax_cpu"),
            ("cummax", "cummax_cpu"),
            ("cummin", "cummin_cpu"),
            ("mode", "mode_cpu"),
            ("unique", "unique"),
            ("unique_consecutive", "unique"),
            ("clamp_max", "minimum_cpu"),
            ("clamp_max_", "minimum_cpu"),
            ("clamp_min", "maximum_cpu"),
            ("clamp_min_", "maximum_cpu"),
            ("logit", "logit_cpu"),
            ("xlogy", "xlogy_cpu"),
            ("copysign", "copysign_cpu"),
            ("digamma", "digamma"),
            ("polygamma", "digamma"),
            ("lgamma", "lgamma_vml_cpu"),
            ("i0", "i0_vml_cpu"),
        )
    },
    **{n: (("c", *_SORT),) for n in ("sort", "argsort", "msort")},
    **{n: (("c", *_CLAMP),) for n in ("clamp", "clamp_", "clip", "clip_")},
    **{
        n: (("bc", *_nie(k)),)
        for n, k in (
            ("kthvalue", "kthvalue_cpu"),
            ("median", "median_cpu"),
            ("nanmedian", "median_cpu"),
            ("round", "round_vml_cpu"),
            ("round_", "round_vml_cpu"),
            ("searchsorted", "searchsorted_out_cpu"),
        )
    },
    "argmax": (
        ("b", RE, "argmax(): does not support bool input"),
        ("c", RE, "argmax(): does not support complex input"),
    ),
    "argmin": (
        ("b", RE, "argmin(): does not support bool input"),
        ("c", RE, "argmin(): does not support complex input"),
    ),
    "topk": (
        ("b", RE, "topk does not support bool dtypes on CPU"),
        ("c", RE, " topk does not support complex dtypes on CPU"),
    ),
    "relu": (("b", RE, "Boolean inputs not supported for relu"), ("c", *_CLAMP)),
    "relu_": (("b", RE, "Boolean inputs not supported for relu"), ("c", *_CLAMP)),
    "isin": (("bc", RE, "Unsupported input type encountered for isin(): {type}"),),
    "nansum": (("c", RE, "nansum on CPU does not support complex inputs"),),
    "nanmean": (
        ("biu", RE, "nanmean(): expected input to have floating point or complex dtype but got {type}"),
        ("c", RE, "nansum on CPU does not support complex inputs"),
    ),
    "heaviside": (("c", RE, "heaviside is not yet implemented for complex tensors."),),
    "isposinf": (("c", RE, "isposinf does not support complex inputs."),),
    "isneginf": (("c", RE, "isneginf does not support complex inputs."),),
    "deg2rad": (("c", RE, "deg2rad is not supported for complex tensors."),),
    "rad2deg": (("c", RE, "rad2deg is not supported for complex tensors."),),
    # (softmax and log_softmax check after their dtype= conversion: `_ops._float_kernel`)
    "hardshrink": (("bciu", *_nie("hardshrink_cpu")),),
    "cosine_similarity": (
        ("bciu", RE, "expected common dtype to be floating point, yet common dtype is {type}"),
    ),
    "frac": (("bciu", *_nie("frac_cpu")),),
    "frac_": (("bciu", *_nie("frac_cpu")),),
    # (igamma/igammac refuse an integer *result* type: `special._pair`; complex inputs here)
    "igamma": (("c", *_nie("igamma_cpu")),),
    "igammac": (("c", *_nie("igammac_cpu")),),
    "lerp": (("biu", *_nie("lerp_kernel_tensor")),),
    "addcdiv": (
        (
            "biu",
            RE,
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior "
            "can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
            "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
            "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all "
            "dtypes.",
        ),
    ),
    "mvlgamma": (("b", RE, "The input tensor may not be a boolean tensor."), ("c", *_nie("arange_cpu"))),
    "quantile": (("bciuh", RE, "quantile() input tensor must be either float or double dtype"),),
    "nanquantile": (("bciuh", RE, "quantile() input tensor must be either float or double dtype"),),
    "histogram": (("bciuh", *_nie("histogramdd")),),
    "histogramdd": (("bciuh", *_nie("histogramdd")),),
    "cdist": (
        ("bciu", RE, "cdist only supports floating-point dtypes, X1 got: {type}"),
        ("h", *_nie("cdist")),
    ),
    "dist": (
        (
            "b",
            RE,
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
            "`logical_xor()` operator instead.",
        ),
        ("iu", RE, "norm(): input dtype should be either floating point or complex. Got {type} instead."),
    ),
    "frobenius_norm": (
        ("biu", RE, "norm(): input dtype should be either floating point or complex. Got {type} instead."),
    ),
    "gradient": (
        (
            "b",
            RE,
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
            "`logical_xor()` operator instead.",
        ),
        ("u", RE, "torch.gradient does not support uint8 input."),
    ),
    "positive": (("b", RE, "The `+` operator, on a bool tensor is not supported."),),
    # in-place forms of ops whose result is a float: an integer tensor cannot hold it
    **{n: (("biu", *_CAST),) for n in ("reciprocal_", "rsqrt_", "sigmoid_")},
    "abs_": (("b", *_nie("abs_cpu")), ("c", RE, "In-place abs is not supported for complex tensors.")),
    "deg2rad_": (("biu", *_CAST), ("c", RE, "deg2rad is not supported for complex tensors.")),
    "rad2deg_": (("biu", *_CAST), ("c", RE, "rad2deg is not supported for complex tensors.")),
    "i0_": (("biu", *_CAST), ("c", *_nie("i0_vml_cpu"))),
    "logit_": (("biu", *_CAST), ("c", *_nie("logit_cpu"))),
    "xlogy_": (("biu", *_CAST), ("c", *_nie("xlogy_cpu"))),
    # matrix products: no bool kernels
    **{n: (("b", *_nie(_MM)),) for n in ("matmul", "mm", "addmm", "inner", "spmm")},
    "addcmul": (("b", *_nie("addcmul_cpu_out")),),
    "tensordot": (("b", *_nie("dot")),),
    "trace": (("b", *_nie("trace")),),
    "cross": (("b", *_nie("cross")),),
    "cov": (("b", RE, "cov(): bool dtype is not supported for input"),),
    "corrcoef": (("b", RE, "cov(): bool dtype is not supported for input"),),
    "trapezoid": (("b", RE, "trapezoid: received a bool input for `y`, but bool is not supported"),),
    "trapz": (("b", RE, "trapezoid: received a bool input for `y`, but bool is not supported"),),
    "cumulative_trapezoid": (
        ("b", RE, "cumulative_trapezoid: received a bool input for `y`, but bool is not supported"),
    ),
    # linear algebra: LAPACK types only
    "det": _linalg("linalg.det", _nie("lu_cpu")),
    "inverse": _linalg("linalg.inv"),
    "logdet": _linalg("logdet"),
    "slogdet": _linalg("linalg.slogdet"),
    "nuclear_norm": _linalg("linalg.matrix_norm"),
    "qr": _linalg("linalg.qr", _nie("geqrf_cpu")),
    "svd": _linalg("linalg.svd", _nie("linalg_svd_cpu")),
    "pinverse": (
        (
            "biuh",
            RE,
            "linalg.pinv({type}{{{shape}}}): expected a tensor with 2 or more dimensions of float, "
            "double, cfloat or cdouble types",
        ),
    ),
    **{
        n: (("biuh", *_nie(k)),)
        for n, k in (
            ("cholesky_inverse", "cholesky_inverse_out_cpu"),
            ("cholesky_solve", "cholesky_solve_cpu"),
            ("geqrf", "geqrf_cpu"),
            ("lu", "lu_cpu"),
            ("triangular_solve", "triangular_solve_cpu"),
        )
    },
    "complex": (
        ("bciuB", RE, "Expected both inputs to be Half, Float or Double tensors but got {type} and {type}"),
    ),
    "polar": (
        ("bciuB", RE, "Expected both inputs to be Half, Float or Double tensors but got {type} and {type}"),
        ("h", *_nie("polar_cpu")),
    ),
    # randomized linear algebra: a float32 projection meets the input in a product
    "svd_lowrank": (
        ("b", RE, "expected m1 and m2 to have the same dtype, but got: bool != float"),
        ("B", RE, "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"),
        ("h", *_nie("geqrf_cpu")),
    ),
    "pca_lowrank": (
        ("B", RE, "expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float"),
        ("h", *_nie("geqrf_cpu")),
    ),
    "lobpcg": (("b", RE, "expected m1 and m2 to have the same dtype, but got: bool != float"),),
    "binomial": (
        ("bciu", ValueError, "binomial only supports floating-point dtypes for count, got: {type}"),
    ),
}


def _kinds(dt: np.dtype) -> str:
    """The kind letters naming ``dt`` (``f`` names every float, ``h`` the 16-bit ones)."""
    k = _dtype_kind(dt)
    if dt == _BF16:
        return k + "hB"
    return k + "h" if dt in _NARROW or dt == np.float16 else k


def refusal(rules) -> Callable[..., None] | None:
    """None, or a check ``refuse(dtype, shape=())`` raising the error of the first rule whose
    kinds name ``dtype``'s kind.  A two-item rule ``(kinds, kernel)`` is PyTorch's
    ``"kernel" not implemented for '{type}'``.

    Example::

        >>> check = refusal((("c", NotImplementedError, "no {type} here"),))
        >>> check(np.dtype(np.float32)) is None
        True
    """
    rules = [(r[0], *_nie(r[1])) if len(r) == 2 else tuple(r) for r in rules]
    if not rules:
        return None
    kinds = "".join(r[0] for r in rules)
    refused = {d.np for d in D.ALL if d.np is not None and any(k in kinds for k in _kinds(d.np))}

    def refuse(dt, shape=()) -> None:
        if dt in refused:
            ks_ = _kinds(dt)
            for ks, error, message in rules:
                if any(k in ks for k in ks_):
                    raise error(message.format(type=D.from_np(dt)._legacy, shape=list(shape)))

    return refuse



def _dim_arg(args: tuple, kwargs: dict, pos: int | None, default):
    """The ``dim`` argument of a call (``pos``: its position, None where keyword-only)."""
    return args[pos] if pos is not None and len(args) > pos else kwargs.get("dim", default)


def _empty_reduced(dim, shape: tuple) -> bool:
    """Whether the integer ``dim`` names an empty dimension of ``shape``."""
    return isinstance(dim, int) and bool(shape) and -len(shape) <= dim < len(shape) and shape[dim] == 0


def _reduced_dim_empty(pos: int, default):
    """The calls whose reduced dimension is empty (PyTorch's IndexError "Expected reduction dim
    1 to have non-zero size" comes first: the op raises it)."""
    return lambda args, kwargs, shape, dt: _empty_reduced(_dim_arg(args, kwargs, pos, default), shape)


def _empty_or_scalar(pos: int, default, scalar: bool):
    """The calls on an empty input (PyTorch's kernel never runs: the result is empty, or the
    op's own size error comes first), and on a 0-d one where ``scalar`` (returned as is)."""

    def skips(args, kwargs, shape, dt) -> bool:
        dim = _dim_arg(args, kwargs, pos, default)
        return 0 in shape or (scalar and not shape) or _empty_reduced(dim, shape)

    return skips


def _max_min(name: str):
    """``max``/``min``: without ``dim`` the dtype check waits for an empty input's size error;
    with an integer ``dim`` an empty reduced dim's IndexError comes first, then complex input is
    refused in other words than ``max_all``'s."""

    def skips(args, kwargs, shape, dt) -> bool:
        dim = _dim_arg(args, kwargs, 1, None)
        if dim is None:
            return 0 in shape
        if not isinstance(dim, int) or _empty_reduced(dim, shape):
            return isinstance(dim, int)
        if _dtype_kind(dt) == "c":
            raise RE(f"{name}(): does not support complex input")
        return False

    return skips


def _aminmax(args, kwargs, shape, dt) -> bool:
    dim = kwargs.get("dim")
    if dim is None:
        return 0 in shape
    if not shape and _dtype_kind(dt) == "c":
        raise RE(f"aminmax not implemented for {D.from_np(dt)._legacy}")
    return _empty_reduced(dim, shape)


# ops whose PyTorch kernels look at sizes before the dtype: each rule says, from the call and the
# input's shape and dtype, whether the dtype check steps aside (the op answers as PyTorch does:
# its size error, or an empty result), or raises PyTorch's own error for that call
SIZE_FIRST: dict[str, Callable[[tuple, dict, tuple, np.dtype], bool]] = {
    "median": _reduced_dim_empty(1, None), "nanmedian": _reduced_dim_empty(1, None),
    "kthvalue": _reduced_dim_empty(2, -1),
    "max": _max_min("max"), "min": _max_min("min"),
    "amax": _empty_or_scalar(1, (), False), "amin": _empty_or_scalar(1, (), False),
    "mode": _empty_or_scalar(1, -1, True),
    "cummax": _empty_or_scalar(1, None, True), "cummin": _empty_or_scalar(1, None, True),
    "aminmax": _aminmax,
}


def refusing(f: Callable, refuse: Callable[..., None], autocast_policy: str | None = None,
             size_first: Callable[[tuple, dict, tuple, np.dtype], bool] | None = None) -> Callable:
    """``f`` checking the dtype of its first argument (``input``/``self``) with ``refuse``: the
    dtype the op computes in, so under autocast the one ``f``'s policy casts it to (``cdist`` of
    bfloat16 runs in float32 there).  With ``size_first`` (a `SIZE_FIRST` rule), the calls it
    names skip the check: ``f`` raises PyTorch's size error there, or returns its empty result."""

    @functools.wraps(f)
    def g(*args, **kwargs):
        x = args[0] if args else kwargs.get("input", kwargs.get("self"))
        try:
            b = getattr(x, "_buf", None)
        except NotImplementedError:  # a sparse tensor has no dense buffer: the op itself answers
            b = None
        if b is not None:
            cast = autocast_policy and policy_dtype(autocast_policy, x)
            dt = cast.np if cast else b.dtype
            if not (size_first and size_first(args, kwargs, b.shape, dt)):
                refuse(dt, b.shape)
        return f(*args, **kwargs)

    g.unrefused = f
    return g


# the Python operators that are the same op (``a @ b`` is ``matmul``)
_OPERATORS = {"matmul": ("__matmul__", "__rmatmul__")}


def install(*namespaces) -> None:
    """Wrap the functions named in `REFUSALS` in each namespace (a module's ``globals()``-like
    dict or a class) with their refusal check."""
    for name, rules in REFUSALS.items():
        refuse = refusal(rules)
        for ns, alias in ((ns, alias) for ns in namespaces for alias in (name, *_OPERATORS.get(name, ()))):
            d = ns if isinstance(ns, dict) else ns.__dict__
            f = d.get(alias)
            if f is None or not callable(f) or getattr(f, "refusals", None) is not None:
                continue
            g = refusing(f, refuse, getattr(f, "autocast_policy", None), SIZE_FIRST.get(name))
            g.refusals = rules
            if isinstance(ns, dict):
                ns[alias] = g
            else:
                setattr(ns, alias, g)
