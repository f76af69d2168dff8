"""Soft actor-critic (Haarnoja et al. 2018, the spinningup / CleanRL recipe) on a toy continuous
control task written in torch (a 2-D point pushed toward a goal, actions in [-1, 1]^2): a
tanh-squashed Gaussian policy as a TransformedDistribution(Normal, TanhTransform(cache_size=1))
wrapped in Independent, reparameterised rsample and its log_prob (and the closed form
log-det correction checked against it), twin Q networks with the clipped double-Q target under
torch.no_grad, Polyak averaging of the target networks by Tensor.lerp_, automatic entropy
tuning of log_alpha against a target entropy, a tensor replay buffer sampled by torch.randint,
deterministic evaluation by tanh(mean).  In float64: reinforcement learning amplifies
rounding."""
# ruff: noqa: E501

import copy

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Independent, Normal, TransformedDistribution
from torch.distributions.transforms import TanhTransform

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


class PointEnv:
    def __init__(self, n=1, gen=None):
        self.n, self.gen = n, gen

    def reset(self):
        self.pos = torch.rand(self.n, 2, generator=self.gen) * 2 - 1
        self.goal = torch.rand(self.n, 2, generator=self.gen) * 2 - 1
        self.t = 0
        return self.obs()

    def obs(self):
        return torch.cat([self.pos, self.goal - self.pos], -1)

    def step(self, action):
        self.pos = (self.pos + 0.1 * action).clamp(-1.5, 1.5)
        self.t += 1
        dist = (self.goal - self.pos).norm(dim=-1)
        reward = -dist - 0.01 * action.pow(2).sum(-1)
        done = self.t >= 20
        return self.obs(), reward, torch.full((self.n,), float(done))


def mlp(i, o, h=64):
    return nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, o))


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = mlp(4, 4)

    def dist(self, obs):
        mean, log_std = self.net(obs).chunk(2, dim=-1)
        log_std = torch.tanh(log_std)
        log_std = -5 + 0.5 * (2 - -5) * (log_std + 1)
        return Independent(TransformedDistribution(Normal(mean, log_std.exp()), [TanhTransform(cache_size=1)]), 1), mean

    def forward(self, obs):
        d, mean = self.dist(obs)
        a = d.rsample()
        return a, d.log_prob(a), torch.tanh(mean)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q1, self.q2 = mlp(6, 1), mlp(6, 1)

    def forward(self, obs, act):
        x = torch.cat([obs, act], -1)
        return self.q1(x).squeeze(-1), self.q2(x).squeeze(-1)


class Buffer:
    def __init__(self, cap, gen):
        self.obs, self.next_obs = torch.zeros(cap, 4), torch.zeros(cap, 4)
        self.act, self.rew, self.done = torch.zeros(cap, 2), torch.zeros(cap), torch.zeros(cap)
        self.cap, self.size, self.ptr, self.gen = cap, 0, 0, gen

    def add(self, o, a, r, no, d):
        i = self.ptr
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, no, d
        self.ptr, self.size = (self.ptr + 1) % self.cap, min(self.size + 1, self.cap)

    def sample(self, b):
        idx = torch.randint(0, self.size, (b,), generator=self.gen)
        return self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx]


gen = torch.Generator().manual_seed(0)
actor, critic = Actor(), Critic()
critic_target = copy.deepcopy(critic).requires_grad_(False)
log_alpha = torch.zeros(1, requires_grad=True)
target_entropy = -2.0
a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
q_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
alpha_opt = torch.optim.Adam([log_alpha], lr=1e-3)
gamma, tau = 0.95, 0.01

obs_check = torch.randn(5, 4)
d, mean = actor.dist(obs_check)
a = d.rsample()
u = torch.atanh(a.clamp(-1 + 1e-6, 1 - 1e-6))
base = d.base_dist.base_dist
manual = (base.log_prob(u) - 2 * (torch.log(torch.tensor(2.0)) - u - F.softplus(-2 * u))).sum(-1)
print("event shape", tuple(d.event_shape), "batch", tuple(d.batch_shape), "tanh log_prob", torch.allclose(d.log_prob(a), manual, atol=1e-6))

env = PointEnv(gen=gen)
buf = Buffer(2000, gen)
obs = env.reset()
ep_ret, returns = 0.0, []
for step in range(600):
    if step < 100:
        act = torch.rand(1, 2, generator=gen) * 2 - 1
    else:
        with torch.no_grad():
            act, _, _ = actor(obs)
    next_obs, rew, done = env.step(act)
    buf.add(obs[0], act[0], rew[0], next_obs[0], done[0])
    ep_ret += rew.item()
    obs = next_obs
    if done.item():
        returns.append(ep_ret)
        obs, ep_ret = env.reset(), 0.0
    if step >= 100:
        o, a, r, no, dn = buf.sample(64)
        with torch.no_grad():
            na, nlogp, _ = actor(no)
            tq1, tq2 = critic_target(no, na)
            target = r + gamma * (1 - dn) * (torch.min(tq1, tq2) - log_alpha.exp() * nlogp)
        q1, q2 = critic(o, a)
        q_loss = F.mse_loss(q1, target) + F.mse_loss(q2, target)
        q_opt.zero_grad()
        q_loss.backward()
        q_opt.step()
        pa, logp, _ = actor(o)
        q1p, q2p = critic(o, pa)
        pi_loss = (log_alpha.exp().detach() * logp - torch.min(q1p, q2p)).mean()
        a_opt.zero_grad()
        pi_loss.backward()
        a_opt.step()
        alpha_loss = -(log_alpha * (logp.detach() + target_entropy)).mean()
        alpha_opt.zero_grad()
        alpha_loss.backward()
        alpha_opt.step()
        with torch.no_grad():
            for p, tp in zip(critic.parameters(), critic_target.parameters()):
                tp.lerp_(p, tau)
        if step % 100 == 0 or step == 599:
            print(f"step {step} q_loss {q_loss.item():.4f} pi_loss {pi_loss.item():.4f} alpha {log_alpha.exp().item():.4f} entropy {-logp.mean().item():.3f} last return {returns[-1]:.3f}")

print("episodes", len(returns), "first", round(sum(returns[:5]) / 5, 3), "last", round(sum(returns[-5:]) / 5, 3))
eval_env = PointEnv(n=64, gen=torch.Generator().manual_seed(3))
o = eval_env.reset()
total = torch.zeros(64)
with torch.no_grad():
    for _ in range(20):
        _, _, act = actor(o)
        o, r, _ = eval_env.step(act)
        total += r
    print(f"deterministic eval return {total.mean().item():.3f} final distance {(eval_env.goal - eval_env.pos).norm(dim=-1).mean().item():.3f}")
    print("target lags critic", [round((p - tp).abs().mean().item(), 4) for p, tp in list(zip(critic.parameters(), critic_target.parameters()))[:3]])
