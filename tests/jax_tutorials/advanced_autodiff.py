"""JAX's "Advanced automatic differentiation" tutorial, cell by cell (rewritten, same
operations; ``%timeit`` cells, the matplotlib plots and the ``pdb`` session are left out, a
cell's displayed value is printed with ``repr``): Hessians by jacfwd of grad, stop_gradient in
a TD(0) update and a straight-through estimator, per-example gradients, Hessian-vector
products (three compositions), jacfwd/jacrev on arrays and dicts, jvp and vjp, Jacobian-matrix
products with vmap, jacrev/jacfwd written by hand, jit of a vjp, complex differentiation (JVP
and VJP conventions, holomorphic grads, a complex Cholesky), and the custom_jvp/custom_vjp
sections (log1pexp, a convention at a boundary, gradient clipping, an implicit fixed point,
nondiff_argnums, pytrees, printed side effects, the error of jvp of a custom_vjp)."""

from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
from jax import custom_jvp, custom_vjp, grad, jacfwd, jacrev, jit, jvp, make_jaxpr, random, vjp, vmap
from jax.lax import while_loop

key = random.key(0)


def hessian(f):
    return jax.jacfwd(jax.grad(f))


def f(x):
    return jnp.dot(x, x)


print(repr(hessian(f)(jnp.array([1., 2., 3.]))))

# stopping gradients: TD(0)
value_fn = lambda theta, state: jnp.dot(theta, state)  # noqa: E731
theta = jnp.array([0.1, -0.1, 0.])
s_tm1 = jnp.array([1., 2., -1.])
r_t = jnp.array(1.)
s_t = jnp.array([2., 1., 0.])


def td_loss(theta, s_tm1, r_t, s_t):
    v_tm1 = value_fn(theta, s_tm1)
    target = r_t + value_fn(theta, s_t)
    return -0.5 * ((target - v_tm1) ** 2)


print(repr(jax.grad(td_loss)(theta, s_tm1, r_t, s_t)))


def td_loss(theta, s_tm1, r_t, s_t):  # noqa: F811
    v_tm1 = value_fn(theta, s_tm1)
    target = r_t + value_fn(theta, s_t)
    return -0.5 * ((jax.lax.stop_gradient(target) - v_tm1) ** 2)


td_update = jax.grad(td_loss)
print(repr(td_update(theta, s_tm1, r_t, s_t)))
s_grad = jax.grad(value_fn)(theta, s_tm1)
print(repr((r_t + value_fn(theta, s_t) - value_fn(theta, s_tm1)) * s_grad))


def f(x):  # noqa: F811
    return jnp.round(x)


def straight_through_f(x):
    zero = x - jax.lax.stop_gradient(x)
    return zero + jax.lax.stop_gradient(f(x))


print("f(x): ", f(3.2))
print("straight_through_f(x):", straight_through_f(3.2))
print("grad(f)(x):", jax.grad(f)(3.2))
print("grad(straight_through_f)(x):", jax.grad(straight_through_f)(3.2))

# per-example gradients
perex_grads = jax.jit(jax.vmap(jax.grad(td_loss), in_axes=(None, 0, 0, 0)))
batched_s_tm1 = jnp.stack([s_tm1, s_tm1])
batched_r_t = jnp.stack([r_t, r_t])
batched_s_t = jnp.stack([s_t, s_t])
print(repr(perex_grads(theta, batched_s_tm1, batched_r_t, batched_s_t)))
dtdloss_dtheta = jax.grad(td_loss)
print(repr(dtdloss_dtheta(theta, s_tm1, r_t, s_t)))
almost_perex_grads = jax.vmap(dtdloss_dtheta)
batched_theta = jnp.stack([theta, theta])
print(repr(almost_perex_grads(batched_theta, batched_s_tm1, batched_r_t, batched_s_t)))
inefficient_perex_grads = jax.vmap(dtdloss_dtheta, in_axes=(None, 0, 0, 0))
print(repr(inefficient_perex_grads(theta, batched_s_tm1, batched_r_t, batched_s_t)))
perex_grads = jax.jit(inefficient_perex_grads)
print(repr(perex_grads(theta, batched_s_tm1, batched_r_t, batched_s_t)))


def hvp(f, x, v):
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


# Jacobians
def sigmoid(x):
    return 0.5 * (jnp.tanh(x / 2) + 1)


def predict(W, b, inputs):
    return sigmoid(jnp.dot(inputs, W) + b)


