"""The result-dtype sweep of the functional face against JAX: every public function of
``numpy``, ``numpy.linalg``, ``numpy.fft``, ``scipy.special`` and ``nn``, and the unary math
of ``lax``, called on a 3x3 array of each input dtype (one argument, or the array twice where
the function needs two), with 64-bit types on and off.  The same code runs with JAX's modules
(``tools/make_jax_dtype_table.py`` writes ``tests/stored/jax_dtypes.json``) and with
fgrad's (``tests/test_jax_dtype_sweep.py``).

A result is the list of the dtype names of the output's array leaves (a Python scalar leaf
gives its type's name), or ``"error"`` where the call raises.
"""

from __future__ import annotations

import json

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64"]

# the values: a symmetric positive definite matrix (linalg), in (0, 1] (arcsin, log, ...)
BASE = np.array([[4.0, 1.0, 1.0], [1.0, 3.0, 1.0], [1.0, 1.0, 2.0]])

# public names that are not functions of arrays, or that read/write files, print, or build
# other functions: not swept
SKIP = {
    "numpy": {"load", "save", "savez", "fromfile", "fromstring", "frombuffer", "genfromtxt", "loadtxt",
              "savetxt", "printoptions", "set_printoptions", "get_printoptions", "vectorize",
              "frompyfunc", "piecewise", "apply_along_axis", "apply_over_axes", "from_dlpack",
              "fromfunction", "fromiter", "ufunc", "iterable", "isdtype", "issubdtype", "dtype",
              "result_type", "promote_types", "can_cast", "finfo", "iinfo", "ndarray", "generic",
              "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
              "complexfloating", "character", "flexible", "object_", "bool", "bool_", "int_", "uint",
              "float_", "complex_", "single", "double", "csingle", "cdouble", "str_", "bytes_",
              "void", "dtypes", "broadcast_shapes", "isscalar", "array_repr",
              "array_str", "show_config", "einsum_path", "ix_", "mgrid", "ogrid", "r_", "c_",
              "s_", "index_exp", "nditer", "memmap", "save_npz", "error_handling", "unravel_index",
              "ravel_multi_index", "indices", "tri", "eye", "identity", "empty", "zeros", "ones",
              "full", "arange", "linspace", "logspace", "geomspace", "tril_indices",
              "triu_indices", "mask_indices", "diag_indices", "hamming", "hanning", "bartlett",
              "blackman", "kaiser", "array_api", "fft", "linalg"} | set(DTYPES)
                   | {"complex128", "float8_e4m3fn"},
    "linalg": set(),
    "fft": {"fftfreq", "rfftfreq"},
    "special": set(),
    "lax": set(),
    "nn": {"initializers", "get_scaled_dot_general_config", "scaled_dot_general", "scaled_matmul",
           "dot_product_attention", "one_hot"},
}

# the unary math of lax (JAX's lax takes no integers here: those entries record errors)
LAX_UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh",
             "digamma", "erf", "erf_inv", "erfc", "exp", "exp2", "expm1", "floor", "imag", "is_finite",
             "lgamma", "log", "log1p", "logistic", "neg", "real", "round", "rsqrt", "sign", "sin",
             "sinh", "sqrt", "square", "tan", "tanh", "bessel_i0e", "bessel_i1e", "conj", "population_count",
             "clz", "bitwise_not"]


def public_names(module, group: str) -> list[str]:
    """The names of ``module`` swept in ``group``: its public callables, less `SKIP`."""
    if group == "lax":
        return [n for n in LAX_UNARY if hasattr(module, n)]
    out = []
    for n in dir(module):
        if n.startswith("_") or n in SKIP[group] or n[0].isupper():
            continue
        f = getattr(module, n)
        if callable(f) and not isinstance(f, type) and not n.endswith("_p"):
            out.append(n)
    return sorted(out)


