"""A variational quantum eigensolver simulated in JAX, as quantum-ML tutorials write it: a
state vector of n qubits as a complex (2,)*n tensor, single-qubit gates applied by
jnp.tensordot + jnp.moveaxis, CNOTs by reshaping, a hardware-efficient RY/RZ ansatz, the
energy <psi|H|psi> of a transverse-field Ising Hamiltonian built with jnp.kron, its gradient by
jax.grad (real parameters, complex intermediates) checked against the parameter-shift rule,
gradient descent under jit, the exact ground energy by jnp.linalg.eigvalsh, and fidelities."""

import functools

import jax
import jax.numpy as jnp

jnp.set_printoptions(precision=5, suppress=True)

N = 4
I2 = jnp.eye(2, dtype=jnp.complex64)
X = jnp.array([[0, 1], [1, 0]], dtype=jnp.complex64)
Z = jnp.array([[1, 0], [0, -1]], dtype=jnp.complex64)


def kron_all(ops):
    return functools.reduce(jnp.kron, ops)


def ising_hamiltonian(n, J=1.0, h=0.7):
    H = jnp.zeros((2**n, 2**n), dtype=jnp.complex64)
    for i in range(n - 1):
        ops = [I2] * n
        ops[i], ops[i + 1] = Z, Z
        H = H - J * kron_all(ops)
    for i in range(n):
        ops = [I2] * n
        ops[i] = X
        H = H - h * kron_all(ops)
    return H


def apply_1q(state, gate, q):
    state = jnp.tensordot(gate, state, axes=[[1], [q]])
    return jnp.moveaxis(state, 0, q)


def apply_cnot(state, c, t):
    state = jnp.moveaxis(state, (c, t), (0, 1))
    flipped = jnp.stack([state[0], state[1][::-1]])
    return jnp.moveaxis(flipped, (0, 1), (c, t))


def ry(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]]).astype(jnp.complex64)


def rz(theta):
    e = jnp.exp(-0.5j * theta)
    return jnp.array([[e, 0], [0, jnp.conj(e)]])


def circuit(params):
    state = jnp.zeros((2,) * N, dtype=jnp.complex64).at[(0,) * N].set(1.0)
    for layer in range(params.shape[0]):
        for q in range(N):
            state = apply_1q(state, ry(params[layer, q, 0]), q)
            state = apply_1q(state, rz(params[layer, q, 1]), q)
        for q in range(N - 1):
            state = apply_cnot(state, q, q + 1)
    return state.reshape(-1)


H = ising_hamiltonian(N)


def energy(params):
    psi = circuit(params)
    return jnp.real(jnp.vdot(psi, H @ psi))


params = 0.1 * jax.random.normal(jax.random.PRNGKey(1), (2, N, 2))
psi = circuit(params)
print("norm", float(jnp.linalg.norm(psi)))
print("probabilities[:6]", (jnp.abs(psi) ** 2)[:6])
print("energy", float(energy(params)))
g = jax.grad(energy)(params)
print("grad layer 0", g[0])

# the parameter-shift rule for the RY/RZ rotations
shift = jnp.pi / 2
flat = params.reshape(-1)
ps = []
for i in range(flat.size):
    e = jnp.zeros_like(flat).at[i].set(shift)
    ps.append(0.5 * (energy((flat + e).reshape(params.shape)) - energy((flat - e).reshape(params.shape))))
ps = jnp.stack(ps).reshape(params.shape)
print("parameter shift == grad:", bool(jnp.allclose(ps, g, atol=1e-4)))

exact = jnp.linalg.eigvalsh(H)
print("exact spectrum lowest", exact[:3])


@jax.jit
def step(p, lr=0.1):
    e, g = jax.value_and_grad(energy)(p)
    return p - lr * g, e


p = params + 0.3
for i in range(60):
    p, e = step(p)
    if i % 20 == 0:
        print(f"step {i}: energy {float(e):.5f}")
print("final energy", round(float(energy(p)), 3), "ground", round(float(exact[0]), 3))
w, v = jnp.linalg.eigh(H)
fidelity = jnp.abs(jnp.vdot(v[:, 0], circuit(p))) ** 2
print("fidelity with ground state", round(float(fidelity), 2))
# expectation values of each Z_i
zs = []
for q in range(N):
    ops = [I2] * N
    ops[q] = Z
    psi = circuit(p)
    zs.append(jnp.real(jnp.vdot(psi, kron_all(ops) @ psi)))
print("<Z_i>", jnp.round(jnp.stack(zs), 2))
# the jacobian of the probabilities wrt one layer, by forward and reverse mode
probs = lambda q: jnp.abs(circuit(q)) ** 2
Jf = jax.jacfwd(probs)(params)
Jr = jax.jacrev(probs)(params)
print("jacfwd == jacrev:", Jf.shape, bool(jnp.allclose(Jf, Jr, atol=1e-5)))
