"""Constrained and sparse weights: torch.nn.utils.parametrize and parametrizations
(weight_norm's original0/original1, orthogonal with the matrix_exp and cayley maps and
Householder, spectral_norm's power iteration in training and eval, a custom symmetric
positive-definite parametrization with right_inverse, cached()), then torch.nn.utils.prune
(l1_unstructured, random_unstructured, ln_structured, global_unstructured, a custom
PruningMethod, remove) with iterative magnitude pruning and weight rewinding, as in the
lottery-ticket experiments."""
# ruff: noqa: E501

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations, prune

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)

lin = parametrizations.weight_norm(nn.Linear(5, 4))
print("weight_norm parameters:", sorted(n for n, _ in lin.named_parameters()))
g, v = lin.parametrizations.weight.original0, lin.parametrizations.weight.original1
print("g shape", tuple(g.shape), "| w == g v/|v|:", torch.allclose(lin.weight, g * v / v.norm(dim=1, keepdim=True)))

for kind in ["matrix_exp", "cayley", "householder"]:
    q = parametrizations.orthogonal(nn.Linear(6, 6), orthogonal_map=kind)
    opt = torch.optim.SGD(q.parameters(), lr=0.1)
    target = torch.linalg.qr(torch.randn(6, 6))[0]
    for _ in range(25):
        loss = (q.weight - target).pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    W = q.weight
    print(f"orthogonal[{kind}] loss {loss.item():.8f} orthogonality error < 1e-12: {(W.T @ W - torch.eye(6)).abs().max().item() < 1e-12}")

sn = parametrizations.spectral_norm(nn.Linear(8, 5), n_power_iterations=3)
true_sigma = torch.linalg.matrix_norm(sn.parametrizations.weight.original, 2)
for _ in range(10):
    sn(torch.randn(2, 8))
print(f"spectral norm after power iterations {torch.linalg.matrix_norm(sn.weight, 2).item():.10f} (original sigma {true_sigma.item():.8f})")
sn.eval()
w_eval = sn.weight
print("eval mode weight is stable:", torch.equal(w_eval, sn.weight))


class SPD(nn.Module):
    def forward(self, X):
        L = X.tril()
        return L @ L.T + 1e-3 * torch.eye(X.shape[0])

    def right_inverse(self, A):
        return torch.linalg.cholesky(A - 1e-3 * torch.eye(A.shape[0]))


class Quadratic(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.A = nn.Parameter(torch.eye(d))

    def forward(self, x):
        return 0.5 * (x @ self.A * x).sum(-1)


quad = Quadratic(4)
P.register_parametrization(quad, "A", SPD())
print("parametrized:", P.is_parametrized(quad), P.is_parametrized(quad, "A"), "| A initialised to I + 1e-3:", torch.allclose(quad.A, torch.eye(4) * 1.001))
B = torch.randn(4, 4)
A_true = B @ B.T + torch.eye(4)
xs = torch.randn(200, 4)
ys = 0.5 * (xs @ A_true * xs).sum(-1)
opt = torch.optim.Adam(quad.parameters(), lr=0.05)
for _ in range(300):
    loss = F.mse_loss(quad(xs), ys)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"SPD fit loss {loss.item():.8f} min eigenvalue {torch.linalg.eigvalsh(quad.A)[0].item():.6f} error {(quad.A - A_true).abs().max().item():.6f}")
with P.cached():
    print("cached A is one tensor:", quad.A is quad.A)
P.remove_parametrizations(quad, "A", leave_parametrized=True)
print("after removal:", P.is_parametrized(quad), type(quad.A).__name__)

# pruning
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
prune.l1_unstructured(model[0], "weight", amount=0.3)
print("l1_unstructured buffers:", [n for n, _ in model[0].named_buffers()], "| sparsity", f"{(model[0].weight == 0).double().mean().item():.4f}")
prune.ln_structured(model[2], "weight", amount=0.25, n=2, dim=0)
print("rows pruned by ln_structured:", int((model[2].weight.abs().sum(1) == 0).sum()))
prune.random_unstructured(model[4], "bias", amount=1)
print("random_unstructured bias mask:", model[4].bias_mask.tolist())
for m in (model[0], model[2]):
    prune.remove(m, "weight")
prune.remove(model[4], "bias")
print("after remove:", [n for n, _ in model.named_parameters()][:3], "| forward pre-hooks:", sum(len(m._forward_pre_hooks) for m in model))


class ThresholdPrune(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, threshold):
        self.threshold = threshold

    def compute_mask(self, t, default_mask):
        return default_mask * (t.abs() > self.threshold)


ThresholdPrune.apply(model[4], "weight", threshold=0.1)
print(f"custom threshold pruning sparsity {(model[4].weight == 0).double().mean().item():.4f}")
prune.remove(model[4], "weight")

# lottery ticket: iterative global magnitude pruning with rewinding to the initial weights
X = torch.randn(400, 10)
Y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 0.5).long()
net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
init_state = copy.deepcopy(net.state_dict())
layers = [(net[0], "weight"), (net[2], "weight"), (net[4], "weight")]


def train(net, steps=150):
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for _ in range(steps):
        loss = F.cross_entropy(net(X), Y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item(), (net(X).argmax(1) == Y).double().mean().item()


for rnd in range(4):
    loss, acc = train(net)
    total = sum(getattr(m, n).numel() for m, n in layers)
    zeros = sum((getattr(m, n) == 0).sum().item() for m, n in layers)
    print(f"round {rnd} sparsity {zeros / total:.4f} loss {loss:.8f} acc {acc:.4f}")
    prune.global_unstructured(layers, pruning_method=prune.L1Unstructured, amount=0.4)
    with torch.no_grad():  # rewind the surviving weights to their initial values
        for i, (m, _) in enumerate(layers):
            m.weight_orig.copy_(init_state[f"{[0, 2, 4][i]}.weight"])
            m.bias.copy_(init_state[f"{[0, 2, 4][i]}.bias"])
print("state_dict keys:", sorted(net.state_dict())[:4])
