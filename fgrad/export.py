"""`fgrad.export`: JAX's ``jax.export`` -- a jitted function staged out at given argument
types into an `Exported` (its program, argument and result types and trees), callable later
(eagerly, under jit, grad and vmap), and serialized to bytes and back.

The serialized form is a documented data format, never pickle: the bytes ``FGRADEXP``, a
format version byte, then UTF-8 JSON (see docs/jax-api-round12.md, "Serialization format").
Reading it (`deserialize`) parses JSON and builds data only: primitives are looked up by
name in fgrad's registry, parameters are numbers, strings, dtypes, tuples, arrays (raw
little-endian bytes) and nested programs; anything else -- a Python function a callback
carries, an object of an unknown type -- cannot be written, and a blob naming an unknown
primitive or kind of value is refused with a ValueError.  A crafted blob therefore cannot
make `deserialize` run code.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad import export
    >>> exp = export.export(fgrad.jit(lambda x: fnp.sin(x) * 2))(fgrad.ShapeDtypeStruct((3,), fnp.float32))
    >>> exp.in_avals, exp.out_avals
    ((ShapedArray(float32[3]),), (ShapedArray(float32[3]),))
    >>> again = export.deserialize(exp.serialize())
    >>> again.call(fnp.zeros(3, fnp.float32))
    Array([0., 0., 0.], dtype=float32)
"""

from __future__ import annotations

import base64
import math
import json
from typing import Any, Callable, Sequence

import ml_dtypes
import numpy as np

from .core.array import ArrayImpl, ShapeDtypeStruct, ShapedArray, Tracer, get_aval, wrap
from .core.constants import make_on_default_device
from .core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal, Var, eval_jaxpr
from .core.primitive import PRIMITIVES
from .core.shape_poly import DimExpr, SymbolicScope, is_symbolic_dim, symbolic_shape, variables_of
from .ops.control_flow import Branch
from .transforms.jit_primitive import Closed
from .transforms.custom_call import materialize_rule, materialize_vjp_rules, rule_key
from .tree_util import flatten_one_level, tree_flatten, tree_map, tree_structure, tree_unflatten

__all__ = ["DisabledSafetyCheck", "Exported", "SerializationError", "SymbolicScope",
           "default_export_platform", "deserialize", "export", "is_symbolic_dim",
           "maximum_supported_calling_convention_version", "minimum_supported_calling_convention_version",
           "register_namedtuple_serialization",
           "register_pytree_node_serialization", "symbolic_args_specs", "symbolic_shape"]

MAGIC = b"FGRADEXP"
# the platforms an export may name (JAX's lowering platforms); fgrad's one program runs on any
# of them that is the current one (`Exported.call` refuses the others, as JAX does)
PLATFORMS = ("cpu", "cuda", "rocm", "tpu")
FORMAT_VERSION = 1
# JAX's calling convention version of the release fgrad follows (an attribute programs print)
CALLING_CONVENTION_VERSION = 10
# the calling convention versions JAX 0.10.2 reads (``jax.export``'s constants)
minimum_supported_calling_convention_version = 9
maximum_supported_calling_convention_version = 10


class SerializationError(ValueError):
    """A program that cannot be serialized (a parameter that is not data), or bytes that are
    not a serialized `Exported` of this format.

    Example::

        >>> issubclass(SerializationError, ValueError)
        True
    """


