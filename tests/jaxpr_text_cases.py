"""Functions from JAX's documentation ("Understanding jaxprs", "Thinking in JAX", the jit,
control-flow, custom_jvp and autodiff tutorials) whose printed jaxprs fgrad must print as
JAX 0.10.2 does.  Written against ``jax``/``jnp``/``lax`` passed in, so the same source runs
on JAX (to generate the expected text: ``python tests/jaxpr_text_cases.py``) and on fgrad
(tests/test_jaxpr_text.py).

``cases(jax, jnp, lax)`` returns ``{name: (function, args)}``; ``make_jaxpr(function)(*args)``
is printed.
"""

from __future__ import annotations

import json
import subprocess
import sys


def cases(jax, jnp, lax) -> dict:
    out = {}

    def case(*args):
        def register(fn):
            out[fn.__name__] = (fn, args)
            return fn
        return register

    m34 = jnp.ones((3, 4))
    v3 = jnp.arange(3.0)
    m23 = jnp.ones((2, 3))

    # "Understanding jaxprs" / jaxpr docs
    @case(m34, m34)
    def issue_example(x, y):
        return jnp.sum(jnp.dot(jnp.sin(x) * y, y.T)) + 2.0

    @case(jnp.ones(8))
    def func1(first):
        temp = first + jnp.sin(first) * 3.0
        return jnp.sum(temp)

    @case(v3, 1.0)
    def func_scalar_arg(x, y):
        return x * y + 1.0

    @case(v3)
    def closes_over_python_float(x):
        return x * 2.0 + 4.0

    @case(v3, v3)
    def two_outputs(x, y):
        return x + y, x - y

    @case(5.0)
    def selu_like(x):
        return jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)

    # "Thinking in JAX" / jit tutorial
    @case(v3)
    def log2(x):
        return jnp.log(x) / jnp.log(2.0)

    @case(v3)
    def norm_like(x):
        return jnp.sqrt(jnp.sum(x * x))

    @case(m23)
    def reshape_transpose(x):
        return jnp.reshape(x, (3, 2)).T

    @case(m23, m23)
    def elementwise_chain(x, y):
        return jnp.exp(x) * jnp.cos(y) - jnp.tanh(x) / 2.0

    @case(v3)
    def neg_abs_sign(x):
        return -jnp.abs(x) + jnp.sign(x)

    @case(v3, v3)
    def max_min(x, y):
        return jnp.maximum(x, y) - jnp.minimum(x, y)

    @case(v3)
    def jitted_inner(x):
        return jax.jit(lambda y: jnp.sin(y) * 2.0)(x)

    @case(m34)
    def jit_tanh_mean(x):
        return jax.jit(lambda x: jnp.tanh(x).sum())(x)

    @case(m34)
    def reductions(x):
        return jnp.max(x, axis=0), jnp.min(x, axis=1), jnp.sum(x, axis=(0, 1))

    @case(m23)
    def expand_and_broadcast(x):
        return x[None] + jnp.ones((4, 2, 3))

    @case(v3, v3)
    def dot_vectors(x, y):
        return jnp.dot(x, y)

    @case(m34, jnp.ones((4, 5)))
    def matmul(a, b):
        return a @ b

    @case(jnp.ones((2, 3, 4)), jnp.ones((2, 4, 5)))
    def batched_matmul(a, b):
        return jnp.matmul(a, b)

    @case(v3)
    def square_pow(x):
        return x ** 2

    @case(v3)
    def cube_pow(x):
        return lax.integer_pow(x, 3)

    @case(v3)
    def logistic(x):
        return lax.logistic(x)

    @case(v3)
    def rsqrt_log1p(x):
        return lax.rsqrt(x) + jnp.log1p(x) + jnp.expm1(x)

    @case(v3, v3)
    def comparisons(x, y):
        return (x < y) & (x >= 1.0)

    @case(v3)
    def stop_grad(x):
        return lax.stop_gradient(x) * x

    @case(v3, v3)
    def atan2_rem(x, y):
        return jnp.arctan2(x, y) + lax.rem(x, y)

    @case(m34)
    def transpose_only(x):
        return jnp.transpose(x)

    @case(v3)
    def floor_ceil_round(x):
        return jnp.floor(x) + jnp.ceil(x)

    @case(v3)
    def sin_cos_tan(x):
        return jnp.sin(x) + jnp.cos(x) + jnp.tan(x)

    # autodiff tutorial
    @case(2.0)
    def grad_tanh(x):
        return jax.grad(jnp.tanh)(x)

    @case(2.0)
    def grad_sin_times_x(x):
        return jax.grad(lambda x: jnp.sin(x) * x)(x)

    @case(2.0)
    def grad_exp(x):
        return jax.grad(jnp.exp)(x)

    @case(2.0)
    def grad_log(x):
        return jax.grad(jnp.log)(x)

    @case(2.0)
    def grad_square(x):
        return jax.grad(lambda x: x * x)(x)

    @case(2.0, 3.0)
    def grad_of_product(x, y):
        return jax.grad(lambda a, b: a * b + a)(x, y)

    @case(2.0)
    def value_and_grad_cos(x):
        return jax.value_and_grad(jnp.cos)(x)

    @case(2.0)
    def jvp_sin(x):
        return jax.jvp(jnp.sin, (x,), (1.0,))

    @case(2.0)
    def grad_of_grad_sin(x):
        return jax.grad(jax.grad(jnp.sin))(x)

    # vmap
    @case(m23, v3)
    def vmap_dot(xs, w):
        return jax.vmap(lambda x: jnp.dot(x, w))(xs)

    @case(m23)
    def vmap_sin_sum(xs):
        return jax.vmap(lambda x: jnp.sum(jnp.sin(x)))(xs)

    @case(m23, m23)
    def vmap_add(xs, ys):
        return jax.vmap(lambda x, y: x * y + 1.0)(xs, ys)

    # control flow tutorial
    @case(5.0)
    def cond_scalar(x):
        return lax.cond(x > 0.0, lambda x: x * 2.0, lambda x: x - 1.0, x)

    @case(v3)
    def scan_cumsum(xs):
        return lax.scan(lambda c, x: (c + x, c * x), 0.0, xs)

    @case(v3)
    def cumsum(x):
        return jnp.cumsum(x)

    # custom_jvp tutorial
    @jax.custom_jvp
    def log1pexp(x):
        return jnp.log(1.0 + jnp.exp(x))

    @log1pexp.defjvp
    def log1pexp_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return log1pexp(x), t * (1.0 - 1.0 / (1.0 + jnp.exp(x)))

    @case(3.0)
    def custom_jvp_call(x):
        return log1pexp(x)

    # conversions
    @case(v3)
    def astype_f32(x):
        return x.astype(jnp.float32) * 2.0

    @case(jnp.arange(3))
    def int_ops(i):
        return i * 2 + 1

    # lax primitives the tutorials call directly
    @case(m23)
    def reduce_prod(x):
        return lax.reduce_prod(x, (0,))

    @case(m23)
    def argmax_axis0(x):
        return jnp.argmax(x, axis=0)

    @case(m23)
    def argmin_int32(x):
        return lax.argmin(x, 1, jnp.int32)

    @case(m23)
    def lax_cumsum(x):
        return lax.cumsum(x, 0)

    @case(m23)
    def cummax_cumprod(x):
        return lax.cummax(x, 0) + lax.cumprod(x, 1, reverse=True)

    @case(m23)
    def sort_last(x):
        return lax.sort(x)

    @case(m23)
    def sort_two_operands(x):
        return lax.sort((x, x * 2.0), num_keys=1)

    @case(m23)
    def concatenate(x):
        return lax.concatenate([x, x], 0)

    @case(m23)
    def pad(x):
        return lax.pad(x, 0.0, [(1, 0, 0), (0, 1, 0)])

    @case(v3)
    def broadcast_in_dim(v):
        return lax.broadcast_in_dim(v, (2, 3), (1,))

    @case(m23)
    def exp2_pow(x):
        return lax.exp2(x) + lax.pow(x, x)

    @case(m23)
    def all_positive(x):
        return lax.reduce_and(x > 0, (0,))

    @case(m23)
    def rev(x):
        return lax.rev(x, (0,))

    @case(m23)
    def to_int32(x):
        return lax.convert_element_type(x, jnp.int32)

    @case(m23)
    def reduce_precision(x):
        return lax.reduce_precision(x, 8, 7)

    @case(v3)
    def while_doubling(x):
        return lax.while_loop(lambda x: jnp.sum(x) < 100.0, lambda x: x * 2.0, x)

    @case(m23)
    def jit_of_reductions(x):
        return jax.jit(lambda x: (jnp.max(x), jnp.min(x, axis=0)))(x)

    @jax.custom_vjp
    def clip_gradient(x):
        return x

    def clip_gradient_fwd(x):
        return x, None

    def clip_gradient_bwd(_, g):
        return (jnp.clip(g, -1.0, 1.0),)

    clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)

    @case(v3)
    def custom_vjp_call(x):
        return clip_gradient(x) * 2.0

    inner = jax.jit(lambda x: jnp.sin(x) + 1.0)

    @case(v3)
    def same_jit_twice(x):  # one program used twice: printed once, as `let lambda = ...`
        return inner(x) * inner(x)

    def six_sines(x):
        for _ in range(6):
            x = jnp.sin(x) * 2.0
        return x

    @case(v3)
    def jit_of_long_function(x):  # a nested program of more than 10 equations: shared
        return jax.jit(six_sines)(x)

    @case(v3)
    def jit_static_argnums(x):
        return jax.jit(lambda x, n: x * n, static_argnums=1)(x, 3)

    @case(m23, v3)
    def vmap_in_axes(m, v):
        return jax.vmap(jnp.dot, (0, None))(m, v)

    @case(m23)
    def mean(x):
        return jnp.mean(x)

    @case(v3)
    def sigmoid(x):
        return jax.nn.sigmoid(x)

    @case(v3)
    def jnp_concatenate(x):
        return jnp.concatenate([x, x])

    @case(m23, v3)
    def einsum_matvec(a, b):
        return jnp.einsum("ij,j->i", a, b)

    @case(m23, jnp.ones(2), v3)
    def linear_layer(w, b, x):
        return jnp.tanh(w @ x + b)

    # differ (KNOWN_DIFFERENT)
    @case(v3)
    def grad_of_sum(x):
        return jax.grad(lambda x: jnp.sum(jnp.sin(x)))(x)

    @case(v3)
    def softmax(x):
        return jax.nn.softmax(x)

    @case(v3)
    def relu(x):
        return jax.nn.relu(x)

    @case(v3)
    def clip(x):
        return jnp.clip(x, 0.0, 1.0)

    @case(jnp.array(1), v3)
    def switch(i, x):
        return lax.switch(i, [jnp.sin, jnp.cos, jnp.tan], x)

    @case(v3)
    def static_index(x):
        return x[1]

    @case(v3)
    def static_slice(x):
        return x[1:]

    @case(v3)
    def fori_loop(x):
        return lax.fori_loop(0, 3, lambda i, x: x * 2.0, x)

    @case(v3)
    def stack(x):
        return jnp.stack([x, x])

    return out


