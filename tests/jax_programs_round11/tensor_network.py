"""Tensor-network contractions with jnp.einsum and jnp.tensordot (as in the TensorNetwork
and "MPS in JAX" notebooks): a random matrix product state, its norm by a transfer-matrix
scan, expectation values of local operators, canonicalization by a sweep of QR
decompositions, compression by truncated SVD, the overlap of two MPS, einsum with
ellipsis, jnp.einsum_path, tensordot with axes pairs, jnp.kron and a gradient of an energy
with respect to the MPS tensors (a variational ground state of the transverse Ising chain)."""

import numpy as np

import jax
import jax.numpy as jnp

L, d, chi = 6, 2, 4


def random_mps(key, L, d, chi):
    keys = jax.random.split(key, L)
    dims = [1] + [chi] * (L - 1) + [1]
    return [jax.random.normal(k, (dims[i], d, dims[i + 1])) for i, k in enumerate(keys)]


def overlap(A, B):
    E = jnp.ones((1, 1))
    for a, b in zip(A, B):
        E = jnp.einsum("ab,asc,bsd->cd", E, jnp.conj(a), b)
    return E[0, 0]


def expect_local(A, op, site):
    E = jnp.ones((1, 1))
    for i, a in enumerate(A):
        o = op if i == site else jnp.eye(d)
        E = jnp.einsum("ab,asc,st,btd->cd", E, jnp.conj(a), o, a)
    return E[0, 0] / overlap(A, A)


mps = random_mps(jax.random.key(0), L, d, chi)
norm2 = overlap(mps, mps)
print("norm^2", round(float(norm2), 5))
Z = jnp.diag(jnp.array([1.0, -1.0]))
X = jnp.array([[0.0, 1.0], [1.0, 0.0]])
print("<Z_i>", np.round(np.asarray([expect_local(mps, Z, i) for i in range(L)]), 5))


def left_canonical(A):
    out = []
    R = jnp.ones((1, 1))
    for a in A:
        a = jnp.tensordot(R, a, axes=([1], [0]))
        Dl, dd, Dr = a.shape
        Q, R = jnp.linalg.qr(a.reshape(Dl * dd, Dr))
        out.append(Q.reshape(Dl, dd, Q.shape[1]))
    out[-1] = out[-1] * R[0, 0]
    return out


can = left_canonical(mps)
iso = [jnp.einsum("asb,asc->bc", a, a) for a in can[:-1]]
print("isometries", all(bool(jnp.allclose(m, jnp.eye(m.shape[0]))) for m in iso))
print("norm preserved", bool(jnp.isclose(overlap(can, can), norm2)))


def compress(A, chi_max):
    out = []
    carry = jnp.ones((1, 1))
    errs = []
    for a in A[:-1]:
        a = jnp.einsum("ab,bsc->asc", carry, a)
        Dl, dd, Dr = a.shape
        U, S, Vt = jnp.linalg.svd(a.reshape(Dl * dd, Dr), full_matrices=False)
        k = min(chi_max, S.shape[0])
        errs.append(jnp.sum(S[k:] ** 2))
        out.append(U[:, :k].reshape(Dl, dd, k))
        carry = S[:k, None] * Vt[:k]
    out.append(jnp.einsum("ab,bsc->asc", carry, A[-1]))
    return out, jnp.array(errs)


small, errs = compress(mps, 2)  # (a canonical MPS has degenerate singular values: an arbitrary cut)
print("compressed bonds", [a.shape[2] for a in small])
fid = overlap(small, mps) ** 2 / (overlap(small, small) * overlap(mps, mps))
print("fidelity", round(float(fid), 5), "discarded", np.round(np.asarray(errs), 5))

psi = mps[0]
for a in mps[1:]:
    psi = jnp.tensordot(psi, a, axes=1)
psi = psi.reshape(-1)
print("dense state", psi.shape, bool(jnp.isclose(jnp.vdot(psi, psi), norm2)))
Zfull = jnp.kron(jnp.kron(Z, jnp.eye(2)), jnp.eye(2 ** (L - 2)))
print("dense <Z_0>", round(float(psi @ Zfull @ psi / (psi @ psi)), 5))
path, info = jnp.einsum_path("ab,asc,bsd->cd", jnp.ones((4, 4)), mps[1], mps[1], optimize="greedy")
print("einsum_path", path)
batch = jnp.einsum("...ij,...jk->...ik", jnp.ones((3, 2, 4)), jnp.ones((3, 4, 5)))
print("ellipsis einsum", batch.shape, float(batch[0, 0, 0]))


def energy(A, g=1.0):
    E = jnp.ones((1, 1))
    nrm = overlap(A, A)
    e = 0.0
    for i in range(L):
        e = e - g * expect_local(A, X, i)
    for i in range(L - 1):
        Eb = jnp.ones((1, 1))
        for j, a in enumerate(A):
            o = Z if j in (i, i + 1) else jnp.eye(d)
            Eb = jnp.einsum("ab,asc,st,btd->cd", Eb, a, o, a)
        e = e - Eb[0, 0] / nrm
    return e + 0.0 * E[0, 0]


opt = [a * 0.5 for a in mps]
vg = jax.jit(jax.value_and_grad(energy))
for _ in range(150):
    e, g = vg(opt)
    opt = [a - 0.05 * ga for a, ga in zip(opt, g)]
print("variational energy", round(float(e), 4))
Hdense = sum(-jnp.kron(jnp.kron(jnp.eye(2 ** i), X), jnp.eye(2 ** (L - i - 1))) for i in range(L))
Hdense = Hdense + sum(-jnp.kron(jnp.kron(jnp.eye(2 ** i), jnp.kron(Z, Z)), jnp.eye(2 ** (L - i - 2)))
                      for i in range(L - 1))
print("exact ground energy", round(float(jnp.linalg.eigvalsh(Hdense)[0]), 4))