class Exported:
    """A function staged out by `export`: ``fun_name``, ``in_tree``/``out_tree`` (the pytree
    structures of ``((args), {kwargs})`` and of the result), ``in_avals``/``out_avals`` (the
    flat argument and result types), ``nr_devices``, ``platforms``; `call` runs it and
    `serialize` writes it (`deserialize` reads it back).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> exp = export(fgrad.jit(fnp.add))(1.0, fnp.ones(2))
        >>> exp.fun_name, exp.in_tree
        ('add', PyTreeDef(((*, *), {})))
        >>> exp.call(1.0, fnp.ones(2))
        Array([2., 2.], dtype=float64)
    """

    def __init__(self, fun_name: str, in_tree: Any, out_tree: Any, in_avals: tuple, out_avals: tuple,
                 program: ClosedJaxpr | None, platforms: tuple = ("cpu",),
                 polymorphic: _Polymorphic | None = None) -> None:
        self.fun_name, self.in_tree, self.out_tree = fun_name, in_tree, out_tree
        self.in_avals, self.out_avals = tuple(in_avals), tuple(out_avals)
        self.platforms = tuple(platforms)
        self.nr_devices = 1
        self.calling_convention_version = CALLING_CONVENTION_VERSION
        self.in_shardings_hlo = (None,) * len(self.in_avals)
        self.out_shardings_hlo = (None,) * len(self.out_avals)
        self.uses_global_constants = False
        self.disabled_safety_checks = ()
        self._program = program
        self._poly = polymorphic  # symbolic input shapes: the programs per concrete size

    def __repr__(self) -> str:
        return (f"Exported(fun_name={self.fun_name!r}, in_avals={self.in_avals}, "
                f"out_avals={self.out_avals}, platforms={self.platforms})")

    def mlir_module(self) -> str:
        """The staged program as text (fgrad has no MLIR: its jaxpr).

        Example::

            >>> import fgrad, fgrad.numpy as fnp
            >>> "sin" in export(fgrad.jit(fnp.sin))(1.0).mlir_module()
            True
        """
        if self._poly is not None:
            raise NotImplementedError(
                f"Exported.mlir_module of {self.fun_name!r}: exported with symbolic shapes, the "
                "function is staged at each call's concrete sizes (no single program)")
        return str(self._program)

    @property
    def mlir_module_serialized(self) -> bytes:
        """The staged program as bytes (JAX's serialized StableHLO; fgrad's: `mlir_module`'s
        text, UTF-8).

        Example::

            >>> import fgrad, fgrad.numpy as fnp
            >>> b"sin" in export(fgrad.jit(fnp.sin))(1.0).mlir_module_serialized
            True
        """
        return self.mlir_module().encode()

    def call(self, *args: Any, **kwargs: Any) -> Any:
        """Run the exported program on arguments of the exported structure and types (a
        ValueError names the first that differs); traceable, so it works under jit, grad
        and vmap.

        Example::

            >>> import fgrad, fgrad.numpy as fnp
            >>> exp = export(fgrad.jit(lambda x: x ** 2))(fgrad.ShapeDtypeStruct((), fnp.float64))
            >>> float(fgrad.grad(exp.call)(3.0))
            6.0
        """
        here = _platform()
        if here not in self.platforms:
            raise ValueError(f"Function {self.fun_name!r} was exported for platforms {self.platforms!r} "
                             f"but it is used on {(here,)!r} (export it with platforms= naming {here!r})")
        leaves, tree = tree_flatten((args, kwargs))
        if tree != self.in_tree:
            raise ValueError(f"Exported.call of {self.fun_name!r}: the arguments have structure {tree}, "
                             f"the function was exported for {self.in_tree}")
        env = self._poly.bind_sizes(self.fun_name, leaves, self.in_avals) if self._poly else None
        for i, (x, want) in enumerate(zip(leaves, self.in_avals)):
            got = get_aval(x)
            shape = want.shape if env is None else tuple(_size(d, env) for d in want.shape)
            weak_scalar = isinstance(x, (bool, int, float, complex)) and not want.shape
            if tuple(got.shape) != tuple(shape) or (got.dtype != want.dtype and not weak_scalar):
                raise ValueError(
                    f"Exported.call of {self.fun_name!r}: argument {i} has type "
                    f"{got.dtype}{list(got.shape)}, the function was exported for "
                    f"{want.dtype}{list(want.shape)}")
        program = self._program if env is None else self._poly.program(env)
        consts = [c if isinstance(c, (ArrayImpl, Tracer)) else wrap(c) for c in program.consts]
        outs = eval_jaxpr(program.jaxpr, consts, leaves)
        return tree_unflatten(self.out_tree, outs)

    def serialize(self, vjp_order: int = 0) -> bytearray:
        """The exported function as bytes (``MAGIC``, the format version, UTF-8 JSON; see
        the module's docstring).  ``vjp_order`` is accepted for JAX's signature: the program
        itself is written, so the read-back function is differentiable to any order.

        Example::

            >>> import fgrad, fgrad.numpy as fnp
            >>> blob = export(fgrad.jit(fnp.cos))(0.5).serialize()
            >>> bytes(blob[:8])
            b'FGRADEXP'
        """
        if self._poly is not None:
            raise SerializationError(
                f"fgrad.export: {self.fun_name!r} was exported with symbolic shapes; fgrad stages "
                "it at each call's concrete sizes from the Python function, which the data-only "
                "format cannot hold (export it at concrete shapes to serialize it)")
        doc = {"fun_name": self.fun_name, "platforms": list(self.platforms),
               "in_tree": _encode_tree(self.in_tree), "out_tree": _encode_tree(self.out_tree),
               "in_avals": [_encode_aval(a) for a in self.in_avals],
               "out_avals": [_encode_aval(a) for a in self.out_avals],
               "program": _encode_closed(self._program.jaxpr, self._program.consts)}
        return bytearray(MAGIC + bytes([FORMAT_VERSION]) + json.dumps(doc, separators=(",", ":")).encode())


def export(fun_jit: Callable, *, platforms: Any = None, disabled_checks: Any = (),
           **_: Any) -> Callable[..., Exported]:
    """``export(jit(f))(*args, **kwargs)``: ``f`` staged out at the arguments' shapes and
    dtypes (arrays or `fgrad.ShapeDtypeStruct` s; static arguments as values) as an
    `Exported`, as ``jax.export.export``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> exp = export(fgrad.jit(lambda x, y: x @ y))(fnp.ones((2, 3)), fnp.ones((3, 4)))
        >>> exp.out_avals
        (ShapedArray(float64[2,4]),)
    """
    if not hasattr(fun_jit, "lower"):
        raise TypeError("fgrad.export.export: the function to export must be the result of fgrad.jit "
                        f"(jax.jit), got {fun_jit!r}")
    if platforms is not None:
        unknown = [p for p in platforms if p not in PLATFORMS]
        if unknown or not platforms:
            raise ValueError(f"fgrad.export.export: platforms={platforms!r}: each must be one of {PLATFORMS} "
                             "(JAX's lowering platforms)")

    def do_export(*args: Any, **kwargs: Any) -> Exported:
        plats = tuple(platforms) if platforms is not None else (_platform(),)
        poly = _Polymorphic.of(fun_jit, args, kwargs)
        if poly is not None:
            return poly.exported(plats)
        lowered = fun_jit.lower(*args, **kwargs)
        closed = lowered._entry.closed
        program = ClosedJaxpr(closed.jaxpr, closed.consts)
        in_avals = tuple(_aval_of(v.aval) for v in closed.jaxpr.invars)
        out_avals = tuple(_aval_of(v.aval) for v in closed.jaxpr.outvars)
        return Exported(lowered._fname, lowered.in_tree, closed.out_tree, in_avals, out_avals, program,
                        plats)

    return do_export