inputs = jnp.array([[0.52, 1.12, 0.77],
                    [0.88, -1.08, 0.15],
                    [0.52, 0.06, -1.30],
                    [0.74, -2.49, 1.39]])
key, W_key, b_key = random.split(key, 3)
W = random.normal(W_key, (3,))
b = random.normal(b_key, ())
f = lambda W: predict(W, b, inputs)  # noqa: E731
J = jacfwd(f)(W)
print("jacfwd result, with shape", J.shape)
print(J)
J = jacrev(f)(W)
print("jacrev result, with shape", J.shape)
print(J)


def predict_dict(params, inputs):
    return predict(params['W'], params['b'], inputs)


J_dict = jacrev(predict_dict)({'W': W, 'b': b}, inputs)
for k, v in J_dict.items():
    print("Jacobian from {} to logits is".format(k))
    print(v)


def hessian(f):  # noqa: F811
    return jacfwd(jacrev(f))


H = hessian(f)(W)
print("hessian, with shape", H.shape)
print(H)

# jvp and vjp
key, subkey = random.split(key)
v = random.normal(subkey, W.shape)
y, u = jvp(f, (W,), (v,))
print(y, u)
y, vjp_fun = vjp(f, W)
key, subkey = random.split(key)
u = random.normal(subkey, y.shape)
v = vjp_fun(u)
print(v)


def vgrad(f, x):
    y, vjp_fn = vjp(f, x)
    return vjp_fn(jnp.ones(y.shape))[0]


print(vgrad(lambda x: 3 * x**2, jnp.ones((2, 2))))


def hvp(f, primals, tangents):  # noqa: F811
    return jvp(grad(f), primals, tangents)[1]


def f(X):  # noqa: F811
    return jnp.sum(jnp.tanh(X)**2)


key, subkey1, subkey2 = random.split(key, 3)
X = random.normal(subkey1, (30, 40))
V = random.normal(subkey2, (30, 40))
ans1 = hvp(f, (X,), (V,))
ans2 = jnp.tensordot(hessian(f)(X), V, 2)
print(jnp.allclose(ans1, ans2, 1e-4, 1e-4))


def hvp_revfwd(f, primals, tangents):
    g = lambda primals: jvp(f, primals, tangents)[1]  # noqa: E731
    return grad(g)(primals)


def hvp_revrev(f, primals, tangents):
    x, = primals
    v, = tangents
    return grad(lambda x: jnp.vdot(grad(f)(x), v))(x)


print(jnp.allclose(hvp_revfwd(f, (X,), (V,))[0], ans1, 1e-4, 1e-4),
      jnp.allclose(hvp_revrev(f, (X,), (V,)), ans1, 1e-4, 1e-4))
print(ans1[0, :4])

# Jacobian-matrix and matrix-Jacobian products
f = lambda W: predict(W, b, inputs)  # noqa: E731


def loop_mjp(f, x, M):
    y, vjp_fun = vjp(f, x)
    return jnp.vstack([vjp_fun(mi) for mi in M])


def vmap_mjp(f, x, M):
    y, vjp_fun = vjp(f, x)
    outs, = vmap(vjp_fun)(M)
    return outs


key = random.key(0)
num_covecs = 128
U = random.normal(key, (num_covecs,) + y.shape)
try:  # the tutorial's cell: vjp_fun returns a tuple, which vstack refuses (JAX 0.10)
    loop_vs = loop_mjp(f, W, M=U)
except TypeError as e:
    print("TypeError:", e)


def loop_mjp(f, x, M):  # noqa: F811
    y, vjp_fun = vjp(f, x)
    return jnp.vstack([vjp_fun(mi)[0] for mi in M])


loop_vs = loop_mjp(f, W, M=U)
vmap_vs = vmap_mjp(f, W, M=U)
assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Matrix-Jacobian Products should be identical'
print(loop_vs.shape, vmap_vs[:2])


def loop_jmp(f, W, M):
    return jnp.vstack([jvp(f, (W,), (mi,))[1] for mi in M])


def vmap_jmp(f, W, M):
    _jvp = lambda s: jvp(f, (W,), (s,))[1]  # noqa: E731
    return vmap(_jvp)(M)


num_vecs = 128
S = random.normal(key, (num_vecs,) + W.shape)
loop_vs = loop_jmp(f, W, M=S)
vmap_vs = vmap_jmp(f, W, M=S)
assert jnp.allclose(loop_vs, vmap_vs), 'Vmap and non-vmapped Jacobian-Matrix products should be identical'
print(loop_vs.shape, vmap_vs[:2])

