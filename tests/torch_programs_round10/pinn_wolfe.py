"""A physics-informed network in the style of published PINN scripts: derivatives of the
network with respect to its inputs by torch.autograd.grad(create_graph=True) (u_x, u_xx), a
residual loss of u'' = -pi^2 sin(pi x) with boundary terms, Adam then LBFGS with
line_search_fn="strong_wolfe", in float64."""
# ruff: noqa: E501  (written as the published program is)


import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
        for m in self.net:
            if isinstance(m, nn.Linear):
                nn.init.xavier_normal_(m.weight)
                nn.init.zeros_(m.bias)

    def forward(self, x):
        return self.net(x)


model = PINN()
x = torch.linspace(0, 1, 21).view(-1, 1).requires_grad_(True)
xb = torch.tensor([[0.0], [1.0]])


def loss_fn():
    u = model(x)
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    residual = u_xx + math.pi ** 2 * torch.sin(math.pi * x)
    return residual.pow(2).mean() + model(xb).pow(2).mean()


print("default dtype", torch.get_default_dtype(), next(model.parameters()).dtype)
adam = torch.optim.Adam(model.parameters(), lr=1e-2)
for it in range(60):
    adam.zero_grad()
    loss = loss_fn()
    loss.backward()
    adam.step()
    if it % 20 == 0:
        print(f"adam {it} loss {loss.item():.8f}")
lbfgs = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=15, history_size=20, tolerance_grad=1e-9,
                          tolerance_change=1e-12, line_search_fn="strong_wolfe")
evals = []


def closure():
    lbfgs.zero_grad()
    loss = loss_fn()
    loss.backward()
    evals.append(loss.item())
    return loss


for outer in range(2):
    lbfgs.step(closure)
    print(f"lbfgs step {outer} evals {len(evals)} loss {evals[-1]:.3e}")
state = lbfgs.state[lbfgs.param_groups[0]["params"][0]]
print("n_iter", state["n_iter"], "func_evals", state["func_evals"])
xt = torch.tensor([[0.25], [0.5], [0.75]])
with torch.no_grad():
    pred = model(xt)
print("u", [round(v, 4) for v in pred.flatten().tolist()], "exact", [round(math.sin(math.pi * v), 4) for v in (0.25, 0.5, 0.75)])