# ---- symbolic shapes ----------------------------------------------------------------------


def _aval_of(aval: Any) -> ShapedArray:
    """An exported argument's or result's type: shape, dtype and weak type (JAX keeps a weakly
    typed argument's ``weak_type=True``, as ``jnp.full(shape, 0.5)`` makes)."""
    return ShapedArray(aval.shape, aval.dtype, bool(getattr(aval, "weak_type", False)))


def _size(d: Any, env: dict[str, int]) -> int:
    return d.evaluate(env) if isinstance(d, DimExpr) else int(d)


# the sizes the dimension variables take when the output shapes are worked out (multiples of 12
# keep common divisibility: halving, thirds, quarters)
_BASE, _STEP = 12, 12


class _Polymorphic:
    """An export with symbolic input shapes: the jitted function staged at each call's
    concrete sizes (cached per binding of the dimension variables), its output shapes
    polynomials of degree 1 in the variables, worked out by staging it at sample sizes."""

    def __init__(self, fun_jit: Callable, args: tuple, kwargs: dict, scope: SymbolicScope,
                 variables: list[str]) -> None:
        self.fun_jit, self.args, self.kwargs = fun_jit, args, kwargs
        self.scope, self.variables = scope, variables
        self.cache: dict[tuple, Any] = {}

    @staticmethod
    def of(fun_jit: Callable, args: tuple, kwargs: dict) -> _Polymorphic | None:
        leaves, _ = tree_flatten((args, kwargs))
        shapes = [x.shape for x in leaves if isinstance(x, ShapeDtypeStruct)]
        dims = [d for shp in shapes for d in shp if isinstance(d, DimExpr)]
        if not dims:
            return None
        scope = dims[0].scope
        if any(d.scope is not scope for d in dims):
            raise ValueError("fgrad.export: Invalid mixing of symbolic scopes: the arguments' symbolic "
                             "dimensions come from different symbolic_shape calls (parse them in "
                             "one call, or pass one SymbolicScope as scope=)")
        return _Polymorphic(fun_jit, args, kwargs, scope, variables_of(shapes))

    def _concrete(self, env: dict[str, int]) -> tuple:
        def fix(x):
            if isinstance(x, ShapeDtypeStruct) and any(isinstance(d, DimExpr) for d in x.shape):
                return ShapeDtypeStruct(tuple(_size(d, env) for d in x.shape), x.dtype,
                                        weak_type=x.weak_type)
            return x
        return tree_map(fix, (self.args, self.kwargs))

    def lowered(self, env: dict[str, int]) -> Any:
        args, kwargs = self._concrete(env)
        return self.fun_jit.lower(*args, **kwargs)

    def program(self, env: dict[str, int]) -> ClosedJaxpr:
        key = tuple(env[v] for v in self.variables)
        prog = self.cache.get(key)
        if prog is None:
            closed = self.lowered(env)._entry.closed
            prog = self.cache[key] = ClosedJaxpr(closed.jaxpr, closed.consts)
        return prog

    def _allowed(self, env: dict[str, int]) -> bool:
        try:
            self.scope.check(env, "")
        except ValueError:
            return False
        return True

    def _sample_envs(self) -> tuple[dict, list[tuple[str, dict, int]], dict]:
        """A base binding of the variables, one with each variable moved by +-_STEP, and a
        check binding, all satisfying the scope's constraints."""
        n = len(self.variables)
        for order in (range(n), range(n - 1, -1, -1), [0] * n):
            base = {v: _BASE * (k + 1) for v, k in zip(self.variables, order)}
            check = {v: s + 2 * _STEP + k for k, (v, s) in enumerate(base.items())}
            if not (self._allowed(base) and self._allowed(check)):
                continue
            moves = []
            for v in self.variables:
                for step in (_STEP, -_STEP):
                    env = {**base, v: base[v] + step}
                    if self._allowed(env):
                        moves.append((v, env, step))
                        break
            if len(moves) == n:
                return base, moves, check
        raise NotImplementedError(
            f"fgrad.export: no sample sizes of {self.variables} satisfy the constraints "
            f"{list(self.scope.constraints_str)} (fgrad stages the function at sample sizes to "
            "work its output shapes out)")

    def exported(self, platforms: tuple) -> Exported:
        base, moves, check_env = self._sample_envs()
        lowered = self.lowered(base)
        closed = lowered._entry.closed
        ins, outs = self._avals(base)
        moved = [(v, step, self._avals(env)) for v, env, step in moves]
        check = self._avals(check_env)
        in_avals, out_avals = ([
            ShapedArray(tuple(self._fit(a.shape, k, j, base, moved, check, check_env, side)
                              for k in range(len(a.shape))), a.dtype, a.weak_type)
            for j, a in enumerate(avals)] for side, avals in enumerate((ins, outs)))
        self.cache[tuple(base[v] for v in self.variables)] = ClosedJaxpr(closed.jaxpr, closed.consts)
        return Exported(lowered._fname, lowered.in_tree, closed.out_tree, tuple(in_avals),
                        tuple(out_avals), None, platforms, polymorphic=self)

    def _avals(self, env: dict[str, int]) -> tuple[list, list]:
        jaxpr = self.lowered(env)._entry.closed.jaxpr
        return [v.aval for v in jaxpr.invars], [v.aval for v in jaxpr.outvars]

    def _fit(self, shape: tuple, k: int, j: int, base: dict, moved: list, check: tuple,
             check_env: dict, side: int) -> Any:
        """Dimension ``k`` of input (side 0) or output (side 1) ``j`` as a polynomial of degree
        1 in the variables, from its sizes at the sample bindings."""
        n = shape[k]
        d: Any = n
        for v, step, avals in moved:
            delta = avals[side][j].shape[k] - n
            if delta % step:
                raise self._not_affine(j, k, side)
            d = d + (delta // step) * (DimExpr.var(v, self.scope) - base[v])
        if _size(d, check_env) != check[side][j].shape[k]:
            raise self._not_affine(j, k, side)
        return d

    def _not_affine(self, j: int, k: int, side: int = 1) -> NotImplementedError:
        return NotImplementedError(
            f"fgrad.export: {('input', 'output')[side]} {j}'s dimension {k} is not a polynomial of "
            f"degree 1 in the dimension variables {self.variables} (fgrad works shapes out by staging the "
            "function at sample sizes; JAX's symbolic shapes allow any polynomial)")

    def bind_sizes(self, fun_name: str, leaves: list, in_avals: tuple) -> dict[str, int]:
        """The dimension variables' values the arguments' shapes give (JAX's ValueErrors for
        a constant dimension that differs, a variable below 1, or sizes that disagree)."""
        specs = ",".join(f"args[{i}].shape = {tuple(a.shape)}" for i, a in enumerate(in_avals))
        env: dict[str, int] = {}
        shapes, symbolic = [], []
        for i, (x, want) in enumerate(zip(leaves, in_avals)):
            got = tuple(get_aval(x).shape)
            if len(got) != len(want.shape):
                raise ValueError(f"Exported.call of {fun_name!r}: Rank mismatch for args[{i}]: expected "
                                 f"{len(want.shape)} dimensions {want.shape}, called with shape {got}")
            shapes.append(got)
            for k, (d, n) in enumerate(zip(want.shape, got)):
                if not isinstance(d, DimExpr):
                    if int(d) != n:
                        raise ValueError(
                            f"Shape mismatch for args[{i}].shape[{k}] (expected same constant): "
                            f"expected {tuple(want.shape)} and called with {got}")
                    continue
                symbolic.append((i, k, d, n))
        _solve_sizes(symbolic, env, specs)
        missing = [v for v in self.variables if v not in env]
        if missing:
            raise NotImplementedError(
                f"Exported.call of {fun_name!r}: the dimension variables {missing} appear in no "
                "argument dimension fgrad can solve for them (a dimension linear in one unknown "
                "variable, such as 'b' or '2*b + 1')")
        for i, want in enumerate(in_avals):
            for k, d in enumerate(want.shape):
                if isinstance(d, DimExpr) and d.evaluate(env) != shapes[i][k]:
                    raise ValueError(
                        "Input shapes do not match the polymorphic shapes specification. Found "
                        f"inconsistency between dimension size args[{i}].shape[{k}] (= {shapes[i][k]}) "
                        f"and the specification {str(d)!r} (= {d.evaluate(env)}). Using the following "
                        f"polymorphic shapes specifications: {specs}. Obtained dimension variables: "
                        + ", ".join(f"{v!r} = {n}" for v, n in env.items()))
        self.scope.check(env, f"Exported.call of {fun_name!r}")
        return env


def _solve_sizes(dims: list, env: dict[str, int], specs: str) -> None:
    """Fill ``env`` with the dimension variables' values from ``(arg, axis, expression, size)``
    of the arguments' symbolic dimensions: repeatedly, an expression whose one unknown
    variable appears alone and to the first power (``b``, ``2*b + 1``, ``a*b`` once ``a`` is
    known) gives it (JAX's ValueErrors for a remainder or a value below 1)."""
    pending = list(dims)
    while pending:
        for entry in pending:
            i, k, d, n = entry
            unknown = {name for m in d.terms for name, _ in m if name not in env}
            if len(unknown) != 1:
                continue
            v = unknown.pop()
            powers = [dict(m).get(v, 0) for m in d.terms]
            if any(p > 1 for p in powers):
                continue  # v squared or higher: not solved (JAX solves linear equations only)
            known = [c * math.prod(env[name] ** p for name, p in m if name != v) for m, c in d.terms.items()]
            slope = sum(x for x, p in zip(known, powers) if p == 1)
            rest = sum(x for x, p in zip(known, powers) if p == 0)
            if slope == 0:
                continue
            value, remainder = divmod(n - rest, slope)
            where = (f"Using the following polymorphic shapes specifications: {specs}. Obtained dimension "
                     f"variables: {v!r} = {value} from specification {str(d)!r} for dimension "
                     f"args[{i}].shape[{k}] (= {n})")
            if remainder:
                raise ValueError("Input shapes do not match the polymorphic shapes specification. Division "
                                 f"had remainder {remainder} when computing the value of {v!r}. {where}")
            if value < 1:
                raise ValueError("Input shapes do not match the polymorphic shapes specification. "
                                 f"Expected value >= 1 for dimension variable {v!r}. {where}")
            env[v] = value
            pending.remove(entry)
            break
        else:
            return


def symbolic_args_specs(args: Any, shapes_specs: Any, constraints: Sequence[str] = (),
                        scope: SymbolicScope | None = None) -> Any:
    """``args`` (arrays or shape structs) as `fgrad.ShapeDtypeStruct` s whose shapes follow
    ``shapes_specs`` (one `symbolic_shape` specification for every leaf, or a tree of them
    matching ``args``; ``_`` and ``...`` take the argument's sizes), all in one scope (JAX's
    ``jax.export.symbolic_args_specs``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> symbolic_args_specs((fnp.ones((3, 4)), fnp.ones(3)), ("b, ...", "b"))
        (ShapeDtypeStruct(shape=(b, 4), dtype=float64), ShapeDtypeStruct(shape=(b,), dtype=float64))
    """
    if scope is None:
        scope = SymbolicScope(constraints)
    elif constraints:
        raise ValueError("symbolic_args_specs: pass constraints to the SymbolicScope when you pass scope=")
    leaves, tree = tree_flatten(args)
    if shapes_specs is None or isinstance(shapes_specs, str):
        specs = [shapes_specs] * len(leaves)
    else:
        specs = _prefix_leaves(shapes_specs, args)
    out = []
    for x, spec in zip(leaves, specs, strict=True):
        shape = tuple(np.shape(x)) if not hasattr(x, "shape") else tuple(x.shape)
        dtype = x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype
        out.append(ShapeDtypeStruct(symbolic_shape(spec, scope=scope, like=shape), dtype))
    return tree_unflatten(tree, out)


def _prefix_leaves(prefix: Any, tree: Any) -> list:
    """The prefix tree's leaf for each leaf of ``tree`` (a str/None leaf covers a subtree)."""
    if prefix is None or isinstance(prefix, str):
        return [prefix] * len(tree_flatten(tree)[0])
    p_children, p_aux = flatten_one_level(prefix)
    t_children, t_aux = flatten_one_level(tree)
    if len(p_children) != len(t_children) or type(prefix) is not type(tree):
        raise ValueError(f"symbolic_args_specs: shapes_specs {prefix!r} is not a prefix of the "
                         "arguments' structure")
    return [s for pc, tc in zip(p_children, t_children) for s in _prefix_leaves(pc, tc)]


def default_export_platform() -> str:
    """The platform `export` stages for by default (``"cpu"``, or ``"cuda"`` on a GPU), as
    ``jax.export.default_export_platform``.

    Example::

        >>> default_export_platform() in ("cpu", "cuda")
        True
    """
    return _platform()


class DisabledSafetyCheck:
    """A safety check `export` may skip (JAX's ``jax.export.DisabledSafetyCheck``): fgrad's
    exports run on the platform they were made for and call no custom targets, so the checks
    are accepted and change nothing.

    Example::

        >>> DisabledSafetyCheck.platform()
        DisabledSafetyCheck(platform)
        >>> DisabledSafetyCheck.custom_call("my_target").is_custom_call()
        'my_target'
    """

    def __init__(self, name: str) -> None:
        self._name = name

    @classmethod
    def platform(cls) -> DisabledSafetyCheck:
        """Allow calling on another platform than the exported one."""
        return cls("platform")

    @classmethod
    def custom_call(cls, target_name: str) -> DisabledSafetyCheck:
        """Allow the custom call ``target_name``."""
        return cls(f"custom_call:{target_name}")

    def is_custom_call(self) -> str | None:
        """The custom call's target name, or None."""
        return self._name.split(":", 1)[1] if self._name.startswith("custom_call:") else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DisabledSafetyCheck) and other._name == self._name

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f"DisabledSafetyCheck({self._name})"