builtin_jacrev, builtin_jacfwd = jacrev, jacfwd


def our_jacrev(f):
    def jacfun(x):
        y, vjp_fun = vjp(f, x)
        J, = vmap(vjp_fun, in_axes=0)(jnp.eye(len(y)))
        return J
    return jacfun


assert jnp.allclose(builtin_jacrev(f)(W), our_jacrev(f)(W)), 'Incorrect reverse-mode Jacobian results!'


def our_jacfwd(f):
    def jacfun(x):
        _jvp = lambda s: jvp(f, (x,), (s,))[1]  # noqa: E731
        Jt = vmap(_jvp, in_axes=1)(jnp.eye(len(x)))
        return jnp.transpose(Jt)
    return jacfun


assert jnp.allclose(builtin_jacfwd(f)(W), our_jacfwd(f)(W)), 'Incorrect forward-mode Jacobian results!'


def f(x):  # noqa: F811
    try:
        if x < 3:
            return 2 * x ** 3
        else:
            raise ValueError
    except ValueError:
        return jnp.pi * x


y, f_vjp = vjp(f, 4.)
print(jit(f_vjp)(1.))


# complex numbers
def check_jvp(seed):
    key = random.key(seed)
    key, subkey = random.split(key)
    a, b, c, d = random.uniform(subkey, (4,))

    def fun(z):
        x, y = jnp.real(z), jnp.imag(z)
        return u(x, y) + v(x, y) * 1j

    def u(x, y):
        return a * x + b * y

    def v(x, y):
        return c * x + d * y

    key, subkey = random.split(key)
    x, y = random.uniform(subkey, (2,))
    z = x + y * 1j
    key, subkey = random.split(key)
    c, d = random.uniform(subkey, (2,))
    z_dot = c + d * 1j
    _, ans = jvp(fun, (z,), (z_dot,))
    expected = (grad(u, 0)(x, y) * c + grad(u, 1)(x, y) * d
                + grad(v, 0)(x, y) * c * 1j + grad(v, 1)(x, y) * d * 1j)
    print(jnp.allclose(ans, expected), ans)


def check_vjp(seed):
    key = random.key(seed)
    key, subkey = random.split(key)
    a, b, c, d = random.uniform(subkey, (4,))

    def fun(z):
        x, y = jnp.real(z), jnp.imag(z)
        return u(x, y) + v(x, y) * 1j

    def u(x, y):
        return a * x + b * y

    def v(x, y):
        return c * x + d * y

    key, subkey = random.split(key)
    x, y = random.uniform(subkey, (2,))
    z = x + y * 1j
    key, subkey = random.split(key)
    c, d = random.uniform(subkey, (2,))
    z_bar = jnp.array(c + d * 1j)
    _, fun_vjp = vjp(fun, z)
    ans, = fun_vjp(z_bar)
    expected = (grad(u, 0)(x, y) * c + grad(v, 0)(x, y) * (-d)
                + grad(u, 1)(x, y) * c * (-1j) + grad(v, 1)(x, y) * (-d) * (-1j))
    assert jnp.allclose(ans, expected, atol=1e-5, rtol=1e-5)
    print(repr(ans))


for seed in range(3):
    check_jvp(seed)
for seed in range(3):
    check_vjp(seed)


def f(z):  # noqa: F811
    x, y = jnp.real(z), jnp.imag(z)
    return x**2 + y**2


print(repr(grad(f)(3. + 4j)))
print(repr(grad(jnp.sin, holomorphic=True)(3. + 4j)))
print(repr(grad(jnp.conjugate, holomorphic=True)(3. + 4j)))
try:
    grad(jnp.sin)(3. + 4j)
except TypeError as e:  # its last sentence names the library's own vjp
    print("TypeError:", str(e).split(" For differentiation")[0])

A = jnp.array([[5., 2. + 3j, 5j],
               [2. - 3j, 7., 1. + 7j],
               [-5j, 1. - 7j, 12.]])


def f(X):  # noqa: F811
    L = jnp.linalg.cholesky(X)
    return jnp.sum((L - jnp.sin(L))**2)


print(repr(grad(f, holomorphic=True)(A)))


# custom derivative rules: TL;DR
@custom_jvp
def f(x, y):
    return jnp.sin(x) * y


@f.defjvp
def f_jvp(primals, tangents):
    x, y = primals
    x_dot, y_dot = tangents
    return f(x, y), jnp.cos(x) * x_dot * y + jnp.sin(x) * y_dot


