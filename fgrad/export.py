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
import json
from typing import Any, Callable

import ml_dtypes
import numpy as np

from .core.array import ArrayImpl, ShapedArray, Tracer, get_aval, wrap
from .core.constants import make_on_default_device
from .core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal, Var, eval_jaxpr
from .core.primitive import PRIMITIVES
from .ops.control_flow import Branch
from .transforms.jit_primitive import Closed
from .tree_util import tree_flatten, tree_structure, tree_unflatten

__all__ = ["Exported", "deserialize", "export", "SerializationError"]

MAGIC = b"FGRADEXP"
FORMAT_VERSION = 1
# JAX's calling convention version of the release fgrad follows (an attribute programs print)
CALLING_CONVENTION_VERSION = 10


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
                 program: ClosedJaxpr, platforms: tuple = ("cpu",)) -> None:
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
        return str(self._program)

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
        leaves, tree = tree_flatten((args, kwargs))
        if tree != self.in_tree:
            raise ValueError(f"Exported.call of {self.fun_name!r}: the arguments have structure {tree}, "
                             f"the function was exported for {self.in_tree}")
        for i, (x, want) in enumerate(zip(leaves, self.in_avals)):
            got = get_aval(x)
            weak_scalar = isinstance(x, (bool, int, float, complex)) and not want.shape
            if tuple(got.shape) != tuple(want.shape) or (got.dtype != want.dtype and not weak_scalar):
                raise ValueError(
                    f"Exported.call of {self.fun_name!r}: argument {i} has type "
                    f"{got.dtype}{list(got.shape)}, the function was exported for "
                    f"{want.dtype}{list(want.shape)}")
        consts = [c if isinstance(c, (ArrayImpl, Tracer)) else wrap(c) for c in self._program.consts]
        outs = eval_jaxpr(self._program.jaxpr, consts, leaves)
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
    if platforms is not None and tuple(platforms) not in (("cpu",), ("cuda",)):
        raise NotImplementedError(f"fgrad.export.export: platforms={platforms!r}; fgrad exports for the "
                                  "platform it runs on only")

    def do_export(*args: Any, **kwargs: Any) -> Exported:
        lowered = fun_jit.lower(*args, **kwargs)
        closed = lowered._entry.closed
        program = ClosedJaxpr(closed.jaxpr, closed.consts)
        in_avals = tuple(ShapedArray(v.aval.shape, v.aval.dtype) for v in closed.jaxpr.invars)
        out_avals = tuple(ShapedArray(v.aval.shape, v.aval.dtype) for v in closed.jaxpr.outvars)
        return Exported(lowered._fname, lowered.in_tree, closed.out_tree, in_avals, out_avals, program,
                        tuple(platforms) if platforms is not None else (_platform(),))

    return do_export


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
    raise SerializationError(f"fgrad.export: a pytree node of type {type(node).__name__} cannot be "
                             "serialized (tuples, lists, dicts with string keys, None and leaves can)")


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
    raise SerializationError(f"fgrad.export.deserialize: unknown tree node {kind!r}")


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