def deserialize(blob: bytes | bytearray) -> Exported:
    """Read an `Exported` written by `Exported.serialize` (data only: see the module's
    docstring); a SerializationError for anything else.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> exp = deserialize(export(fgrad.jit(fnp.exp))(0.0).serialize())
        >>> float(exp.call(0.0))
        1.0
    """
    blob = bytes(blob)
    if not blob.startswith(MAGIC) or len(blob) <= len(MAGIC):
        raise SerializationError("fgrad.export.deserialize: not a serialized fgrad Exported "
                                 "(the bytes do not start with b'FGRADEXP')")
    if blob[len(MAGIC)] != FORMAT_VERSION:
        raise SerializationError(f"fgrad.export.deserialize: format version {blob[len(MAGIC)]}, this "
                                 f"fgrad reads version {FORMAT_VERSION}")
    try:
        doc = json.loads(blob[len(MAGIC) + 1:].decode("utf-8"))
        jaxpr, consts = _decode_closed(doc["program"])
        return Exported(str(doc["fun_name"]), _decode_tree(doc["in_tree"]), _decode_tree(doc["out_tree"]),
                        tuple(_decode_aval(a) for a in doc["in_avals"]),
                        tuple(_decode_aval(a) for a in doc["out_avals"]),
                        ClosedJaxpr(jaxpr, [make_on_default_device("asarray", c) for c in consts]),
                        tuple(str(p) for p in doc["platforms"]))
    except SerializationError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, UnicodeDecodeError) as e:
        raise SerializationError(f"fgrad.export.deserialize: malformed serialized Exported ({e!r})") from None