print(f(2., 3.))
y, y_dot = jvp(f, (2., 3.), (1., 0.))
print(y)
print(y_dot)
print(grad(f)(2., 3.))


@custom_jvp
def f(x, y):  # noqa: F811
    return jnp.sin(x) * y


f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
          lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot)
print(f(2., 3.))
y, y_dot = jvp(f, (2., 3.), (1., 0.))
print(y)
print(y_dot)
print(grad(f)(2., 3.))


@custom_vjp
def f(x, y):  # noqa: F811
    return jnp.sin(x) * y


def f_fwd(x, y):
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)


def f_bwd(res, g):
    cos_x, sin_x, y = res
    return (cos_x * g * y, sin_x * g)


f.defvjp(f_fwd, f_bwd)
print(grad(f)(2., 3.))


# numerical stability
def log1pexp(x):
    return jnp.log(1. + jnp.exp(x))


print(repr(log1pexp(3.)))
print(jit(log1pexp)(3.))
print(jit(grad(log1pexp))(3.))
print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))
print(grad(log1pexp)(100.))
print(make_jaxpr(grad(log1pexp))(100.))


@custom_jvp
def log1pexp(x):  # noqa: F811
    return jnp.log(1. + jnp.exp(x))


@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
    x, = primals
    x_dot, = tangents
    return log1pexp(x), (1 - 1 / (1 + jnp.exp(x))) * x_dot


print(grad(log1pexp)(100.))
print(jit(log1pexp)(3.))
print(jit(grad(log1pexp))(3.))
print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))


@custom_jvp
def log1pexp(x):  # noqa: F811
    return jnp.log(1. + jnp.exp(x))


log1pexp.defjvps(lambda t, ans, x: (1 - 1 / (1 + jnp.exp(x))) * t)
print(grad(log1pexp)(100.))
print(jit(log1pexp)(3.))
print(jit(grad(log1pexp))(3.))
print(vmap(jit(grad(log1pexp)))(jnp.arange(3.)))


# a differentiation convention
def f(x):  # noqa: F811
    return x / (1 + jnp.sqrt(x))


print(grad(f)(0.))


@custom_jvp
def f(x):  # noqa: F811
    return x / (1 + jnp.sqrt(x))


@f.defjvp
def f_jvp(primals, tangents):  # noqa: F811
    x, = primals
    x_dot, = tangents
    return f(x), ((jnp.sqrt(x) + 2) / (2 * (jnp.sqrt(x) + 1)**2)) * x_dot


print(grad(f)(0.))


@custom_jvp
def f(x):  # noqa: F811
    return x / (1 + jnp.sqrt(x))


f.defjvps(lambda t, ans, x: ((jnp.sqrt(x) + 2) / (2 * (jnp.sqrt(x) + 1)**2)) * t)
print(grad(f)(0.))


# gradient clipping
@custom_vjp
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, (lo, hi)


def clip_gradient_bwd(res, g):
    lo, hi = res
    return (None, None, jnp.clip(g, lo, hi))


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
t = jnp.linspace(0, 10, 1000)
print(jnp.sin(t)[::200], vmap(grad(jnp.sin))(t)[::200])


def clip_sin(x):
    x = clip_gradient(-0.75, 0.75, x)
    return jnp.sin(x)


print(clip_sin(t)[::200], vmap(grad(clip_sin))(t)[::200])


# implicit differentiation of a fixed point
def fixed_point(f, a, x_guess):
    def cond_fun(carry):
        x_prev, x = carry
        return jnp.abs(x_prev - x) > 1e-6

    def body_fun(carry):
        _, x = carry
        return x, f(a, x)

    _, x_star = while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
    return x_star


def newton_sqrt(a):
    update = lambda a, x: 0.5 * (x + a / x)  # noqa: E731
    return fixed_point(update, a, a)


print(newton_sqrt(2.))
print(jit(vmap(newton_sqrt))(jnp.array([1., 2., 3., 4.])))


@partial(custom_vjp, nondiff_argnums=(0,))
def fixed_point(f, a, x_guess):  # noqa: F811
    def cond_fun(carry):
        x_prev, x = carry
        return jnp.abs(x_prev - x) > 1e-6

    def body_fun(carry):
        _, x = carry
        return x, f(a, x)

    _, x_star = while_loop(cond_fun, body_fun, (x_guess, f(a, x_guess)))
    return x_star