def make_input(asarray, dtype: str, bfloat16):
    """The swept input of ``dtype`` (made by the library's ``asarray``)."""
    dt = bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    if dtype == "bool":
        host = BASE > 1.5
    elif dtype.startswith("complex"):
        host = (BASE + 0.5j * BASE.T).astype(dt)
    else:
        host = BASE.astype(dt)
    return asarray(host)


def describe(out, leaves) -> list[str]:
    """The dtype names of ``out``'s leaves (``leaves`` is the library's tree flattener)."""
    names = []
    for leaf in leaves(out):
        dt = getattr(leaf, "dtype", None)
        names.append(np.dtype(dt).name if dt is not None else type(leaf).__name__)
    return names


def call(f, x, arity: int):
    return f(x) if arity == 1 else f(x, x)


def result(f, x, arity: int, leaves):
    """`describe` of ``f`` on ``x`` (``arity`` copies), or ``"error"``."""
    try:
        return describe(call(f, x, arity), leaves)
    except Exception:  # noqa: BLE001 - any failure is recorded as such
        return "error"


# expressions (``jnp``, ``lax``, ``jax``, ``np`` bound to the library's modules) whose result
# types must be JAX's in both x64 modes: weakly typed Python scalars meeting arrays, loop
# carries, and the auxiliary outputs of the reverse-mode transforms (returned as they are)
_AUX = "lambda x: (jnp.sum(x * x), {aux})"
_AUX_VALUES = ["1.5", "3", "True", "np.float32(2)", "np.int8(2)", "np.ones(2, np.int16)", "None",
               "{'a': 1, 'b': [2.0, x]}", "x.astype(jnp.int8)"]
EXPRESSIONS = [
    "jnp.ones(3, jnp.int8) + 1", "jnp.ones(3, jnp.int8) * 2.5", "jnp.ones(3, jnp.float32) * 2.0",
    "jnp.ones(3, jnp.float16) + 1.0", "jnp.ones(3, jnp.uint8) - 1", "jnp.float32(1) + 1.0",
    "jnp.float32(1) + 1", "jnp.int8(1) + 1", "jnp.int16(3) * 2.0", "1.0 + jnp.float16(2)",
    "jnp.where(jnp.asarray([True, False]), jnp.ones(2, jnp.float32), 0.0)",
    "jnp.where(jnp.asarray([True, False]), jnp.ones(2, jnp.int8), 0)",
    "jnp.where(jnp.asarray([True, False]), jnp.ones(2, jnp.int8), 0.5)",
    "jnp.where(jnp.asarray([True, False]), 1.0, 0.0)",
    "jnp.ones(3, jnp.int8) / 2", "jnp.ones(3, jnp.int32) / 2", "jnp.ones(3, jnp.bool_) / 2",
    "jnp.ones(3, jnp.int16) / jnp.ones(3, jnp.int16)", "jnp.mean(jnp.ones(3, jnp.uint8))",
    "jnp.mean(jnp.ones(3, jnp.bool_))", "jnp.sin(jnp.ones(3, jnp.int8))", "jnp.sin(2)", "jnp.sqrt(4)",
    "jnp.exp(jnp.asarray(1))", "jnp.ones(3, jnp.int8) ** 2", "jnp.ones(3, jnp.bool_) ** 2",
    "jnp.ones(3, jnp.int8) // 2", "jnp.ones(3, jnp.bool_) % True", "jnp.square(jnp.ones(3, jnp.bool_))",
    "lax.fori_loop(0, 3, lambda i, c: c + 1.0, 0.0)",
    "lax.fori_loop(0, 3, lambda i, c: c + i, 0)",
    "lax.fori_loop(0, 3, lambda i, c: c * 2.0, jnp.ones(2, jnp.float32))",
    "lax.fori_loop(0, 3, lambda i, c: c + 1, jnp.ones(2, jnp.int8))",
    "lax.fori_loop(0, 3, lambda i, c: c + i, jnp.ones(2, jnp.int8))",
    "lax.fori_loop(0, 3, lambda i, c: c + i, jnp.ones(2, jnp.float32))",
    "lax.fori_loop(np.int32(0), 3, lambda i, c: c + i, 0)",
    "jnp.ones(3, jnp.bool_) ** jnp.ones(3, jnp.bool_)", "jnp.ones(3, jnp.float32) ** 2",
    "jnp.ones(3, jnp.int8) ** 2.0", "jnp.ones(3, jnp.bool_) % 2",
    "lax.fori_loop(0, 3, lambda i, c: (c[0] + 1.0, c[1] + i), (jnp.float32(0), 0))",
    "jax.jit(lambda x: x / 2)(jnp.ones(3, jnp.int8))", "jax.jit(jnp.sin)(jnp.ones(3, jnp.int16))",
    "jax.vmap(jnp.mean)(jnp.ones((2, 3), jnp.int8))",
    *[f"jax.grad({_AUX.format(aux=a)}, has_aux=True)(jnp.ones(2, jnp.float32))[1]" for a in _AUX_VALUES],
    *[f"jax.value_and_grad({_AUX.format(aux=a)}, has_aux=True)(jnp.ones(2, jnp.float32))[0][1]"
      for a in _AUX_VALUES[:5]],
    *[f"jax.jit(jax.grad({_AUX.format(aux=a)}, has_aux=True))(jnp.ones(2, jnp.float32))[1]"
      for a in _AUX_VALUES[:5]],
    *[f"jax.vjp({_AUX.format(aux=a)}, jnp.ones(2, jnp.float32), has_aux=True)[2]" for a in _AUX_VALUES[:5]],
    *[f"jax.{t}({_AUX.format(aux=a)}, has_aux=True)(jnp.ones(2, jnp.float32))[1]"
      for t in ("jacrev", "jacfwd") for a in _AUX_VALUES[:5]],
]