def _platform() -> str:
    from .backends import get_backend
    return "cpu" if get_backend().name in ("cpu", "numpy") else "cuda"


# ---- the format: trees, types, arrays, programs ---------------------------------------------


_LEAF = object()  # the placeholder leaves a tree is rebuilt with to read its structure


def _encode_tree(treedef: Any) -> Any:
    return _encode_structure(tree_unflatten(treedef, [_LEAF] * treedef.num_leaves))


def _encode_structure(node: Any) -> Any:
    if node is _LEAF:
        return "*"
    if node is None:
        return {"none": 0}
    if type(node) is tuple:
        return {"tuple": [_encode_structure(c) for c in node]}
    if type(node) is list:
        return {"list": [_encode_structure(c) for c in node]}
    if type(node) is dict:
        if not all(isinstance(k, str) for k in node):
            raise SerializationError("fgrad.export: only dicts with string keys can be serialized")
        return {"dict": [[k, _encode_structure(v)] for k, v in node.items()]}
    custom = _SERIALIZERS.get(type(node))
    if custom is not None:
        name, serialize_auxdata = custom
        children, aux = flatten_one_level(node)
        if name in _NAMEDTUPLES:
            return {"namedtuple": [name, [_encode_structure(c) for c in children]]}
        data = serialize_auxdata(aux)
        if not isinstance(data, (bytes, bytearray)):
            raise SerializationError(f"fgrad.export: serialize_auxdata of {name!r} returned "
                                     f"{type(data).__name__}, not bytes")
        return {"custom": [name, base64.b64encode(bytes(data)).decode(),
                           [_encode_structure(c) for c in children]]}
    raise SerializationError(f"fgrad.export: a pytree node of type {type(node).__name__} cannot be "
                             "serialized (tuples, lists, dicts with string keys, None and leaves can; "
                             "register other types with register_pytree_node_serialization or "
                             "register_namedtuple_serialization)")


