"""The expressions whose dtype and weak type fgrad must share with JAX (x64 on): every
strong dtype against every kind of weak value, under the operations that promote, eagerly
and under ``jit``; plus the creation functions, reductions and casts.  Each expression is
evaluated with ``jnp``/``lax``/``jax`` bound to JAX's modules (``tools/make_weak_type_table.py``)
or fgrad's (``tests/test_weak_types.py``)."""

from __future__ import annotations

STRONG = ["bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
WEAK = ["1", "2.5", "1j", "jnp.asarray(1)", "jnp.asarray(2.5)", "jnp.asarray(1j)",
        "(1 - jnp.asarray(True))", "(jnp.ones(2, 'int32') * 1.5)"]
BINARY = ["{a} + {w}", "{w} * {a}", "jnp.maximum({a}, {w})",
          "jnp.where(jnp.asarray([True, False]), {a}, {w})", "({a} == {w})",
          "jax.jit(lambda a: a - {w})({a})"]


def grid_cases() -> list[str]:
    out = []
    for d in STRONG:
        a = f"jnp.ones(2, '{d}')"
        for w in WEAK:
            for b in BINARY:
                out.append(b.format(a=a, w=w))
    return out


def weak_weak_cases() -> list[str]:
    python = {"1", "2.5", "1j"}
    return [f"({x}) + ({y})" for x in WEAK for y in WEAK if not (x in python and y in python)]


OTHER = [
    "jnp.asarray(1)", "jnp.asarray(1.0)", "jnp.array(0.9)", "jnp.asarray(1j)", "jnp.asarray(True)",
    "jnp.asarray(np.float64(0.9))", "jnp.asarray([1.0])", "jnp.asarray(1.0, jnp.float32)",
    "jnp.full(2, 3)", "jnp.full(2, 3.0, jnp.float64)", "jnp.zeros(2)", "jnp.zeros_like(jnp.asarray(1.0))",
    "jnp.ones_like(jnp.asarray(1))", "jnp.full_like(jnp.asarray(1.0), 2)",
    "jnp.asarray(1.0).astype(jnp.float64)", "jnp.asarray(1).astype(jnp.float32)",
    "jnp.sum(jnp.full(3, 2.0))", "jnp.max(jnp.full(3, 2.0))", "jnp.mean(jnp.full(3, 2.0))",
    "jnp.cumsum(jnp.full(3, 2.0))", "jnp.prod(jnp.full(3, 2))",
    "jnp.full(3, 2.0).T", "jnp.full(3, 2.0)[1:]", "jnp.full(3, 2.0).reshape(3, 1)",
    "jnp.concatenate([jnp.full(3, 2.0), jnp.full(3, 2.0)])",
    "jnp.concatenate([jnp.full(3, 2.0), jnp.ones(3)])", "jnp.sin(jnp.asarray(1))", "jnp.sin(1.0)",
    "jnp.exp(jnp.full(3, 2.0))", "jnp.sqrt(2.0)", "jnp.isnan(jnp.asarray(1.0))", "-jnp.asarray(1)",
    "jnp.asarray(1) // 2", "jnp.asarray(1) / 2", "jnp.asarray(True) & True", "jnp.abs(jnp.asarray(1j))",
    "jnp.dot(jnp.full(3, 2.0), jnp.full(3, 2.0))", "jnp.dot(jnp.full(3, 2.0), jnp.ones(3, 'float32'))",
    "jnp.clip(jnp.full(3, 2.0), 0, 1)", "jnp.full(3, 2.0).at[0].set(1.0)",
    "jax.jit(lambda x: x * 2)(1.0)", "jax.jit(lambda x: x * 2)(jnp.asarray(1.0))",
    "jax.jit(lambda x: x * 2)(jnp.ones(2))", "jax.jit(lambda x: jnp.sum(x))(jnp.full(3, 2.0))",
    "jax.vmap(lambda x: x * 2)(jnp.full(3, 2.0))",
    "jax.lax.fori_loop(0, 3, lambda i, c: c + i, 0.0)",
    "jax.lax.fori_loop(0, 3, lambda i, c: c + i, jnp.ones(3, jnp.float32))",
    "lax.while_loop(lambda c: c < 3, lambda c: c + 0.5, jnp.asarray(0))",
    "lax.cond(True, lambda: jnp.asarray(1.0), lambda: jnp.asarray(2.0))",
    "lax.cond(True, lambda: jnp.asarray(1.0), lambda: jnp.float64(2.0))",
    "lax.cond(True, lambda: jnp.asarray(1), lambda: jnp.int32(2))",
    "jnp.float32(2.0)", "jnp.float32(jnp.asarray(2))", "jnp.int32(3)", "jnp.bool_(1)",
    "jax.jit(lambda x: jnp.float32(x))(jnp.asarray(2.0))", "jax.jit(lambda x: jnp.bool_(x))(jnp.ones(2))",
    "jax.jit(lambda x: jnp.int32(x))(2.5)",
    "jax.grad(lambda x: jnp.float32(x) * 2)(jnp.float32(1.0))",
    "jax.vmap(lambda x: jnp.int16(x))(jnp.arange(3.0))",
    "jnp.float16(2) * 3",
    "lax.convert_element_type(jnp.asarray(1.0), jnp.float32)",
    "(1 - jnp.asarray(True)) * jnp.int32(3)", "jnp.ones(2, jnp.int32) * (1 - jnp.asarray([True, False]))",
]


def all_cases() -> list[str]:
    return grid_cases() + weak_weak_cases() + OTHER
