"""Knowledge distillation (Hinton et al.) from a teacher to a smaller student: softened
log-probabilities compared with F.kl_div(log_target=True, reduction="batchmean") times T^2,
mixed with the hard-label loss; the student's hidden layer kept orthogonal by
nn.utils.parametrizations.orthogonal (checked W^T W = I through training), label smoothing,
and the teacher/student agreement."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(21)
N, D, C = 96, 6, 4
x = torch.randn(N, D)
w_true = torch.randn(D, C)
y = (x @ w_true + 0.3 * torch.randn(N, C)).argmax(1)

teacher = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, C))
opt = torch.optim.Adam(teacher.parameters(), lr=0.02)
for _ in range(60):
    loss = F.cross_entropy(teacher(x), y, label_smoothing=0.05)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("teacher loss", round(loss.item(), 4), "acc", round((teacher(x).argmax(1) == y).float().mean().item(), 4))


class Student(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(D, 8)
        self.hidden = parametrizations.orthogonal(nn.Linear(8, 8))
        self.out = nn.Linear(8, C)

    def forward(self, x):
        return self.out(torch.tanh(self.hidden(torch.tanh(self.inp(x)))))


student = Student()
print("parametrized", parametrize.is_parametrized(student.hidden), parametrize.is_parametrized(student.hidden, "weight"))
W = student.hidden.weight
print("orthogonal at init", round((W.T @ W - torch.eye(8)).abs().max().item(), 5) < 1e-5)


def distill_loss(s_logits, t_logits, y, T=3.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(s_logits / T, 1), F.log_softmax(t_logits / T, 1), reduction="batchmean", log_target=True) * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(s_logits, y), soft


opt = torch.optim.SGD(student.parameters(), lr=0.2, momentum=0.9)
with torch.no_grad():
    t_logits = teacher(x)
for step in range(120):
    s_logits = student(x)
    loss, soft = distill_loss(s_logits, t_logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 30 == 0:
        print(f"step {step} loss {loss.item():.4f} soft {soft.item():.4f}")
W = student.hidden.weight
print("orthogonal after training", round((W.T @ W - torch.eye(8)).abs().max().item(), 5) < 1e-4)
with torch.no_grad():
    s_logits = student(x)
    print("student acc", round((s_logits.argmax(1) == y).float().mean().item(), 4), "agreement", round((s_logits.argmax(1) == t_logits.argmax(1)).float().mean().item(), 4))
    p = F.log_softmax(s_logits, 1)
    q = F.log_softmax(t_logits, 1)
    print("kl sum/mean/none", round(F.kl_div(p, q, reduction="sum", log_target=True).item(), 2),
          round(F.kl_div(p, q, reduction="mean", log_target=True).item(), 6),
          [round(v, 5) for v in F.kl_div(p, q, reduction="none", log_target=True)[0].tolist()])
    print("kl prob target", round(F.kl_div(p, q.exp(), reduction="batchmean").item(), 5), round(nn.KLDivLoss(reduction="batchmean", log_target=True)(p, q).item(), 5))
    print("original", tuple(student.hidden.parametrizations.weight.original.shape))
parametrize.remove_parametrizations(student.hidden, "weight", leave_parametrized=True)
print("removed", parametrize.is_parametrized(student.hidden), type(student.hidden.weight).__name__, round(student.hidden.weight.sum().item(), 4))