def _decode_tree(doc: Any) -> Any:
    return tree_structure(_decode_structure(doc))


def _decode_structure(doc: Any) -> Any:
    if doc == "*":
        return 0
    (kind, items), = doc.items()
    if kind == "tuple":
        return tuple(_decode_structure(c) for c in items)
    if kind == "list":
        return [_decode_structure(c) for c in items]
    if kind == "dict":
        return {str(k): _decode_structure(v) for k, v in items}
    if kind == "none":
        return None
    if kind in ("custom", "namedtuple"):
        name = str(items[0])
        reader = _DESERIALIZERS.get(name)
        if reader is None:
            raise SerializationError(f"fgrad.export.deserialize: no serialization is registered for the "
                                     f"pytree node {name!r} (register_pytree_node_serialization)")
        nodetype, deserialize_auxdata, from_children = reader
        if kind == "namedtuple":
            return nodetype(*[_decode_structure(c) for c in items[1]])
        aux = deserialize_auxdata(base64.b64decode(items[1], validate=True))
        children = [_decode_structure(c) for c in items[2]]
        if from_children is not None:
            return from_children(aux, children)
        return _registered_unflatten(nodetype)(aux, children)
    raise SerializationError(f"fgrad.export.deserialize: unknown tree node {kind!r}")


# pytree node types registered for serialization: type -> (name, serialize_auxdata) and
# name -> (type, deserialize_auxdata, from_children)
_SERIALIZERS: dict[type, tuple[str, Callable | None]] = {}
_DESERIALIZERS: dict[str, tuple[type, Callable | None, Callable | None]] = {}
_NAMEDTUPLES: set[str] = set()


def _registered_unflatten(nodetype: type) -> Callable:
    from .tree_util import _node_of_type

    node = _node_of_type(nodetype)
    if node is None:
        raise SerializationError(f"fgrad.export.deserialize: {nodetype.__name__} is not a registered "
                                 "pytree node")
    return node.from_iter


def _register_serialization(nodetype: type, name: str, entry: tuple, reader: tuple) -> None:
    if not isinstance(name, str) or not name:
        raise ValueError(f"fgrad.export: serialized_name must be a non-empty string, got {name!r}")
    if name in _DESERIALIZERS:
        raise ValueError(f"fgrad.export: a serialization is already registered for the name {name!r} "
                         f"({_DESERIALIZERS[name][0]})")
    if nodetype in _SERIALIZERS:
        raise ValueError(f"fgrad.export: a serialization is already registered for {nodetype} "
                         f"(as {_SERIALIZERS[nodetype][0]!r})")
    _SERIALIZERS[nodetype] = entry
    _DESERIALIZERS[name] = reader


