"""Runtime checks with jax.experimental.checkify, as in JAX's "The checkify transformation"
guide: user checks (checkify.check) with formatted messages inside jit, error sets
(user_checks, nan_checks, div_checks, index_checks, float_checks, all_checks), Error.get()
and Error.throw(), checks under vmap (one error per batch element, the first one reported),
under grad, inside lax.cond/scan/while_loop, checkify of a jitted function, and a guarded
Newton solver that reports when it fails to converge."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import checkify

jnp.set_printoptions(precision=5, suppress=True)


def safe_log(x):
    checkify.check(jnp.all(x > 0), "log of non-positive input {x}", x=jnp.min(x))
    return jnp.log(x)


print("== user checks ==")
checked = checkify.checkify(safe_log)
err, out = checked(jnp.array([1.0, 2.0, 4.0]))
print("ok:", err.get(), out)
err, out = checked(jnp.array([1.0, -2.0, 4.0]))
print("bad:", err.get())
err, out = jax.jit(checked)(jnp.array([3.0, 0.0]))
print("jit bad:", err.get())
try:
    err.throw()
except checkify.JaxRuntimeError as e:
    print("throw raised JaxRuntimeError:", str(e).splitlines()[0])
err, _ = jax.jit(checked)(jnp.array([3.0, 5.0]))
err.throw()
print("throw on no error passes")

print("== automatic checks ==")


def f(x, i):
    y = x / i
    z = jnp.log(x - 1.0)
    return y[i] + z[0]


x = jnp.array([2.0, 3.0, 0.5])
for name, errors in [("user", checkify.user_checks), ("nan", checkify.nan_checks),
                     ("div", checkify.div_checks), ("index", checkify.index_checks),
                     ("float", checkify.float_checks), ("all", checkify.all_checks)]:
    g = checkify.checkify(f, errors=errors)
    msgs = []
    for i in [1, 5]:
        e, _ = g(x, jnp.array(i))
        m = e.get()
        msgs.append(None if m is None else m.split(" at ")[0].split("\n")[0])
    print(f"{name:6s}", msgs)

int_div = checkify.checkify(lambda a, b: a // b, errors=checkify.div_checks)
print("integer division by zero:", int_div(jnp.array([4, 6]), jnp.array([2, 0]))[0].get() is not None)
print("integer division fine:", int_div(jnp.array([4, 6]), jnp.array([2, 3]))[0].get())
nan_of_inf = checkify.checkify(lambda a: a - a, errors=checkify.nan_checks)
print("inf - inf is NaN:", nan_of_inf(jnp.inf)[0].get() is not None)
combined = checkify.checkify(safe_log, errors=checkify.user_checks | checkify.nan_checks)
print("set union:", combined(jnp.array([-1.0]))[0].get() is not None)

print("== vmap ==")
batched = jax.vmap(checked)
err, out = batched(jnp.array([[1.0, 2.0], [-1.0, 3.0], [2.0, -5.0]]))
print("vmap error:", err.get())
print("vmap out finite rows:", jnp.isfinite(out).all(axis=1))
err, out = batched(jnp.array([[1.0, 2.0], [3.0, 4.0]]))
print("vmap no error:", err.get(), out)
checked_batched = checkify.checkify(jax.vmap(safe_log))
print("checkify of vmap:", checked_batched(jnp.array([[1.0], [-3.0]]))[0].get())

print("== grad ==")


def loss(w):
    checkify.check(w[0] < 10.0, "w[0] too large: {}", w[0])
    return jnp.sum(safe_log(w) ** 2)


g_checked = checkify.checkify(jax.grad(loss))
err, g = g_checked(jnp.array([1.5, 2.5]))
print("grad ok:", err.get(), g)
err, g = g_checked(jnp.array([11.0, 2.5]))
print("grad bad:", err.get())
v_and_g = checkify.checkify(jax.value_and_grad(loss))
err, (val, g) = v_and_g(jnp.array([2.0, 3.0]))
print("value_and_grad:", err.get(), float(val), g)

print("== control flow ==")


def clipped_cumprod(xs):
    def body(c, x):
        checkify.check(x != 0, "zero factor")
        c = c * x
        return c, c
    return lax.scan(body, 1.0, xs)[1]


cc = checkify.checkify(clipped_cumprod)
print("scan ok:", cc(jnp.array([1.0, 2.0, 3.0]))[0].get())
print("scan bad:", cc(jnp.array([1.0, 0.0, 3.0]))[0].get())


def branchy(p, x):
    def neg(x):
        checkify.check(x > -5.0, "too negative: {v}", v=x)
        return -x
    return lax.cond(p, neg, lambda x: x, x)


cb = jax.jit(checkify.checkify(branchy))
print("cond taken:", cb(True, -7.0)[0].get())
print("cond not taken:", cb(False, -7.0)[0].get())

print("== a guarded Newton solver ==")


def newton_sqrt(a, iters=30):
    def cond(state):
        i, x, _ = state
        return (i < iters) & (jnp.abs(x * x - a) > 1e-5 * a)

    def body(state):
        i, x, _ = state
        x_new = 0.5 * (x + a / x)
        return i + 1, x_new, x_new - x

    i, x, step = lax.while_loop(cond, body, (0, a, a))
    checkify.check(i < iters, "Newton did not converge in {n} steps, last step {s}", n=i, s=step)
    return x


solver = jax.jit(checkify.checkify(newton_sqrt, errors=checkify.all_checks))
for a in [2.0, 9.0, 1e-8]:
    e, r = solver(a)
    print(f"sqrt({a}) = {float(r):.6f}", "error:", e.get() is not None)
e, r = checkify.checkify(lambda a: newton_sqrt(a, iters=3))(1e6)
print("3 iterations:", e.get())
e, r = solver(-4.0)
print("negative input:", e.get() is not None)

print("== checkify of a jitted function and check_error ==")


@jax.jit
def normalized(v):
    n = jnp.linalg.norm(v)
    checkify.check(n > 0, "cannot normalize the zero vector")
    return v / n


cn = checkify.checkify(normalized)
print(cn(jnp.array([3.0, 4.0]))[1], cn(jnp.zeros(2))[0].get())
err, _ = checked(jnp.array([-1.0]))


def reraise(err, x):
    checkify.check_error(err)
    return x + 1


print("check_error:", checkify.checkify(reraise)(err, 1.0)[0].get())
