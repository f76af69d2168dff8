"""The reinforcement learning (DQN) tutorial on a tiny grid environment written inline: replay
memory with namedtuple transitions, epsilon-greedy with exponential decay, a policy and a
target network, gather of the taken actions, max over next states with a non-final mask,
SmoothL1Loss, AdamW(amsgrad=True), clip_grad_value_, soft target updates via state_dict."""
# ruff: noqa: B007, E501  (written as the published program is)


import math
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.optim as optim

random.seed(3)
torch.manual_seed(3)
Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class Grid:
    """A 4x4 grid: start at (0, 0), goal at (3, 3); actions up/down/left/right."""

    def reset(self):
        self.pos = [0, 0]
        return self.state()

    def state(self):
        s = torch.zeros(16)
        s[self.pos[0] * 4 + self.pos[1]] = 1.0
        return s

    def step(self, a):
        dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][a]
        self.pos = [min(3, max(0, self.pos[0] + dr)), min(3, max(0, self.pos[1] + dc))]
        done = self.pos == [3, 3]
        return self.state(), (1.0 if done else -0.05), done


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 32)
        self.layer2 = nn.Linear(32, 32)
        self.layer3 = nn.Linear(32, n_actions)

    def forward(self, x):
        x = torch.relu(self.layer1(x))
        x = torch.relu(self.layer2(x))
        return self.layer3(x)


BATCH_SIZE, GAMMA, EPS_START, EPS_END, EPS_DECAY, TAU, LR = 16, 0.9, 0.9, 0.05, 200, 0.05, 1e-3
policy_net = DQN(16, 4)
target_net = DQN(16, 4)
target_net.load_state_dict(policy_net.state_dict())
optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(1000)
steps_done = 0


def select_action(state):
    global steps_done
    sample = random.random()
    eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
    steps_done += 1
    if sample > eps_threshold:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    return torch.tensor([[random.randrange(4)]], dtype=torch.long)


def optimize_model():
    if len(memory) < BATCH_SIZE:
        return None
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss.item()


env = Grid()
for i_episode in range(12):
    state = env.reset().unsqueeze(0)
    losses = []
    for t in range(30):
        action = select_action(state)
        observation, reward, terminated = env.step(action.item())
        reward = torch.tensor([reward])
        next_state = None if terminated else observation.unsqueeze(0)
        memory.push(state, action, next_state, reward)
        state = next_state
        loss = optimize_model()
        if loss is not None:
            losses.append(loss)
        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)
        target_net.load_state_dict(target_net_state_dict)
        if terminated:
            break
    mean_loss = sum(losses) / len(losses) if losses else float("nan")
    print(f"episode {i_episode} steps {t + 1} mean loss {mean_loss:.5f}")
with torch.no_grad():
    q = policy_net(torch.eye(16))
print("greedy actions", q.argmax(1).tolist())
print("q[0]", q[0])
print("target fc3 bias", target_net.layer3.bias)