def register_pytree_node_serialization(nodetype: type, *, serialized_name: str,
                                       serialize_auxdata: Callable[[Any], bytes],
                                       deserialize_auxdata: Callable[[bytes], Any],
                                       from_children: Callable[[Any, Sequence[Any]], Any] | None = None,
                                       ) -> type:
    """Let `Exported.serialize` write trees holding the registered pytree node type
    ``nodetype`` (its auxiliary data as ``serialize_auxdata``'s bytes, read back with
    ``deserialize_auxdata``; the node is rebuilt with ``from_children(aux, children)`` or the
    type's registered unflatten), as ``jax.export.register_pytree_node_serialization``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> class Pair:
        ...     def __init__(self, a, b): self.a, self.b = a, b
        >>> _ = fgrad.tree_util.register_pytree_node(Pair, lambda p: ((p.a, p.b), None),
        ...                                          lambda _, c: Pair(*c))
        >>> name = f"doc.Pair.{id(Pair)}"  # (a name is registered once per process)
        >>> _ = register_pytree_node_serialization(Pair, serialized_name=name,
        ...         serialize_auxdata=lambda aux: b"", deserialize_auxdata=lambda b: None)
        >>> exp = export(fgrad.jit(lambda p: Pair(p.b, p.a)))(Pair(1.0, fnp.ones(2)))
        >>> back = deserialize(exp.serialize()).call(Pair(1.0, fnp.ones(2)))
        >>> type(back).__name__, float(back.b)
        ('Pair', 1.0)
    """
    _register_serialization(nodetype, serialized_name, (serialized_name, serialize_auxdata),
                            (nodetype, deserialize_auxdata, from_children))
    return nodetype


def register_namedtuple_serialization(nodetype: type, *, serialized_name: str) -> type:
    """Let `Exported.serialize` write trees holding the namedtuple type ``nodetype`` (as
    ``jax.export.register_namedtuple_serialization``).

    Example::

        >>> import collections, fgrad, fgrad.numpy as fnp
        >>> Point = collections.namedtuple("Point", "x y")
        >>> _ = register_namedtuple_serialization(Point, serialized_name=f"doc.Point.{id(Point)}")
        >>> exp = export(fgrad.jit(lambda p: p.x + p.y))(Point(1.0, fnp.ones(2)))
        >>> deserialize(exp.serialize()).in_tree == exp.in_tree
        True
    """
    if not (issubclass(nodetype, tuple) and hasattr(nodetype, "_fields")):
        raise ValueError(f"fgrad.export.register_namedtuple_serialization: {nodetype} is not a namedtuple")
    _register_serialization(nodetype, serialized_name, (serialized_name, None), (nodetype, None, None))
    _NAMEDTUPLES.add(serialized_name)
    return nodetype


def _dtype(name: str) -> np.dtype:
    if hasattr(ml_dtypes, name) and isinstance(getattr(ml_dtypes, name), type):
        return np.dtype(getattr(ml_dtypes, name))
    dt = np.dtype(name)
    if dt.kind not in "biufc":
        raise SerializationError(f"fgrad.export.deserialize: unsupported dtype {name!r}")
    return dt


def _encode_aval(a: Any) -> list:
    return [list(a.shape), np.dtype(a.dtype).name, bool(getattr(a, "weak_type", False))]


def _decode_aval(doc: list) -> ShapedArray:
    shape, dtype, weak = doc
    return ShapedArray(tuple(int(n) for n in shape), _dtype(dtype), bool(weak))


def _encode_array(x: Any) -> dict:
    arr = np.array(_host(x), order="C")  # (ascontiguousarray makes a 0-d array 1-d)
    return {"array": base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode(),
            "dtype": arr.dtype.name, "shape": list(arr.shape)}


def _decode_array(doc: dict) -> np.ndarray:
    dt = _dtype(doc["dtype"])
    shape = tuple(int(n) for n in doc["shape"])
    data = base64.b64decode(doc["array"], validate=True)
    if len(data) != int(np.prod(shape, dtype=np.int64)) * dt.itemsize:
        raise SerializationError("fgrad.export.deserialize: an array's bytes do not match its shape")
    return np.frombuffer(data, dtype=dt.newbyteorder("<")).astype(dt).reshape(shape)


def _host(x: Any) -> np.ndarray:
    from .backends import to_host
    return np.asarray(to_host(x._buf if isinstance(x, ArrayImpl) else x))


def _encode_closed(jaxpr: Jaxpr, consts: list) -> dict:
    return {"jaxpr": _encode_jaxpr(jaxpr), "consts": [_encode_array(c) for c in consts]}


def _decode_closed(doc: dict) -> tuple[Jaxpr, list]:
    return _decode_jaxpr(doc["jaxpr"]), [_decode_array(c) for c in doc["consts"]]


_RULES_WRITTEN: list = []  # deferred custom_jvp rules being written (a rule calling its function)


