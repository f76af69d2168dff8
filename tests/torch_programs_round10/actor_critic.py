"""pytorch/examples reinforcement_learning/actor_critic on a tiny deterministic environment
written inline: a shared body with action and value heads, Categorical sampling, saved
log-probs, discounted normalised returns, smooth_l1 value loss, running reward."""
# ruff: noqa: B007, E501  (written as the published program is)


from collections import namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])
gamma = 0.99
torch.manual_seed(543)


class Corridor:
    """Walk left/right on a line of 7 cells; reward 1 at the right end, -0.01 per step."""

    def reset(self):
        self.pos = 3
        return self.obs()

    def obs(self):
        o = np.zeros(7, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(6, self.pos + (1 if action == 1 else -1)))
        done = self.pos == 6
        return self.obs(), (1.0 if done else -0.01), done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(7, 32)
        self.action_head = nn.Linear(32, 2)
        self.value_head = nn.Linear(32, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        return F.softmax(self.action_head(x), dim=-1), self.value_head(x)


model = Policy()
optimizer = optim.Adam(model.parameters(), lr=3e-2)
eps = np.finfo(np.float32).eps.item()


def select_action(state):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()


def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses, value_losses, returns = [], [], []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.rewards[:]
    del model.saved_actions[:]
    return loss.item()


env = Corridor()
running_reward = 0.0
for i_episode in range(1, 16):
    state, ep_reward = env.reset(), 0
    for t in range(1, 40):
        action = select_action(state)
        state, reward, done = env.step(action)
        model.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    if i_episode % 3 == 0:
        print(f"Episode {i_episode}\tLast reward: {ep_reward:.2f}\tsteps {t}\tAverage reward: {running_reward:.4f}\tloss {loss:.4f}")
with torch.no_grad():
    probs, values = model(torch.eye(7))
print("right prob", [round(v, 4) for v in probs[:, 1].tolist()])
print("values", [round(v, 4) for v in values.squeeze(1).tolist()])
dist = Categorical(logits=torch.tensor([[0.5, -0.5], [2.0, 0.0]]))
print("entropy", dist.entropy(), "log_prob", dist.log_prob(torch.tensor([1, 0])))
