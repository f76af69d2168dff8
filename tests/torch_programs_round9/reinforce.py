"""REINFORCE (pytorch/examples reinforcement_learning/reinforce.py) on a hand-written corridor
environment: Categorical policy, log_prob, discounted returns, normalisation, entropy."""

import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
random.seed(543)


class Corridor:
    """Walk from cell 0 to cell 5; action 1 moves right, action 0 left; -0.1 per step."""

    def reset(self):
        self.pos = 0
        self.t = 0
        return self.obs()

    def obs(self):
        o = torch.zeros(6)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.t += 1
        self.pos = max(0, min(5, self.pos + (1 if action == 1 else -1)))
        done = self.pos == 5 or self.t >= 20
        reward = 1.0 if self.pos == 5 else -0.1
        return self.obs(), reward, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(6, 16)
        self.dropout = nn.Dropout(p=0.1)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        return F.softmax(self.affine2(x), dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=3e-2)
eps = torch.finfo(torch.float32).eps
gamma = 0.99


def select_action(state):
    state = state.unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item(), m.entropy()


def finish_episode():
    R = 0
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    policy_loss = []
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss.item()


env = Corridor()
running_reward = 0.0
for i_episode in range(1, 16):
    state, ep_reward = env.reset(), 0.0
    for t in range(1, 30):  # noqa: B007 (t is printed after the loop, as in pytorch/examples)
        action, ent = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    print(
        f"Episode {i_episode}\tsteps {t}\tLast reward: {ep_reward:.2f}\t"
        f"Average reward: {running_reward:.4f}\tloss {loss:.4f}\tentropy {ent.item():.4f}"
    )

policy.eval()
with torch.no_grad():
    probs = policy(torch.eye(6))
print(probs)
m = Categorical(logits=torch.tensor([[0.5, -1.0, 2.0], [0.0, 0.0, 0.0]]))
print(m.probs, m.entropy(), m.log_prob(torch.tensor([2, 1])))
print(m.sample((3,)))
print(Categorical(probs=torch.tensor([0.2, 0.3, 0.5])).enumerate_support())
