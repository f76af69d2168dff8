"""Newton-CG for L2-regularised logistic regression written with PyTorch's functional autograd,
as in optimisation tutorials and torchmin: the loss as a function of a flat parameter vector,
Hessian-vector products from torch.autograd.functional.hvp and vhp inside a truncated
conjugate-gradient solve, an Armijo backtracking line search, a check against the dense
torch.autograd.functional.hessian / jacobian with torch.linalg.solve, torch.func.hessian and
jacrev, and the double-backward trick for a Hessian-vector product by hand."""
# ruff: noqa: E501

import torch
from torch.autograd.functional import hessian, hvp, jacobian, vhp

torch.manual_seed(4)
n, d = 80, 5
X = torch.randn(n, d, dtype=torch.float64)
true_w = torch.tensor([1.5, -2.0, 0.5, 0.0, 1.0], dtype=torch.float64)
y = (torch.rand(n, dtype=torch.float64) < torch.sigmoid(X @ true_w)).double()
lam = 0.1


def loss_fn(w):
    z = X @ w
    return torch.nn.functional.binary_cross_entropy_with_logits(z, y) + 0.5 * lam * w.dot(w)


def grad_fn(w):
    w = w.detach().requires_grad_(True)
    (g,) = torch.autograd.grad(loss_fn(w), w)
    return g


def conjugate_gradient(w, b, max_iter=20, tol=1e-10):
    x = torch.zeros_like(b)
    r = b.clone()
    p = r.clone()
    rs = r.dot(r)
    for i in range(max_iter):
        _, Ap = hvp(loss_fn, w, p)
        alpha = rs / p.dot(Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r.dot(r)
        if rs_new.sqrt() < tol:
            return x, i + 1
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, max_iter


w = torch.zeros(d, dtype=torch.float64)
for it in range(6):
    f, g = loss_fn(w), grad_fn(w)
    if g.norm() < 1e-8:
        print(f"newton {it} converged, loss {f.item():.8f}")
        break
    step, cg_iters = conjugate_gradient(w, -g)
    t = 1.0
    while loss_fn(w + t * step) > f + 1e-4 * t * g.dot(step):
        t *= 0.5
    w = w + t * step
    print(f"newton {it} loss {f.item():.8f} |grad| {g.norm().item():.3e} cg iters {cg_iters} t {t}")
print("w", [round(v, 6) for v in w.tolist()])

# the dense Hessian and the Newton step solved directly agree with CG
H = hessian(loss_fn, w)
J = jacobian(loss_fn, w)
print("H symmetric", torch.allclose(H, H.T), "H shape", tuple(H.shape), "min eig", round(torch.linalg.eigvalsh(H)[0].item(), 6))
print("jacobian == grad", torch.allclose(J, grad_fn(w)))
w0 = torch.zeros(d, dtype=torch.float64)
direct = torch.linalg.solve(hessian(loss_fn, w0), -grad_fn(w0))
cg, _ = conjugate_gradient(w0, -grad_fn(w0))
print("CG vs solve", torch.allclose(direct, cg, atol=1e-8), [round(v, 6) for v in direct.tolist()])

v = torch.arange(1.0, d + 1, dtype=torch.float64)
f_val, hv = hvp(loss_fn, w, v)
_, vh = vhp(loss_fn, w, v)
print("hvp", [round(a, 6) for a in hv.tolist()], "vhp == hvp", torch.allclose(hv, vh), "f", round(f_val.item(), 8))

# double backward by hand
wr = w.clone().requires_grad_(True)
(g,) = torch.autograd.grad(loss_fn(wr), wr, create_graph=True)
(hv2,) = torch.autograd.grad(g, wr, grad_outputs=v)
print("double backward == hvp", torch.allclose(hv2, hv))
print("hvp create_graph requires grad", hvp(loss_fn, wr, v, create_graph=True)[1].requires_grad)

# torch.func flavours
Hf = torch.func.hessian(loss_fn)(w)
print("func.hessian == hessian", torch.allclose(Hf, H), "jacrev", torch.allclose(torch.func.jacrev(loss_fn)(w), J))


def two_inputs(a, b):
    return (a.sin() * b).sum() + (a * a).sum() * b.sum()


a0, b0 = torch.tensor([0.3, -1.2]), torch.tensor([2.0, 0.5])
Hab = hessian(two_inputs, (a0, b0))
print("tuple hessian", [[tuple(h.shape) for h in row] for row in Hab])
print("d2/da2", Hab[0][0].round(decimals=5), "d2/dadb", Hab[0][1].round(decimals=5))
print("jacobian vectorize", jacobian(lambda a: a.exp() * a.sum(), a0, vectorize=True).round(decimals=5))
