"""Second-order optimisation with torch.autograd.functional: Newton's method for L2-regularised
logistic regression with the Hessian from autograd.functional.hessian (checked against X^T S X),
a truncated-Newton (Newton-CG) step whose conjugate gradient uses Hessian-vector products from
hvp and vhp, Gauss-Newton with jacobian(vectorize=True) of the residuals of a nonlinear least
squares fit (Levenberg-Marquardt damping), vjp/jvp against jacobian, and a hyper-gradient of
the validation loss with respect to the regularisation strength through an unrolled Newton
step (create_graph=True all the way)."""
# ruff: noqa: E501

import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

n, d = 120, 5
X = torch.randn(n, d)
w_true = torch.tensor([1.5, -2.0, 0.5, 0.0, 1.0])
y = (torch.rand(n) < torch.sigmoid(X @ w_true)).double()
Xv = torch.randn(60, d)
yv = (torch.rand(60) < torch.sigmoid(Xv @ w_true)).double()


def nll(w, lam=torch.tensor(0.1), X=X, y=y):
    z = X @ w
    return torch.nn.functional.softplus(z).sum() / len(y) - (y * z).sum() / len(y) + 0.5 * lam * w.dot(w)


w = torch.zeros(d)
for it in range(6):
    g = torch.autograd.functional.jacobian(nll, w)
    H = hessian(nll, w)
    w = w - torch.linalg.solve(H, g)
    gn = g.norm().item()
    print(f"newton {it} loss {nll(w).item():.12f} |g| " + (f"{gn:.3e}" if gn > 1e-8 else "< 1e-8"))
p = torch.sigmoid(X @ w)
H_formula = X.T @ (X * (p * (1 - p))[:, None]) / n + 0.1 * torch.eye(d)
print("hessian equals X^T S X / n + lam I:", torch.allclose(hessian(nll, w), H_formula, atol=1e-12))
print("w:", w)

# Newton-CG with Hessian-vector products
def newton_cg_step(w, iters=10):
    g = jacobian(nll, w)
    x = torch.zeros_like(w)
    r = -g
    p = r.clone()
    for k in range(iters):
        _, Hp = hvp(nll, w, p)
        _, pH = vhp(nll, w, p)
        assert torch.allclose(Hp, pH)
        alpha = r.dot(r) / p.dot(Hp)
        x = x + alpha * p
        r_new = r - alpha * Hp
        if r_new.norm() < 1e-10:
            return x, k + 1
        p = r_new + (r_new.dot(r_new) / r.dot(r)) * p
        r = r_new
    return x, iters


w2 = torch.zeros(d)
for it in range(4):
    step, k = newton_cg_step(w2)
    w2 = w2 + step
    print(f"newton-cg {it} cg iterations {k} loss {nll(w2).item():.12f}")
print("newton-cg matches newton:", torch.allclose(w, w2, atol=1e-8))

# vjp / jvp against the jacobian of a vector function
def model(theta, t=torch.linspace(0, 3, 25)):
    a, b, c = theta
    return a * torch.exp(-b * t) * torch.cos(c * t)


theta0 = torch.tensor([2.0, 0.7, 3.0])
obs = model(theta0) + 0.02 * torch.randn(25)
J = jacobian(model, theta0)
u = torch.randn(25)
v = torch.randn(3)
print("vjp == u^T J:", torch.allclose(vjp(model, theta0, u)[1], u @ J), "| jvp == J v:", torch.allclose(jvp(model, theta0, v)[1], J @ v))
Jv = jacobian(model, theta0, vectorize=True)
print("vectorized jacobian matches:", torch.allclose(J, Jv), tuple(J.shape))

theta = torch.tensor([1.0, 0.3, 2.6])
mu = 1e-2
for it in range(6):
    r = model(theta) - obs
    Jr = jacobian(lambda th: model(th) - obs, theta, vectorize=True)
    A = Jr.T @ Jr + mu * torch.diag(torch.diag(Jr.T @ Jr))
    step = torch.linalg.solve(A, -Jr.T @ r)
    new = theta + step
    if (model(new) - obs).pow(2).sum() < r.pow(2).sum():
        theta, mu = new, mu / 3
    else:
        mu = mu * 4
    if it % 3 == 2:
        print(f"LM {it} cost {(model(theta) - obs).pow(2).sum().item():.10f} mu {mu:.3e} theta {[round(t, 6) for t in theta.tolist()]}")

# hyper-gradient of the validation loss through one unrolled Newton step
log_lam = torch.tensor(-1.0, requires_grad=True)
hopt = torch.optim.Adam([log_lam], lr=0.1)
for step in range(30):
    lam = log_lam.exp()
    w0 = w.detach()
    g = jacobian(lambda ww: nll(ww, lam), w0, create_graph=True)
    Hh = hessian(lambda ww: nll(ww, lam), w0, create_graph=True)
    w_new = w0 - torch.linalg.solve(Hh, g)
    val = nll(w_new, torch.tensor(0.0), Xv, yv)
    hopt.zero_grad()
    val.backward()
    if step % 10 == 0:
        print(f"hyper {step} lambda {lam.item():.8f} val {val.item():.10f} dval/dloglam {log_lam.grad.item():.8f}")
    hopt.step()
print(f"final lambda {log_lam.exp().item():.8f}")
