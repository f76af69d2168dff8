"""Proximal policy optimisation on a small deterministic grid corridor, in the style of the
PPO tutorials: an actor-critic with a shared trunk, Categorical sampling under a seed,
generalized advantage estimation computed backwards, advantage normalisation, the clipped
surrogate with an entropy bonus and a value loss, several epochs over shuffled minibatches
(randperm, split), approximate KL and clip fraction, and orthogonal initialisation."""
# ruff: noqa: E501

import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
N_STATES, N_ACTIONS, HORIZON = 6, 2, 32


def env_step(state, action):
    nxt = min(max(state + (1 if action == 1 else -1), 0), N_STATES - 1)
    done = nxt == N_STATES - 1
    return nxt, (1.0 if done else -0.05), done


def obs(state):
    return nn.functional.one_hot(torch.tensor(state), N_STATES).float()


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_STATES, 32), nn.Tanh())
        self.pi = nn.Linear(32, N_ACTIONS)
        self.v = nn.Linear(32, 1)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight, gain=2 ** 0.5)
                nn.init.zeros_(m.bias)
        nn.init.orthogonal_(self.pi.weight, gain=0.01)

    def forward(self, x):
        h = self.trunk(x)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        next_v = last_value if t == len(rewards) - 1 else values[t + 1]
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv, adv + values


net = ActorCritic()
print(net.pi.weight.norm().item().__round__(5), net.trunk[0].weight[:2, :3])
opt = torch.optim.Adam(net.parameters(), lr=3e-3, eps=1e-5)
state = 0
for it in range(6):
    obs_b, act_b, logp_b, rew_b, done_b, val_b = [], [], [], [], [], []
    episodes = 0
    for _t in range(HORIZON):
        o = obs(state)
        with torch.no_grad():
            dist, v = net(o)
            a = dist.sample()
        nxt, r, done = env_step(state, int(a))
        obs_b.append(o)
        act_b.append(a)
        logp_b.append(dist.log_prob(a))
        rew_b.append(r)
        done_b.append(float(done))
        val_b.append(v)
        state = 0 if done else nxt
        episodes += done
    with torch.no_grad():
        _, last_v = net(obs(state))
    obs_t, act_t, old_logp = torch.stack(obs_b), torch.stack(act_b), torch.stack(logp_b)
    adv, ret = gae(torch.tensor(rew_b), torch.stack(val_b), torch.tensor(done_b), last_v)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    stats = []
    for _epoch in range(3):
        perm = torch.randperm(HORIZON)
        for idx in perm.split(8):
            dist, v = net(obs_t[idx])
            logp = dist.log_prob(act_t[idx])
            ratio = (logp - old_logp[idx]).exp()
            s1 = ratio * adv[idx]
            s2 = torch.clamp(ratio, 0.8, 1.2) * adv[idx]
            pg = -torch.min(s1, s2).mean()
            vloss = 0.5 * (ret[idx] - v).pow(2).mean()
            ent = dist.entropy().mean()
            loss = pg + 0.5 * vloss - 0.01 * ent
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - (logp - old_logp[idx])).mean()
                clipfrac = ((ratio - 1).abs() > 0.2).float().mean()
            stats.append(torch.stack([pg, vloss, ent, approx_kl, clipfrac]))
    s = torch.stack(stats).mean(0)
    print(f"iter {it} episodes {episodes} return {sum(rew_b):.2f} pg {s[0]:.4f} v {s[1]:.4f} ent {s[2]:.4f} kl {s[3]:.5f} clip {s[4]:.3f}")

with torch.no_grad():
    dist, v = net(torch.eye(N_STATES))
    print(dist.probs.round(decimals=3), v.round(decimals=3))
