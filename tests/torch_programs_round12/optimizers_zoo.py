"""Every optimizer of torch.optim on the Rosenbrock function and on a small regression, as in
optimizer-comparison notebooks: SGD (nesterov, dampening), Adam (amsgrad, maximize on the
negated loss), AdamW, Adamax, NAdam (momentum_decay, decoupled_weight_decay), RAdam
(decoupled), Adagrad (lr_decay, initial_accumulator_value), Adadelta, RMSprop (centered,
momentum), ASGD, Rprop (etas, step_sizes) and LBFGS; final points, losses and the state keys."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch


def rosen(p):
    x, y = p
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2


configs = [
    ("SGD", dict(lr=1e-3, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=1e-3, momentum=0.9, dampening=0.1, weight_decay=1e-3)),
    ("Adam", dict(lr=0.05, amsgrad=True)),
    ("AdamW", dict(lr=0.05, weight_decay=0.1)),
    ("Adamax", dict(lr=0.05)),
    ("NAdam", dict(lr=0.05, momentum_decay=0.004)),
    ("NAdam", dict(lr=0.05, weight_decay=0.01, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.05)),
    ("RAdam", dict(lr=0.05, weight_decay=0.01, decoupled_weight_decay=True)),
    ("Adagrad", dict(lr=0.5, lr_decay=0.01, initial_accumulator_value=0.1)),
    ("Adadelta", dict(lr=1.0, rho=0.9)),
    ("RMSprop", dict(lr=0.005, centered=True, momentum=0.5)),
    ("ASGD", dict(lr=1e-3, t0=10)),
    ("Rprop", dict(lr=0.01, etas=(0.4, 1.3), step_sizes=(1e-5, 1.0))),
]
for name, kw in configs:
    p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = getattr(torch.optim, name)([p], **kw)
    for i in range(100):
        opt.zero_grad()
        loss = rosen(p)
        loss.backward()
        opt.step()
    print(f"{name:8s} {p.detach().numpy().round(4)} {rosen(p).item():.5f} {sorted(opt.state[p])}")

p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([p], lr=0.05, maximize=True)
for i in range(50):
    opt.zero_grad()
    (-rosen(p)).backward()
    opt.step()
print("maximize", p.detach(), rosen(p).item())

p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
lb = torch.optim.LBFGS([p], lr=1, max_iter=20, history_size=5)


def closure():
    lb.zero_grad()
    loss = rosen(p)
    loss.backward()
    return loss


for i in range(3):
    print("LBFGS", round(lb.step(closure).item(), 5), p.detach())
print(lb.state[p]["func_evals"], lb.state[p]["n_iter"])

torch.manual_seed(0)
X = torch.randn(64, 5)
y = X @ torch.tensor([1.0, -2.0, 0.0, 0.5, 3.0]) + 0.1 * torch.randn(64)
for name in ["SGD", "Adam", "NAdam", "RAdam", "Adagrad", "RMSprop", "Adadelta", "Adamax", "ASGD", "Rprop"]:
    torch.manual_seed(1)
    model = torch.nn.Linear(5, 1)
    opt = getattr(torch.optim, name)(model.parameters(), **({"lr": 0.05} if name != "Adadelta" else {}))
    for epoch in range(30):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(X).squeeze(1), y)
        loss.backward()
        opt.step()
    print(name, f"{loss.item():.5f}", model.weight.detach().squeeze().numpy().round(3))
print(opt.state_dict()["param_groups"][0]["etas"], opt.state_dict()["param_groups"][0]["step_sizes"])
