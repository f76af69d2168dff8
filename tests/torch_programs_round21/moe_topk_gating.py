"""A sparsely-gated mixture of experts as in Shazeer et al. and the Switch Transformer
reimplementations (davidmrau/mixture-of-experts, fairseq's MoE layer): noisy top-k gating with a
softplus noise scale, softmax over the kept logits scattered back into a dense gate matrix,
the importance and load balancing losses (coefficient of variation squared), dispatch of
tokens to experts with nonzero/index_select and combination with index_add_, Switch-style
top-1 routing with capacity from a cumsum over one_hot, and the dropped-token count."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F


def cv_squared(x):
    eps = 1e-10
    if x.shape[0] == 1:
        return torch.tensor([0], dtype=torch.float)
    return x.float().var() / (x.float().mean() ** 2 + eps)


class MLP(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, h), nn.Linear(h, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MoE(nn.Module):
    def __init__(self, d=8, n_experts=4, k=2, noisy=True):
        super().__init__()
        self.n, self.k, self.noisy = n_experts, k, noisy
        self.experts = nn.ModuleList(MLP(d, 16) for _ in range(n_experts))
        self.w_gate = nn.Parameter(torch.randn(d, n_experts) * 0.5)
        self.w_noise = nn.Parameter(torch.zeros(d, n_experts))

    def gating(self, x):
        clean = x @ self.w_gate
        if self.noisy and self.training:
            noise_std = F.softplus(x @ self.w_noise) + 1e-2
            logits = clean + torch.randn_like(clean) * noise_std
        else:
            logits = clean
        top_logits, top_idx = logits.topk(min(self.k + 1, self.n), dim=1)
        top_k_logits, top_k_idx = top_logits[:, :self.k], top_idx[:, :self.k]
        top_k_gates = F.softmax(top_k_logits, dim=1)
        gates = torch.zeros_like(logits, requires_grad=True).scatter(1, top_k_idx, top_k_gates)
        load = (gates > 0).sum(0)
        return gates, load

    def forward(self, x, loss_coef=1e-2):
        gates, load = self.gating(x)
        importance = gates.sum(0)
        aux = (cv_squared(importance) + cv_squared(load)) * loss_coef
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            idx = torch.nonzero(gates[:, e], as_tuple=True)[0]
            if idx.numel() == 0:
                continue
            y = expert(x.index_select(0, idx)) * gates[idx, e].unsqueeze(1)
            out = out.index_add(0, idx, y)
        return out, aux, load


def switch_route(logits, capacity):
    probs = logits.softmax(-1)
    gate, expert = probs.max(-1)
    mask = F.one_hot(expert, logits.shape[-1])
    position = torch.cumsum(mask, dim=0) * mask - 1  # slot of each token within its expert
    keep = (position < capacity) & (mask > 0)
    kept = keep.any(-1)
    fraction = mask.float().mean(0)
    prob_mean = probs.mean(0)
    balance = logits.shape[-1] * (fraction * prob_mean).sum()
    return expert, position.max(-1).values, kept, gate, balance


torch.manual_seed(2)
moe = MoE()
head = nn.Linear(8, 1)
x = torch.randn(64, 8)
target = (x[:, :1] * x[:, 1:2]).tanh() + 0.5 * (x[:, 2:3] > 0).float()
opt = torch.optim.Adam(list(moe.parameters()) + list(head.parameters()), lr=1e-2)
for step in range(40):
    y, aux, load = moe(x)
    mse = F.mse_loss(head(y + x), target)
    loss = mse + aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step} mse {mse.item():.4f} aux {aux.item():.5f}")

moe.eval()
with torch.no_grad():
    gates, load = moe.gating(x[:6])
    print("gates\n", gates.round(decimals=4))
    print("rows sum to one", torch.allclose(gates.sum(1), torch.ones(6)), "nonzeros per row", (gates > 0).sum(1).tolist())
    y, aux, load = moe(x)
    print("eval load", load.tolist(), f"aux {aux.item():.5f}")
print("w_noise grad is not None", moe.w_noise.grad is not None, "w_gate grad norm", round(moe.w_gate.grad.norm().item(), 5))

logits = torch.tensor([[2.0, 0.1, 0.3], [1.5, 0.2, 0.0], [0.1, 3.0, 0.2], [2.2, 0.0, 0.1], [0.0, 0.1, 1.0], [1.0, 0.9, 0.0]], requires_grad=True)
expert, slot, kept, gate, balance = switch_route(logits, capacity=2)
print("expert", expert.tolist(), "slot", slot.tolist(), "kept", kept.tolist(), "dropped", (~kept).sum().item())
print("gate", [round(v, 4) for v in gate.tolist()], f"balance {balance.item():.4f}")
(gate * kept).sum().add(balance).backward()
print("router grad", logits.grad.round(decimals=4))