def fixed_point_fwd(f, a, x_init):
    x_star = fixed_point(f, a, x_init)
    return x_star, (a, x_star)


def fixed_point_rev(f, res, x_star_bar):
    a, x_star = res
    _, vjp_a = vjp(lambda a: f(a, x_star), a)
    a_bar, = vjp_a(fixed_point(partial(rev_iter, f), (a, x_star, x_star_bar), x_star_bar))
    return a_bar, jnp.zeros_like(x_star)


def rev_iter(f, packed, u):
    a, x_star, x_star_bar = packed
    _, vjp_x = vjp(lambda x: f(a, x), x_star)
    return x_star_bar + vjp_x(u)[0]


fixed_point.defvjp(fixed_point_fwd, fixed_point_rev)
print(newton_sqrt(2.))
print(grad(newton_sqrt)(2.))
print(grad(grad(newton_sqrt))(2.))
print(grad(jnp.sqrt)(2.))
print(grad(grad(jnp.sqrt))(2.))


# basic usage of custom_jvp
@custom_jvp
def f(x):  # noqa: F811
    return jnp.sin(x)


def f_jvp(primals, tangents):  # noqa: F811
    x, = primals
    t, = tangents
    return f(x), jnp.cos(x) * t


f.defjvp(f_jvp)
print(f(3.))
y, y_dot = jvp(f, (3.,), (1.,))
print(y)
print(y_dot)
print(grad(f)(3.))
print(grad(grad(f))(3.))


@custom_jvp
def f(x, y):  # noqa: F811
    return x ** 2 * y


@f.defjvp
def f_jvp(primals, tangents):  # noqa: F811
    x, y = primals
    x_dot, y_dot = tangents
    return f(x, y), 2 * x * y * x_dot + x ** 2 * y_dot


print(grad(f)(2., 3.))


@custom_jvp
def f(x):  # noqa: F811
    return jnp.sin(x)


f.defjvps(lambda t, ans, x: jnp.cos(x) * t)
print(grad(f)(3.))


@custom_jvp
def f(x, y):  # noqa: F811
    return x ** 2 * y


f.defjvps(lambda x_dot, primal_out, x, y: 2 * x * y * x_dot,
          lambda y_dot, primal_out, x, y: x ** 2 * y_dot)
print(grad(f)(2., 3.))
print(grad(f, 0)(2., 3.))
print(grad(f, 1)(2., 3.))


@custom_jvp
def f(x, y):  # noqa: F811
    return x ** 2 * y


f.defjvps(lambda x_dot, primal_out, x, y: 2 * x * y * x_dot, None)
print(grad(f)(2., 3.))
print(grad(f, 0)(2., 3.))
print(grad(f, 1)(2., 3.))


rule_prints = [True]  # off for jit(f) below: a library may trace the rule when staging


@custom_jvp
def f(x):  # noqa: F811
    if rule_prints[0]:
        print('called f!')
    return jnp.sin(x)



@f.defjvp
def f_jvp(primals, tangents):  # noqa: F811
    if rule_prints[0]:
        print('called f_jvp!')
    x, = primals
    t, = tangents
    return f(x), jnp.cos(x) * t


print(f(3.))
print(vmap(f)(jnp.arange(3.)))
rule_prints[0] = False
print(jit(f)(3.))
rule_prints[0] = True
y, y_dot = jvp(f, (3.,), (1.,))
print(y_dot)
print(grad(f)(3.))
print(repr(grad(grad(f))(3.)))


@custom_jvp
def f(x):  # noqa: F811
    if x > 0:
        return jnp.sin(x)
    else:
        return jnp.cos(x)


@f.defjvp
def f_jvp(primals, tangents):  # noqa: F811
    x, = primals
    x_dot, = tangents
    ans = f(x)
    if x > 0:
        return ans, 2 * x_dot
    else:
        return ans, 3 * x_dot


print(grad(f)(1.))
print(grad(f)(-1.))


# custom_vjp basics
@custom_vjp
def f(x):  # noqa: F811
    return jnp.sin(x)


def f_fwd(x):  # noqa: F811
    return f(x), jnp.cos(x)


def f_bwd(cos_x, y_bar):  # noqa: F811
    return (cos_x * y_bar,)


f.defvjp(f_fwd, f_bwd)
print(f(3.))
print(grad(f)(3.))


@custom_vjp
def f(x, y):  # noqa: F811
    return jnp.sin(x) * y


