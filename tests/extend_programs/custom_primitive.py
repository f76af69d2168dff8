"""JAX's "How primitives work" tutorial program (multiply_add with JVP, transpose and batching
rules) plus a multiple-results primitive: run with ``jax`` or ``fgrad`` as the first argument."""

import sys

import numpy as np

FACE = sys.argv[1] if len(sys.argv) > 1 else "fgrad"

if FACE == "fgrad":
    import fgrad as jax
    import fgrad.numpy as jnp
    from fgrad.extend import core
    from fgrad.interpreters import ad, batching, mlir
else:
    import jax
    import jax.numpy as jnp
    from jax.extend import core
    from jax.interpreters import ad, batching, mlir
jax.config.update("jax_enable_x64", True)

multiply_add_p = core.Primitive("multiply_add")

def multiply_add_prim(x, y, z):
    return multiply_add_p.bind(x, y, z)

def square_add_prim(a, b):
    return multiply_add_prim(a, a, b)

@multiply_add_p.def_impl
def multiply_add_impl(x, y, z):
    return np.add(np.multiply(x, y), z)

@multiply_add_p.def_abstract_eval
def multiply_add_abstract_eval(xs, ys, zs):
    assert xs.shape == ys.shape
    assert xs.shape == zs.shape
    return jax.core.ShapedArray(xs.shape, xs.dtype)

mlir.register_lowering(multiply_add_p, mlir.lower_fun(lambda x, y, z: x * y + z, multiple_results=False))

def multiply_add_value_and_jvp(arg_values, arg_tangents):
    x, y, z = arg_values
    xt, yt, zt = arg_tangents
    primal_out = multiply_add_prim(x, y, z)
    def make_zero(tan):
        return jnp.zeros_like(x) if type(tan) is ad.Zero else tan
    output_tangent = multiply_add_prim(make_zero(xt), y, multiply_add_prim(x, make_zero(yt), make_zero(zt)))
    return (primal_out, output_tangent)

ad.primitive_jvps[multiply_add_p] = multiply_add_value_and_jvp

def multiply_add_transpose(ct, x, y, z):
    if not ad.is_undefined_primal(x):
        assert ad.is_undefined_primal(y)
        ct_y = ad.Zero(y.aval) if type(ct) is ad.Zero else multiply_add_prim(x, ct, jnp.zeros_like(x))
        res = None, ct_y, ct
    else:
        assert ad.is_undefined_primal(x)
        ct_x = ad.Zero(x.aval) if type(ct) is ad.Zero else multiply_add_prim(ct, y, jnp.zeros_like(y))
        res = ct_x, None, ct
    return res

ad.primitive_transposes[multiply_add_p] = multiply_add_transpose

def multiply_add_batch(vector_arg_values, batch_axes):
    assert batch_axes[0] == batch_axes[1]
    assert batch_axes[0] == batch_axes[2]
    res = multiply_add_prim(*vector_arg_values)
    return res, batch_axes[0]

batching.primitive_batchers[multiply_add_p] = multiply_add_batch

x2, x10 = np.float64(2.0), np.float64(10.0)
print(square_add_prim(x2, x10))
print(jax.jit(square_add_prim)(x2, x10))
print(jax.jvp(square_add_prim, (x2, x10), (np.float64(1.0), np.float64(1.0))))
print(jax.grad(square_add_prim)(x2, x10))
print(jax.jit(jax.grad(square_add_prim))(x2, x10))
try:
    jax.grad(jax.grad(square_add_prim))(x2, x10)
except AssertionError:
    print("second derivative: the transpose rule asserts (as in JAX)")
print(jax.vmap(square_add_prim, in_axes=0, out_axes=0)(np.array([2., 3.]), np.array([10., 20.])))
try:
    jax.jit(jax.vmap(jax.grad(square_add_prim)))(np.array([2., 3.]), np.array([10., 20.]))
except AssertionError:
    print("vmap of grad: the batching rule asserts (as in JAX)")
a2, b2 = np.array([2., 3.]), np.array([10., 20.])
print(jax.jit(jax.vmap(lambda a, b: jax.jvp(square_add_prim, (a, b), (b, b))))(a2, b2))
print(jax.jit(jax.grad(lambda v: square_add_prim(v, v).sum()))(np.array([1., 2.])))

# a multiple-results primitive with defjvp-style rules
sincos_p = core.Primitive("sincos")
sincos_p.multiple_results = True
sincos_p.def_impl(lambda x: (np.sin(x), np.cos(x)))
sincos_p.def_abstract_eval(lambda x: (jax.core.ShapedArray(x.shape, x.dtype),) * 2)
def sincos_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    s, c = sincos_p.bind(x)
    return (s, c), (c * t, -s * t)
ad.primitive_jvps[sincos_p] = sincos_jvp
mlir.register_lowering(sincos_p, mlir.lower_fun(lambda x: (jnp.sin(x), jnp.cos(x)), multiple_results=True))
batching.primitive_batchers[sincos_p] = lambda args, dims: (sincos_p.bind(args[0]), (dims[0], dims[0]))



def f(x):
    return jnp.sum(sincos_p.bind(x)[0] * sincos_p.bind(x)[1])


print(f(np.array([0.3, 0.7])), jax.grad(f)(np.array([0.3, 0.7])))
print(jax.vmap(jax.grad(f))(np.array([[0.3], [0.7]])))
print(jax.jit(jax.grad(f))(np.array([0.3, 0.7])))