def describe_leaves(out, leaves) -> list[str]:
    """Each leaf of ``out`` as ``"Array:dtype"`` (``":weak"`` appended when weakly typed) for
    the library's arrays, ``"ndarray:dtype"`` / ``"<numpy scalar type>"`` for NumPy values, the
    type's name for Python values."""
    out_names = []
    for leaf in leaves(out):
        if isinstance(leaf, (np.ndarray, np.generic)):
            out_names.append(f"{type(leaf).__name__}:{leaf.dtype.name}")
        elif hasattr(leaf, "dtype") and hasattr(leaf, "shape"):
            weak = ":weak" if getattr(leaf, "weak_type", False) else ""
            out_names.append(f"Array:{np.dtype(leaf.dtype).name}{weak}")
        else:
            out_names.append(type(leaf).__name__)
    return out_names


def evaluate(expr: str, names: dict, leaves):
    """`describe_leaves` of ``expr``'s value, or ``"error"``."""
    try:
        return describe_leaves(eval(expr, dict(names)), leaves)  # noqa: S307 - the expressions above
    except Exception:  # noqa: BLE001 - any failure is recorded as such
        return "error"


def encode_row(row: dict) -> list[str]:
    """A stored row: one string per dtype of `DTYPES` (``"error"``, or the dtype names joined
    by commas)."""
    return [r if r == "error" else ",".join(r) for r in (row[dt] for dt in DTYPES)]


def decode_row(stored: list[str]) -> dict:
    """The row `encode_row` stored, as `result` gives it."""
    return {dt: s if s == "error" else (s.split(",") if s else [])
            for dt, s in zip(DTYPES, stored, strict=True)}


def dump_table(table: dict) -> str:
    """The stored table's text: one function (or expression) a line."""
    lines = ['{"jax": ' + json.dumps(table["jax"]) + ', "dtypes": ' + json.dumps(DTYPES) + ', "cases": {']
    lines += [f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))},"
              for k, v in sorted(table["cases"].items())]
    lines[-1] = lines[-1].rstrip(",")
    lines.append('}, "expressions": {')
    lines += [f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))},"
              for k, v in sorted(table["expressions"].items())]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("}}")
    return "\n".join(lines) + "\n"
