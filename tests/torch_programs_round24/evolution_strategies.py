"""OpenAI-style evolution strategies (Salimans et al. 2017) on a cart-pole balancing task whose
dynamics are written in torch: a small tanh policy flattened by
torch.nn.utils.parameters_to_vector and written back by vector_to_parameters, antithetic
Gaussian perturbations from a seeded Generator, a whole population evaluated at once by
torch.func.functional_call under vmap, centered-rank fitness shaping (argsort of argsort),
the gradient estimate fed to torch.optim.Adam through .grad of the flat vector with weight
decay; compared with a (1+1)-ES with the 1/5th success rule on the same budget."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
from torch.func import functional_call, vmap
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # 200-step chaotic rollouts would amplify float32 rounding
G, MC, MP, L, DT = 9.8, 1.0, 0.1, 0.5, 0.02


def step(state, force):
    x, v, th, om = state.unbind(-1)
    total, pml = MC + MP, MP * L
    tmp = (force + pml * om ** 2 * torch.sin(th)) / total
    th_acc = (G * torch.sin(th) - torch.cos(th) * tmp) / (L * (4.0 / 3.0 - MP * torch.cos(th) ** 2 / total))
    x_acc = tmp - pml * th_acc * torch.cos(th) / total
    return torch.stack([x + DT * v, v + DT * x_acc, th + DT * om, om + DT * th_acc], -1)


policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1), nn.Tanh())
names = [n for n, _ in policy.named_parameters()]
shapes = [p.shape for p in policy.parameters()]


def unflatten(theta):
    out, i = {}, 0
    for n, s in zip(names, shapes):
        out[n] = theta[i:i + math.prod(s)].view(s)
        i += math.prod(s)
    return out


def episode_return(theta, starts, horizon=200):
    params = unflatten(theta)
    state, alive, ret = starts, torch.ones(starts.shape[0]), torch.zeros(starts.shape[0])
    for _ in range(horizon):
        force = 10.0 * functional_call(policy, params, (state,)).squeeze(-1)
        state = step(state, force)
        ok = (state[:, 0].abs() < 2.4) & (state[:, 2].abs() < 0.21)
        alive = alive * ok.to(alive)
        ret = ret + alive - 0.01 * alive * state[:, 0] ** 2
    return ret.mean()


def centered_ranks(x):
    ranks = torch.argsort(torch.argsort(x)).to(x)
    return ranks / (len(x) - 1) - 0.5


gen = torch.Generator().manual_seed(0)
starts = (torch.rand(8, 4, generator=gen) - 0.5) * 0.1
theta = parameters_to_vector(policy.parameters()).detach().clone()
print(f"{theta.numel()} parameters, initial return {episode_return(theta, starts).item():.3f}")

batched_return = vmap(episode_return, in_dims=(0, None))
theta_es = theta.clone().requires_grad_(True)
opt = torch.optim.Adam([theta_es], lr=0.03, weight_decay=0.005)
sigma, half_pop = 0.1, 16
for it in range(30):
    eps = torch.randn(half_pop, theta.numel(), generator=gen)
    eps = torch.cat([eps, -eps])
    with torch.no_grad():
        fitness = batched_return(theta_es + sigma * eps, starts)
    shaped = centered_ranks(fitness)
    theta_es.grad = -(shaped @ eps) / (len(eps) * sigma)
    opt.step()
    if it % 6 == 5:
        with torch.no_grad():
            print(f"ES iter {it + 1:2d} pop mean {fitness.mean().item():8.3f} best {fitness.max().item():8.3f} center {episode_return(theta_es, starts).item():8.3f}")

theta_11, best, step_size = theta.clone(), episode_return(theta, starts).item(), 0.3
for _ in range(30 * 2 * half_pop // 16):
    cand = theta_11 + step_size * torch.randn(theta.numel(), generator=gen)
    f = episode_return(cand, starts).item()
    if f >= best:
        theta_11, best = cand, f
        step_size *= 1.5
    else:
        step_size *= 1.5 ** (-1 / 4)
print(f"(1+1)-ES best {best:.3f} final step size {step_size:.4f}")

vector_to_parameters(theta_es.detach(), policy.parameters())
print("policy weights written back:", torch.equal(parameters_to_vector(policy.parameters()), theta_es.detach()))
test_starts = (torch.rand(16, 4, generator=gen) - 0.5) * 0.1
with torch.no_grad():
    print(f"held-out return ES {episode_return(theta_es, test_starts, 300).item():.3f} (1+1) {episode_return(theta_11, test_starts, 300).item():.3f}")
    print("actions at the upright state:", policy(torch.zeros(1, 4)).item().__round__(6), policy(torch.tensor([[0.0, 0.0, 0.1, 0.0]])).item().__round__(6))