# Cases where fgrad's program is a different (equivalent) sequence of equations from JAX's,
# with the reason (docs/jax-api.md, "What still differs").
KNOWN_DIFFERENT = {
    "grad_tanh": "tanh's derivative is t * (1 - y*y), PyTorch's, which the torch face shares "
                 "(JAX: (t + t*y) * (1 - y))",
    "softmax": "fgrad's softmax is a custom_jvp function keeping PyTorch's bits for the torch face; "
               "keepdims is reshape, not broadcast_in_dim",
}


def expected_texts(x64: bool) -> dict:
    """The jaxprs JAX prints for every case (needs jax)."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    jax.config.update("jax_enable_x64", x64)
    return {name: str(jax.make_jaxpr(fn)(*args)) for name, (fn, args) in cases(jax, jnp, lax).items()}


def jax_texts_in_subprocess(x64: bool) -> dict:
    """`expected_texts` run in a fresh interpreter (JAX's x64 flag is process-wide)."""
    code = (f"import json, sys; sys.path.insert(0, {repr(__file__.rsplit('/', 1)[0])}); "
            f"import jaxpr_text_cases as c; print(json.dumps(c.expected_texts({x64})))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


if __name__ == "__main__":  # regenerate tests/jaxpr_text_expected.json
    import pathlib
    data = {"x64": jax_texts_in_subprocess(True), "x32": jax_texts_in_subprocess(False)}
    path = pathlib.Path(__file__).with_name("jaxpr_text_expected.json")
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path} ({len(data['x64'])} cases)")

