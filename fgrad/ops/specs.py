"""Op specs: one entry per public op, from which its faces are generated.

This is the role PyTorch's ``derivatives.yaml`` plays.  A primitive (``ops/``) says how an op
computes and differentiates; its `OpSpec` says how the op *appears*: its `fgrad.numpy`
name(s), its `fgrad.lax` name, its `fgrad.torch` function name(s), whether the shim has an
in-place twin (``exp_``) and a Tensor method, the shim's ``grad_fn`` name, the shim's dtype
behaviour (integer inputs promoted to the default float for unary math, PyTorch's binary
kinds), and the op-table rows that test it (input domains, dtypes, tolerances).

The faces read these specs and generate themselves:

* `fgrad.numpy` (``numpy/_elementwise.py``): one wrapper per NumPy name (eager fast path);
* `fgrad.lax` (``ops/lax_ops.py``): one wrapper per lax name;
* `fgrad.torch` (``torch/_ops.py``): the function, its in-place twin, the ``grad_fn`` name,
  and (``torch/_ops_methods.py``) the Tensor methods;
* the op table (``testing/op_table/elementwise.py``): the rows.

A face listed in ``hand_written`` is written by hand next to its siblings (an unusual
signature, a PyTorch-specific derivative convention, a composite); the generators skip it
and tests/test_registry.py checks that it exists and carries ``op_spec``.  The same test
fails for a spec missing a face and for a public `fgrad.numpy` function that wraps one
elementwise primitive without a spec.

Adding an elementwise op is its primitive and rule (``ops/``) plus one line here::

    unary("sinh", E.sinh_p, rows=(Row(),))

Example::

    >>> from fgrad.ops.specs import SPECS
    >>> s = SPECS["arcsin"]
    >>> s.numpy, s.lax, s.torch, s.grad_fn
    (('arcsin', 'asin'), 'asin', ('asin', 'arcsin'), 'AsinBackward0')
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..core.primitive import Primitive
from . import special
from . import elementwise as E
from . import elementwise_more as EM

FACES = ("numpy", "lax", "torch", "inplace", "method")
INTS = (np.dtype(np.int32), np.dtype(np.int64))
BOOL = np.dtype(np.bool_)


@dataclasses.dataclass(frozen=True)
class Domain:
    """Test inputs of one argument: values in ``[lo, hi]`` keeping ``margin`` away from
    ``avoid`` (points, or ``"integers"`` / ``"half_integers"`` for the kinks of rounding ops)
    when gradients are checked; ``kind`` ``"float"`` or ``"int"`` (integer values).  Turned
    into an op-table ``Arg`` by `fgrad.testing.op_table`."""

    lo: float = -2.0
    hi: float = 2.0
    avoid: Any = ()
    margin: float = 0.05
    kind: str = "float"


@dataclasses.dataclass(frozen=True)
class Row:
    """One op-table row of a spec's `fgrad.numpy` face.  ``name`` defaults to the spec's
    first NumPy name (a suffix in brackets, ``"abs[int]"``, names a variant; the part before
    it is the `fgrad.numpy` and NumPy function called).  ``args``: one `Domain` per argument
    (default: the family's).  ``grad``: ``"yes"``, ``"zero"`` (piecewise constant), ``"no"``
    (non-float output).  ``dtypes``: float dtypes checked with gradients (``None``: float32
    and float64); ``other_dtypes``: integer/bool dtypes checked forward and under vmap.
    ``valid``: ``"not_tied"`` (binary operands never equal) or ``"mod"`` (``x / y`` away from
    integers).  ``fwd_tol``: ``{dtype: (atol, rtol)}``."""

    name: str | None = None
    args: tuple | None = None
    grad: str = "yes"
    dtypes: tuple | None = None
    other_dtypes: tuple = ()
    specials: bool = False
    valid: str | None = None
    fwd_tol: dict | None = None


def dom(lo: float = -2.0, hi: float = 2.0, avoid: Any = (), **kw) -> Row:
    """A unary op's default row with its input domain."""
    return Row(args=(Domain(lo, hi, avoid),), **kw)


@dataclasses.dataclass(frozen=True)
class OpSpec:
    """One public op and its faces (see the module docstring)."""

    name: str
    family: str  # "unary" | "binary" | "reduction"
    prim: Primitive | None
    numpy: tuple = ()
    lax: str | None = None
    torch: tuple = ()
    inplace: bool = True
    method: bool = True
    grad_fn: str | None = None
    # torch face dtypes.  unary: "float" (integer/bool inputs computed in the default float
    # dtype), "same" (the input's dtype), "nograd" (the primitive's result dtype, never recorded:
    # predicates, bit ops);
    # binary: PyTorch's kinds "a" (arithmetic), "d" (true division), "f" (float result),
    # "c" (comparison: bool result, no autograd)
    torch_dtype: str = "float"
    torch_out: bool = True  # the torch function takes ``out=``
    # the shim's definition where PyTorch's numbers or derivative convention differ from the
    # primitive's (JAX's): the name of a definition in fgrad/torch/_conventions.py
    torch_rule: str | None = None
    # integer division by zero raises PyTorch's RuntimeError (NumPy returns 0)
    torch_int_divisor: bool = False
    rows: tuple = ()
    hand_written: frozenset = frozenset()
    # the functional face's operand promotion beyond the lattice (`core.inexact`): "inexact"
    # (JAX's ``promote_args_inexact``: bool/integer operands computed in JAX's inexact dtype),
    # "numeric" (``promote_args_numeric``: bool operands computed as int32), "" (none); None:
    # "inexact" for the float-only torch kinds (unary "float", binary "d"/"f"), else ""
    promote: str | None = None
    # the functional face's refusals, as JAX's: ((dtype kinds, exception type, message), ...);
    # an operand of one of the kinds raises the exception (message formatted with ``{dtype}``)
    numpy_refuses: tuple = ()
    # the torch face's refusals: ((dtype kinds, kernel name), ...) for PyTorch's
    # NotImplementedError '"<kernel>" not implemented for '<type>'', or (kinds, exception type,
    # message) for its other wordings; the kinds are those of the operands' common dtype
    torch_refuses: tuple = ()
    # the functional face's definition where JAX's ``jnp`` function is more than the
    # primitive's face: the name of a wrapper in fgrad/numpy/_conventions.py
    numpy_rule: str | None = None

    def __post_init__(self) -> None:
        if self.promote is None:
            float_kinds = ("float",) if self.family == "unary" else ("d", "f")
            inexact = self.family != "reduction" and self.torch_dtype in float_kinds
            object.__setattr__(self, "promote", "inexact" if inexact else "")
        bad = set(self.hand_written) - set(FACES)
        if bad:
            raise ValueError(f"op spec {self.name!r}: unknown faces {sorted(bad)}; faces are {FACES}")

    def generates(self, face: str) -> bool:
        """Whether ``face`` is generated from this spec (not written by hand)."""
        return self.prim is not None and face not in self.hand_written

    def rows_or_default(self) -> tuple:
        return self.rows


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_")) + "Backward0"


def _spec(family, name, prim, *, numpy=None, lax=None, torch=None, grad_fn=None, hand_written=(),
          rows=None, **kw) -> OpSpec:
    numpy = (name,) if numpy is None else tuple(numpy)
    torch = (name,) if torch is None else ((torch,) if isinstance(torch, str) else tuple(torch))
    if grad_fn is None and torch and kw.get("torch_dtype") not in ("nograd", "c"):
        grad_fn = _camel(torch[0])
    grad_fn = grad_fn or None  # "": not differentiable (integer-only ops)
    if rows is None:
        rows = (Row(),) if numpy else ()
    return OpSpec(name, family, prim, numpy, lax, torch, grad_fn=grad_fn,
                  hand_written=frozenset(hand_written), rows=tuple(rows), **kw)


def _not_for_complex(name: str) -> tuple:
    """PyTorch's refusal of complex operands for ``maximum``/``minimum``/``fmax``/``fmin``."""
    return (("c", RuntimeError, f"{name} not implemented for complex tensors."),)


def unary(name, prim, *, lax: Any = "=", **kw) -> OpSpec:
    """A unary elementwise op.  ``lax="="``: the lax name is the primitive's name."""
    return _spec("unary", name, prim, lax=prim.name if lax == "=" and prim is not None else lax, **kw)


def binary(name, prim, *, lax: Any = "=", torch_dtype="a", **kw) -> OpSpec:
    """A binary elementwise op with NumPy broadcasting."""
    return _spec("binary", name, prim, lax=prim.name if lax == "=" and prim is not None else lax,
                 torch_dtype=torch_dtype, **kw)


def reduction(name, prim, **kw) -> OpSpec:
    """A reduction; its faces take axis/keepdims/dtype arguments and are written by hand."""
    kw.setdefault("hand_written", FACES)
    kw.setdefault("inplace", False)
    kw.setdefault("rows", ())
    return _spec("reduction", name, prim, **kw)


_NZ = Domain(-3.0, 3.0, avoid=(0.0,), margin=0.3)
_POS = Domain(0.3, 3.0)
_I = Domain(-9, 9)
_INZ = Domain(-9, 9, avoid=(0,))
_MOD = Domain(-4, 4)
_F_TOL = {np.dtype(np.float32): (1e-6, 1e-5), np.dtype(np.float64): (1e-14, 1e-12)}


def _int_row(name, args=None, **kw) -> Row:
    return Row(name=f"{name}[int]", args=args, dtypes=(), other_dtypes=INTS, **kw)


SPEC_LIST: list[OpSpec] = [
    # -- unary math ------------------------------------------------------------------------
    unary("exp", E.exp_p, rows=(dom(), _int_row("exp", (Domain(-5, 5),)))),
    unary("exp2", E.exp2_p),
    unary("expm1", E.expm1_p),
    unary("log", E.log_p, rows=(dom(0.1, 4.0),)),
    unary("log2", E.log2_p, lax=None, numpy_rule="log_base_as_jax", rows=(dom(0.1, 4.0),)),
    unary("log10", E.log10_p, lax=None, numpy_rule="log_base_as_jax", rows=(dom(0.1, 4.0),)),
    unary("log1p", E.log1p_p, grad_fn="Log1PBackward0", rows=(dom(-0.9, 3.0),)),
    unary("sqrt", E.sqrt_p, rows=(dom(0.1, 4.0),)),
    unary("cbrt", E.cbrt_p, torch=(), rows=(dom(avoid=(0.0,)),)),
    unary("sin", E.sin_p, rows=(dom(-4, 4),)),
    unary("cos", E.cos_p, rows=(dom(-4, 4),)),
    unary("tan", E.tan_p, rows=(dom(-1.3, 1.3),)),
    unary("arcsin", E.asin_p, numpy=("arcsin", "asin"), torch=("asin", "arcsin"), rows=(dom(-0.9, 0.9),)),
    unary("arccos", E.acos_p, numpy=("arccos", "acos"), torch=("acos", "arccos"), rows=(dom(-0.9, 0.9),)),
    unary("arctan", E.atan_p, numpy=("arctan", "atan"), torch=("atan", "arctan"), rows=(dom(-4, 4),)),
    unary("sinh", E.sinh_p),
    unary("cosh", E.cosh_p),
    unary("tanh", E.tanh_p, rows=(dom(-3, 3),)),
    unary("arcsinh", E.asinh_p, numpy=("arcsinh", "asinh"), torch=("asinh", "arcsinh"),
          rows=(dom(-4, 4),)),
    unary("arccosh", E.acosh_p, numpy=("arccosh", "acosh"), torch=("acosh", "arccosh"),
          rows=(dom(1.1, 4.0),)),
    unary("arctanh", E.atanh_p, numpy=("arctanh", "atanh"), torch=("atanh", "arctanh"),
          rows=(dom(-0.9, 0.9),)),
    unary("sigmoid", E.logistic_p, numpy=(), rows=(), torch_rule="sigmoid"),  # PyTorch's 1/(1+exp(-x))
    unary("erf", special.erf_p, numpy=(), rows=(), torch_refuses=(("c", "erf_vml_cpu"),)),
    unary("erfc", special.erfc_p, numpy=(), rows=(), torch_refuses=(("c", "erfc_vml_cpu"),)),
    unary("erfinv", special.erf_inv_p, numpy=(), lax="erf_inv", rows=(),
          torch_refuses=(("c", "erfinv_vml_cpu"),)),
    # PyTorch's abs'(0) = 0 (the primitive follows JAX: 1): the shim's abs is a composite
    unary("abs", E.abs_p, numpy=("abs", "absolute"), torch=("abs", "absolute"), torch_dtype="same",
          hand_written=("torch", "inplace"), torch_refuses=(("b", "abs_cpu"),),
          rows=(dom(avoid=(0.0,)), _int_row("abs", (Domain(-5, 5),)))),
    unary("negative", E.neg_p, lax="neg", torch=("neg", "negative"), torch_dtype="same",
          rows=(dom(), _int_row("negative", (Domain(-5, 5),))),
          torch_refuses=(("b", RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. "
                          "If you are trying to invert a mask, use the `~` or `logical_not()` operator "
                          "instead."),)),
    # PyTorch's sign(nan) = 0 (the primitive follows JAX: nan): the shim's sign is a composite
    unary("sign", E.sign_p, torch_dtype="same", hand_written=("torch", "inplace"),
          rows=(dom(avoid=(0.0,), grad="zero"), _int_row("sign", (Domain(-5, 5),))),
          # the primitive keeps a bool as it is, for PyTorch's sign; jnp.sign has no bool version
          numpy_refuses=(("b", TypeError, "sign does not accept dtype bool. Accepted dtypes are "
                          "subtypes of integer, floating, complexfloating."),),
          torch_refuses=(("c", NotImplementedError, "Unlike NumPy, torch.sign is not intended to support "
                          "complex numbers. Please use torch.sgn instead."),)),
    *[unary(n, p, torch_dtype="same", rows=(dom(-3, 3, "integers", grad="zero"),),
            torch_refuses=(("b", f"{n}_vml_cpu"),
                           ("c", NotImplementedError, f"{n} is not supported for complex inputs")), **kw)
      for n, p, kw in (("floor", E.floor_p, {}), ("ceil", E.ceil_p, {}),
                       ("trunc", E.trunc_p, dict(numpy=("trunc", "fix"), lax=None, torch=("trunc", "fix"))))],
    unary("conjugate", E.conj_p, numpy=("conjugate", "conj"), torch=(), promote=""),
    unary("real", E.real_p, torch_dtype="nograd", hand_written=("torch", "method"), inplace=False),
    unary("imag", E.imag_p, torch_dtype="nograd", hand_written=("torch", "method"), inplace=False,
          rows=(Row(grad="zero"),)),
    # predicates and bit ops: no gradient, no in-place twin
    unary("isnan", E.isnan_p, lax=None, torch_dtype="nograd", torch_out=False, inplace=False,
          rows=(Row(grad="no", specials=True),)),
    unary("isinf", E.isinf_p, lax=None, torch_dtype="nograd", torch_out=False, inplace=False,
          rows=(Row(grad="no", specials=True),)),
    unary("isfinite", E.isfinite_p, lax="is_finite", torch_dtype="nograd", torch_out=False, inplace=False,
          rows=(Row(grad="no", specials=True),)),
    unary("signbit", E.signbit_p, lax=None, torch_dtype="nograd", inplace=False,
          rows=(Row(grad="no", specials=True),),
          numpy_refuses=(("c", ValueError, "jax.numpy.signbit is not well defined for {dtype}"),),
          torch_refuses=(("c", NotImplementedError, "signbit is not implemented for complex tensors."),)),
    unary("logical_not", E.logical_not_p, lax=None, torch_dtype="nograd", inplace=False,
          rows=(Row(grad="no", other_dtypes=(BOOL,)),)),
    unary("invert", E.invert_p, numpy=("invert", "bitwise_not"), lax="bitwise_not", torch="bitwise_not",
          torch_dtype="nograd", inplace=False, torch_refuses=(("fc", "bitwise_not_cpu"),),
          rows=(Row(args=(Domain(-9, 9),), dtypes=(), other_dtypes=INTS + (BOOL,), grad="no"),)),
    # -- binary math -----------------------------------------------------------------------
    # add/sub/mul/div/pow: the torch functions take alpha= / rounding_mode= / scalar
    # exponents, and their in-place twins are Tensor methods written by hand
    binary("add", E.add_p, hand_written=("torch", "inplace"), rows=(Row(), _int_row("add", (_I, _I)))),
    binary("subtract", E.sub_p, lax="sub", torch=("sub", "subtract"), hand_written=("torch", "inplace"),
           torch_refuses=(("b", RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead."),),
           rows=(Row(), _int_row("subtract", (_I, _I)))),
    binary("multiply", E.mul_p, lax="mul", torch=("mul", "multiply"), hand_written=("torch", "inplace"),
           rows=(Row(), _int_row("multiply", (_I, _I)))),
    binary("divide", E.div_p, numpy=("divide", "true_divide"), torch=("div", "divide", "true_divide"),
           torch_dtype="d", hand_written=("lax", "torch", "inplace"),
           rows=(Row(args=(Domain(), _NZ)), Row(name="true_divide", args=(Domain(), _NZ)),
                 _int_row("true_divide", (_I, _INZ)))),
    binary("power", E.pow_p, numpy=("power", "pow"), torch="pow", grad_fn="PowBackward1", torch_rule="pow",
           numpy_rule="power_int_exponent",
           promote="numeric", hand_written=("torch", "inplace"), rows=(Row(args=(_POS, Domain())),),
           torch_refuses=(("b", "pow"),)),
    binary("maximum", E.max_p, lax="max", inplace=False, torch_rule="maximum",
           torch_refuses=_not_for_complex("maximum"),
           rows=(Row(valid="not_tied", specials=True), _int_row("maximum", (_I, _I)))),
    binary("minimum", E.min_p, lax="min", inplace=False, torch_rule="minimum",
           torch_refuses=_not_for_complex("minimum"),
           rows=(Row(valid="not_tied", specials=True), _int_row("minimum", (_I, _I)))),
    binary("fmax", E.fmax_p, lax=None, inplace=False, torch_rule="fmax",
           torch_refuses=_not_for_complex("fmax"), rows=(Row(valid="not_tied", specials=True),)),
    binary("fmin", E.fmin_p, lax=None, inplace=False, torch_rule="fmin",
           torch_refuses=_not_for_complex("fmin"), rows=(Row(valid="not_tied", specials=True),)),
    binary("arctan2", E.atan2_p, numpy=("arctan2", "atan2"), torch=("atan2", "arctan2"),
           torch_dtype="f", torch_rule="atan2", torch_refuses=(("c", "atan2_cpu"),),
           rows=(Row(args=(Domain(), _NZ)),)),
    binary("hypot", E.hypot_p, lax=None, torch_dtype="f", torch_rule="hypot", rows=(Row(args=(_NZ, _NZ)),),
           numpy_rule="weak_only_if_all_weak",
           numpy_refuses=(("c", ValueError, "jnp.hypot is not well defined for complex-valued inputs. "
                           "Please convert to real values first, such as by using abs(x)"),),
           torch_refuses=(("biuc", "hypot_cpu"),)),
    binary("logaddexp", E.logaddexp_p, lax=None, torch_dtype="f", inplace=False, torch_rule="logaddexp",
           numpy_rule="complex_weak_only_if_all_weak",
           torch_refuses=(("biu", "logaddexp_cpu"),)),
    binary("logaddexp2", EM.logaddexp2_p, lax=None, torch_dtype="f", inplace=False, torch_rule="logaddexp2",
           numpy_rule="weak_only_if_all_weak",
           rows=(Row(fwd_tol=_F_TOL),), torch_refuses=(("biuc", "logaddexp2_cpu"),)),
    binary("complex", E.complex_p, numpy=(), lax="complex", torch=(), hand_written=("lax",), inplace=False,
           method=False, rows=()),
    binary("nextafter", EM.nextafter_p, lax="nextafter", torch=(), inplace=False, promote="inexact",
           rows=(Row(args=(Domain(), Domain()), valid="not_tied"),)),
    binary("mod", E.rem_p, numpy=("mod", "remainder"), lax=None, torch="remainder", torch_int_divisor=True,
           promote="numeric", torch_refuses=(("bc", "remainder_cpu"),),
           rows=(Row(args=(_MOD, _NZ), valid="mod"), Row(name="remainder", args=(_MOD, _NZ), valid="mod"),
                 _int_row("mod", (_I, _INZ)))),
    binary("fmod", E.fmod_p, lax="rem", torch_int_divisor=True, promote="numeric",
           torch_refuses=(("bc", "fmod_cpu"),),
           rows=(Row(args=(_MOD, _NZ), valid="mod"),)),
    binary("floor_divide", E.floor_divide_p, lax=None, torch_int_divisor=True, promote="numeric",
           numpy_rule="floor_divide_as_xla", grad_fn="NotImplemented",  # PyTorch refuses its gradient
           torch_refuses=(("bc", "div_floor_cpu"),),
           rows=(Row(args=(_MOD, _NZ), valid="mod", grad="zero"), _int_row("floor_divide", (_I, _INZ)))),
    *[binary(n, p, lax=n, grad_fn="", torch_refuses=(("fc", f"{n}_cpu"),),
             rows=(Row(args=(_I, _I), dtypes=(), other_dtypes=INTS + (BOOL,), grad="no"),))
      for n, p in (("bitwise_and", E.and_p), ("bitwise_or", E.or_p), ("bitwise_xor", E.xor_p))],
    # comparisons and logic: bool results, never recorded by autograd
    *[binary(n, p, lax=lx, torch=tn, torch_dtype="c",
             rows=(Row(args=(Domain(), Domain()), other_dtypes=INTS, grad="no", specials=True),),
             torch_refuses=(("c", f"{lx}_cpu"),) if lx in ("lt", "le", "gt", "ge") else ())
      for n, p, lx, tn in (("equal", E.eq_p, "eq", ("eq",)), ("not_equal", E.ne_p, "ne", ("ne", "not_equal")),
                           ("less", E.lt_p, "lt", ("lt", "less")),
                           ("less_equal", E.le_p, "le", ("le", "less_equal")),
                           ("greater", E.gt_p, "gt", ("gt", "greater")),
                           ("greater_equal", E.ge_p, "ge", ("ge", "greater_equal")))],
    *[binary(n, p, lax=None, torch_dtype="c",
             rows=(Row(args=(Domain(-1, 1), Domain(-1, 1)), other_dtypes=(BOOL,) + INTS, grad="no"),))
      for n, p in (("logical_and", E.logical_and_p), ("logical_or", E.logical_or_p),
                   ("logical_xor", E.logical_xor_p))],
    # -- reductions: axis/keepdims/dtype signatures, faces written by hand -------------------
    reduction("sum", None, lax="reduce_sum", grad_fn="SumBackward0"),
    reduction("prod", None, lax="reduce_prod", grad_fn="ProdBackward0"),
    reduction("max", None, numpy=("max", "amax"), lax="reduce_max", torch="amax", grad_fn="AmaxBackward0"),
    reduction("min", None, numpy=("min", "amin"), lax="reduce_min", torch="amin", grad_fn="AminBackward0"),
    reduction("mean", None, grad_fn="MeanBackward0"),
    reduction("all", None, lax="reduce_and", torch_dtype="nograd"),
    reduction("any", None, lax="reduce_or", torch_dtype="nograd"),
    reduction("argmax", None, lax="argmax", torch_dtype="nograd"),
    reduction("argmin", None, lax="argmin", torch_dtype="nograd"),
]

SPECS: dict[str, OpSpec] = {}
for _s in SPEC_LIST:
    if _s.name in SPECS:
        raise ValueError(f"op spec {_s.name!r} is declared twice")
    SPECS[_s.name] = _s


def family(name: str) -> list[OpSpec]:
    """The specs of one family (``"unary"``, ``"binary"``, ``"reduction"``), in order."""
    return [s for s in SPEC_LIST if s.family == name]


def point_faces(namespace: dict, face: str) -> None:
    """Give the hand-written functions of ``face`` (``"numpy"``, ``"lax"``, ``"torch"``) in
    ``namespace`` their spec (``fn.op_spec``); generated ones carry it already.  Names a
    spec lists but the namespace lacks are left for tests/test_registry.py to report."""
    for spec in SPEC_LIST:
        names = {"numpy": spec.numpy, "lax": (spec.lax,) if spec.lax else (), "torch": spec.torch}[face]
        for n in names:
            fn = namespace.get(n)
            if fn is not None and getattr(fn, "op_spec", None) is None:
                fn.op_spec = spec
