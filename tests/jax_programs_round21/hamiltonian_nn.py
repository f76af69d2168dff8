"""Hamiltonian neural networks (Greydanus, Dzamba & Yosinski, 2019) as their JAX ports write
them: an MLP H(q, p) whose vector field (dH/dp, -dH/dq) comes from jax.grad *inside* the model,
trained on an ideal pendulum's time derivatives with a hand-written Adam over a parameter
pytree (jax.tree.map), the training loss differentiating through that inner grad (second
derivatives of the network); the learned flow integrated by a leapfrog lax.scan with unroll=,
checked against unroll=1 and against a Python loop; energy drift of the learned and the
baseline (plain MLP vector field) model; and the symplectic structure of the leapfrog map
(J^T Omega J = Omega) by jax.jacfwd."""

import jax
import jax.numpy as jnp

jnp.set_printoptions(precision=4, suppress=True)


def init_mlp(key, sizes):
    params = []
    for k, (m, n) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        w = jax.nn.initializers.orthogonal()(k, (m, n))
        params.append({"w": w, "b": jnp.zeros(n)})
    return params


def mlp(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def hamiltonian(params, z):
    return mlp(params, z)[0]


def hnn_field(params, z):
    dq, dp = jnp.split(jax.grad(hamiltonian, argnums=1)(params, z), 2)
    return jnp.concatenate([dp, -dq])


def baseline_field(params, z):
    return mlp(params, z)


def true_field(z):
    q, p = z[0], z[1]
    return jnp.stack([p, -3.0 * jnp.sin(q)])


def true_energy(z):
    return 0.5 * z[1] ** 2 + 3.0 * (1.0 - jnp.cos(z[0]))


key = jax.random.PRNGKey(42)
kdata, kh, kb = jax.random.split(key, 3)
zs = jax.random.uniform(kdata, (128, 2), minval=-2.0, maxval=2.0)
dzs = jax.vmap(true_field)(zs)


def loss(params, field):
    pred = jax.vmap(lambda z: field(params, z))(zs)
    return jnp.mean((pred - dzs) ** 2)


def adam_train(params, field, steps=150, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    m = jax.tree.map(jnp.zeros_like, params)
    v = jax.tree.map(jnp.zeros_like, params)

    @jax.jit
    def step(carry, t):
        params, m, v = carry
        value, g = jax.value_and_grad(loss)(params, field)
        m = jax.tree.map(lambda a, b: b1 * a + (1 - b1) * b, m, g)
        v = jax.tree.map(lambda a, b: b2 * a + (1 - b2) * b * b, v, g)
        mhat = jax.tree.map(lambda a: a / (1 - b1 ** t), m)
        vhat = jax.tree.map(lambda a: a / (1 - b2 ** t), v)
        params = jax.tree.map(lambda p, a, b: p - lr * a / (jnp.sqrt(b) + eps), params, mhat, vhat)
        return (params, m, v), value

    (params, _, _), losses = jax.lax.scan(step, (params, m, v), jnp.arange(1, steps + 1.0))
    return params, losses


hnn_params, hnn_losses = adam_train(init_mlp(kh, [2, 32, 32, 1]), hnn_field)
base_params, base_losses = adam_train(init_mlp(kb, [2, 32, 32, 2]), baseline_field)
print("hnn losses", hnn_losses[::50], "final", f"{float(hnn_losses[-1]):.4f}")
print("baseline losses", base_losses[::50], "final", f"{float(base_losses[-1]):.4f}")
print("param leaves", [leaf.shape for leaf in jax.tree.leaves(hnn_params)])

# the HNN field is divergence free by construction (trace of its Jacobian vanishes)
jac = jax.jacfwd(lambda z: hnn_field(hnn_params, z))(jnp.array([0.3, -0.5]))
print("hnn divergence-free:", bool(jnp.abs(jnp.trace(jac)) < 1e-5), "baseline divergence",
      f"{float(jnp.trace(jax.jacfwd(lambda z: baseline_field(base_params, z))(jnp.array([0.3, -0.5])))):.4f}")


def leapfrog(field, z0, dt, n, unroll=1):
    def body(z, _):
        p_half = z[1] + 0.5 * dt * field(z)[1]
        q = z[0] + dt * p_half
        p = p_half + 0.5 * dt * field(jnp.stack([q, p_half]))[1]
        znew = jnp.stack([q, p])
        return znew, znew

    return jax.lax.scan(body, z0, None, length=n, unroll=unroll)[1]


z0 = jnp.array([1.0, 0.0])
learned = lambda z: hnn_field(hnn_params, z)
traj1 = leapfrog(learned, z0, 0.05, 120)
traj4 = leapfrog(learned, z0, 0.05, 120, unroll=4)
print("unroll=4 == unroll=1:", bool(jnp.allclose(traj1, traj4, rtol=1e-5, atol=1e-6)))
z, loop = z0, []
for _ in range(5):
    ph = z[1] + 0.025 * learned(z)[1]
    q = z[0] + 0.05 * ph
    z = jnp.stack([q, ph + 0.025 * learned(jnp.stack([q, ph]))[1]])
    loop.append(z)
print("scan == loop:", bool(jnp.allclose(traj1[:5], jnp.stack(loop), rtol=1e-5, atol=1e-6)))
print("hnn trajectory", traj1[::30])
true_traj = leapfrog(true_field, z0, 0.05, 120)
base_traj = leapfrog(lambda z: baseline_field(base_params, z), z0, 0.05, 120)
for name, tr in [("true", true_traj), ("hnn", traj1), ("baseline", base_traj)]:
    e = jax.vmap(true_energy)(tr)
    print(f"{name:9s} energy start {float(e[0]):.4f} end {float(e[-1]):.4f}",
          f"spread {float(e.max() - e.min()):.4f}")
h_learned = jax.vmap(lambda z: hamiltonian(hnn_params, z))(traj1)
print("learned H spread along its own flow", f"{float(h_learned.max() - h_learned.min()):.4f}")

# leapfrog of a separable Hamiltonian is symplectic: the one-step map's Jacobian preserves
# Omega; the learned H is not separable, so its leapfrog map only nearly preserves area
omega = jnp.array([[0.0, 1.0], [-1.0, 0.0]])
for name, field in [("true", true_field), ("hnn", learned)]:
    J = jax.jacfwd(lambda z: leapfrog(field, z, 0.1, 1)[0])(jnp.array([0.4, 0.7]))
    print(name, "J", J.ravel(), "symplectic:", bool(jnp.allclose(J.T @ omega @ J, omega, atol=1e-5)),
          "det", f"{float(jnp.linalg.det(J)):.4f}")