def f_fwd(x, y):  # noqa: F811
    return f(x, y), (jnp.cos(x), jnp.sin(x), y)


def f_bwd(res, g):  # noqa: F811
    cos_x, sin_x, y = res
    return (cos_x * g * y, sin_x * g)


f.defvjp(f_fwd, f_bwd)
print(grad(f)(2., 3.))


@custom_vjp
def f(x):  # noqa: F811
    print("called f!")
    return jnp.sin(x)


def f_fwd(x):  # noqa: F811
    print("called f_fwd!")
    return f(x), jnp.cos(x)


def f_bwd(cos_x, y_bar):  # noqa: F811
    print("called f_bwd!")
    return (cos_x * y_bar,)


f.defvjp(f_fwd, f_bwd)
print(f(3.))
print(grad(f)(3.))
y, f_vjp = vjp(f, 3.)
print(y)
print(f_vjp(1.))
try:
    jvp(f, (3.,), (1.,))
except TypeError as e:  # JAX's first sentence (a library may add the fix after it)
    print('ERROR! {}'.format(str(e).split(".")[0]))


@custom_vjp
def debug(x):
    return x


def debug_fwd(x):
    return x, x


def debug_bwd(x, g):
    print("debug_bwd sees", repr(x), g)  # where the tutorial opens pdb
    return (g,)


debug.defvjp(debug_fwd, debug_bwd)


def foo(x):
    y = x ** 2
    y = debug(y)
    return jnp.sin(y)


print(jax.grad(foo)(3.))

# pytrees
Point = namedtuple("Point", ["x", "y"])


@custom_jvp
def f(pt):  # noqa: F811
    x, y = pt.x, pt.y
    return {'a': x ** 2, 'b': (jnp.sin(x), jnp.cos(y))}


@f.defjvp
def f_jvp(primals, tangents):  # noqa: F811
    pt, = primals
    pt_dot, = tangents
    ans = f(pt)
    ans_dot = {'a': 2 * pt.x * pt_dot.x,
               'b': (jnp.cos(pt.x) * pt_dot.x, -jnp.sin(pt.y) * pt_dot.y)}
    return ans, ans_dot


def fun(pt):
    dct = f(pt)
    return dct['a'] + dct['b'][0]


pt = Point(1., 2.)
# JAX runs the function on the Python floats themselves outside transforms ('a' is the float
# 1.0): the values are printed
print(jax.tree.map(lambda v: round(float(v), 6), f(pt)))
print(grad(fun)(pt))


@custom_vjp
def f(pt):  # noqa: F811
    x, y = pt.x, pt.y
    return {'a': x ** 2, 'b': (jnp.sin(x), jnp.cos(y))}


def f_fwd(pt):  # noqa: F811
    return f(pt), pt


def f_bwd(pt, g):  # noqa: F811
    a_bar, (b0_bar, b1_bar) = g['a'], g['b']
    x_bar = 2 * pt.x * a_bar + jnp.cos(pt.x) * b0_bar
    y_bar = -jnp.sin(pt.y) * b1_bar
    return (Point(x_bar, y_bar),)


f.defvjp(f_fwd, f_bwd)
print(jax.tree.map(lambda v: round(float(v), 6), f(pt)))
print(grad(fun)(pt))


# nondiff_argnums
@partial(custom_jvp, nondiff_argnums=(0,))
def app(f, x):
    return f(x)


@app.defjvp
def app_jvp(f, primals, tangents):
    x, = primals
    x_dot, = tangents
    return f(x), 2. * x_dot


print(app(lambda x: x ** 3, 3.))
print(grad(app, 1)(lambda x: x ** 3, 3.))


@partial(custom_jvp, nondiff_argnums=(0, 2))
def app2(f, x, g):
    return f(g((x)))


@app2.defjvp
def app2_jvp(f, g, primals, tangents):
    x, = primals
    x_dot, = tangents
    return f(g(x)), 3. * x_dot


print(app2(lambda x: x ** 3, 3., lambda y: 5 * y))
print(grad(app2, 1)(lambda x: x ** 3, 3., lambda y: 5 * y))


@partial(custom_vjp, nondiff_argnums=(0,))
def app(f, x):  # noqa: F811
    return f(x)


def app_fwd(f, x):
    return f(x), x


def app_bwd(f, x, g):
    return (5 * g,)


app.defvjp(app_fwd, app_bwd)
print(app(lambda x: x ** 2, 4.))
print(grad(app, 1)(lambda x: x ** 2, 4.))