def _encode_jaxpr(jaxpr: Jaxpr) -> dict:
    ids: dict[int, int] = {}

    def define(v: Var) -> list:
        ids[id(v)] = len(ids)
        return _encode_aval(v.aval)

    def use(v: Any) -> Any:
        if type(v) is Literal:
            return {"lit": _encode_param(v.val), "aval": _encode_aval(v.aval)}
        return ids[id(v)]

    doc: dict[str, Any] = {"constvars": [define(v) for v in jaxpr.constvars],
                           "invars": [define(v) for v in jaxpr.invars], "eqns": []}
    for e in jaxpr.eqns:
        name, invars, params = e.prim.name, e.invars, e.params
        key = rule_key(params) if name == "custom_jvp_call" else None
        if key is not None and not any(k is key for k in _RULES_WRITTEN):
            # a rule JAX-like deferred until differentiation: traced now, so it is written
            nf, nj = params["n_fun_consts"], params["n_jvp_consts"]
            traced = materialize_rule(params, [v.aval for v in invars[nf + nj:]])
            if traced is not None:
                _RULES_WRITTEN.append(key)
                try:
                    enc = {k: _encode_param(v) for k, v in traced.items()}
                finally:
                    _RULES_WRITTEN.pop()
                doc["eqns"].append({"prim": name, "in": [use(v) for v in invars], "params": enc,
                                    "out": [define(v) for v in e.outvars]})
                continue
        if name == "custom_vjp_call" and params["lazy_vjp"] is not None:
            # rules JAX-like deferred until differentiation: traced now, so they are written
            traced = materialize_vjp_rules(params, [v.aval for v in invars[sum(params["n_consts"]):]])
            if traced is None:
                raise SerializationError(
                    "fgrad.export: the custom_vjp rules of "
                    f"{params['fun'].name} cannot be written: they keep residuals that are not "
                    "arrays, or reach a traced value. Return arrays as residuals.")
            params = traced
        if name == "custom_jvp_call" and params["lazy_jvp"] is not None:
            # a custom_jvp function called inside its own rule holds the rule as a Python
            # function: written as a call of its primal program (its derivative -- needed for
            # second derivatives through the rule only -- is then the program's own)
            nf, nj = params["n_fun_consts"], params["n_jvp_consts"]
            name, invars, params = "jit", invars[:nf] + invars[nf + nj:], {"closed": params["fun"]}
        ins = [use(v) for v in invars]
        enc = {k: _encode_param(v) for k, v in params.items()}
        doc["eqns"].append({"prim": name, "in": ins, "params": enc, "out": [define(v) for v in e.outvars]})
    doc["outvars"] = [use(v) for v in jaxpr.outvars]
    return doc


def _decode_jaxpr(doc: dict) -> Jaxpr:
    env: list[Var] = []

    def define(aval_doc: list) -> Var:
        v = Var(_decode_aval(aval_doc))
        env.append(v)
        return v

    def use(ref: Any) -> Any:
        if isinstance(ref, dict):
            return Literal(_decode_param(ref["lit"]), _decode_aval(ref["aval"]))
        return env[int(ref)]

    constvars = [define(a) for a in doc["constvars"]]
    invars = [define(a) for a in doc["invars"]]
    eqns = []
    for e in doc["eqns"]:
        prim = PRIMITIVES.get(e["prim"])
        if prim is None:
            raise SerializationError(f"fgrad.export.deserialize: unknown primitive {e['prim']!r}")
        ins = [use(r) for r in e["in"]]
        params = {str(k): _decode_param(v) for k, v in e["params"].items()}
        eqns.append(Eqn(prim, ins, [define(a) for a in e["out"]], params))
    return Jaxpr(constvars, invars, eqns, [use(r) for r in doc["outvars"]])


def _encode_param(v: Any) -> Any:
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, np.generic):  # before int/float: np.float64 is a float, its repr no number
        return {"value": _encode_array(v)}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, complex):
        return {"complex": [repr(v.real), repr(v.imag)]}
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        return {"dtype": np.dtype(v).name}
    if isinstance(v, (np.generic, np.ndarray, ArrayImpl)):
        return {"value": _encode_array(v)}
    if type(v) is tuple:
        return {"tuple": [_encode_param(x) for x in v]}
    if type(v) is list:
        return {"list": [_encode_param(x) for x in v]}
    if isinstance(v, Branch):
        return {"branch": _encode_jaxpr(v.jaxpr), "n_consts": v.n_consts}
    if isinstance(v, ClosedJaxpr):
        return {"closed": _encode_closed(v.jaxpr, v.consts)}
    if isinstance(v, Closed):  # a nested jit's program
        return {"jit": _encode_closed(v.jaxpr, v.consts), "name": v.name,
                "out_tree": None if v.out_tree is None else _encode_tree(v.out_tree)}
    if isinstance(v, Jaxpr):
        return {"jaxpr": _encode_jaxpr(v)}
    raise SerializationError(
        f"fgrad.export: cannot serialize a parameter of type {type(v).__name__} ({v!r}); only data "
        "(numbers, strings, dtypes, arrays, tuples, programs) can be written -- a program with a "
        "Python callback or a custom rule's function is not serializable")


def _decode_param(doc: Any) -> Any:
    if doc is None or isinstance(doc, (bool, str)):
        return doc
    if not isinstance(doc, dict) or len(doc) not in (1, 2, 3):
        raise SerializationError(f"fgrad.export.deserialize: malformed parameter {doc!r}")
    kind = next(iter(doc))
    if kind == "int":
        return int(doc["int"])
    if kind == "float":
        return float(doc["float"])
    if kind == "complex":
        re, im = doc["complex"]
        return complex(float(re), float(im))
    if kind == "dtype":
        return _dtype(doc["dtype"])
    if kind == "value":
        arr = _decode_array(doc["value"])
        return arr[()] if arr.shape == () else arr
    if kind == "tuple":
        return tuple(_decode_param(x) for x in doc["tuple"])
    if kind == "list":
        return [_decode_param(x) for x in doc["list"]]
    if kind == "branch":
        return Branch(_decode_jaxpr(doc["branch"]), int(doc["n_consts"]))
    if kind == "closed":
        return ClosedJaxpr(*_decode_closed(doc["closed"]))
    if kind == "jit":
        tree = doc.get("out_tree")
        return Closed(*_decode_closed(doc["jit"]), None if tree is None else _decode_tree(tree),
                      str(doc.get("name", "jit")))
    if kind == "jaxpr":
        return _decode_jaxpr(doc["jaxpr"])
    raise SerializationError(f"fgrad.export.deserialize: unknown kind of parameter {kind!r}")
