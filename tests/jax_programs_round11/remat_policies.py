"""JAX's "Gradient checkpointing with jax.checkpoint" page: jax.checkpoint (jax.remat) on a
small MLP, jax.ad_checkpoint.print_saved_residuals, checkpoint policies
(dots_with_no_batch_dims_saveable, nothing_saveable, everything_saveable,
save_only_these_names with checkpoint_name, save_any_names_but_these, offload-free
policies), static_argnums, prevent_cse, remat inside scan, and gradients that agree
with the unchekpointed function."""

import contextlib
import io
import re
from functools import partial

import numpy as np

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name, print_saved_residuals as _print_saved_residuals


def print_saved_residuals(fn, *args):  # the source locations without the checkout's path
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        _print_saved_residuals(fn, *args)
    for line in buf.getvalue().splitlines():
        print(re.sub(r" from \S+\.py:\d+:\d+", "", line))


def g(W, x):
    y = jnp.dot(W, x)
    return jnp.sin(y)


def f(W1, W2, W3, x):
    x = g(W1, x)
    x = g(W2, x)
    x = g(W3, x)
    return x


k1, k2, k3, k4 = jax.random.split(jax.random.key(0), 4)
W1 = jax.random.normal(k1, (5, 4))
W2 = jax.random.normal(k2, (6, 5))
W3 = jax.random.normal(k3, (7, 6))
x = jax.random.normal(k4, (4,))

print("== plain")
print_saved_residuals(f, W1, W2, W3, x)
print("== checkpointed g")
f2 = lambda W1, W2, W3, x: jax.checkpoint(g)(W3, jax.checkpoint(g)(W2, jax.checkpoint(g)(W1, x)))
print_saved_residuals(f2, W1, W2, W3, x)

loss = lambda fn: (lambda *a: jnp.sum(fn(*a) ** 2))
g_plain = jax.grad(loss(f), argnums=(0, 1, 2))(W1, W2, W3, x)
g_remat = jax.grad(loss(jax.checkpoint(f)), argnums=(0, 1, 2))(W1, W2, W3, x)
print("same grads", all(np.allclose(a, b) for a, b in zip(g_plain, g_remat)))
print("grad W1 row", np.round(np.asarray(g_plain[0][0]), 5))

policies = jax.checkpoint_policies
for name in ["dots_with_no_batch_dims_saveable", "nothing_saveable", "everything_saveable"]:
    print("==", name)
    print_saved_residuals(jax.checkpoint(f, policy=getattr(policies, name)), W1, W2, W3, x)


def f4(W1, W2, W3, x):
    x = checkpoint_name(g(W1, x), name="a")
    x = checkpoint_name(g(W2, x), name="b")
    x = checkpoint_name(g(W3, x), name="c")
    return x


print("== save_only_these_names(a)")
print_saved_residuals(jax.checkpoint(f4, policy=policies.save_only_these_names("a")), W1, W2, W3, x)
print("== save_any_names_but_these(b, c)")
print_saved_residuals(jax.checkpoint(f4, policy=policies.save_any_names_but_these("b", "c")), W1, W2, W3, x)
gn = jax.grad(loss(jax.checkpoint(f4, policy=policies.save_only_these_names("a"))))(W1, W2, W3, x)
print("named grads agree", np.allclose(gn, g_plain[0]))


@partial(jax.checkpoint, static_argnums=(1,))
def repeated(x, n):
    for _ in range(n):
        x = jnp.tanh(x) * 1.5
    return x


print("static_argnums", round(float(jax.grad(repeated)(0.3, 3)), 6))


def scan_layer(carry, w):
    return jnp.tanh(w @ carry), None


Ws = jax.random.normal(jax.random.key(1), (6, 4, 4)) * 0.5


def deep(ws, h, remat):
    body = jax.checkpoint(scan_layer, prevent_cse=False) if remat else scan_layer
    return jnp.sum(jax.lax.scan(body, h, ws)[0] ** 2)


h0 = jnp.ones(4)
ga = jax.grad(deep)(Ws, h0, False)
gb = jax.grad(deep)(Ws, h0, True)
print("scan remat agrees", np.allclose(ga, gb), round(float(jnp.sum(ga ** 2)), 6))
