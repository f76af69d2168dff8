"""A tabular classifier as in Kaggle notebooks: missing values handled with isnan,
nan_to_num and per-column nanmean imputation, standardisation with mean/std over the train
split, categorical columns through nn.Embedding concatenated with the numeric ones,
BatchNorm1d + Dropout MLP, class-weighted CrossEntropyLoss with ignore_index, early stopping on
a validation loss, and precision/recall/F1 from a confusion matrix built with bincount."""
# ruff: noqa: B007, E501  (written as the published program is)

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n = 120
num = torch.randn(n, 3)
num[torch.rand(n, 3) < 0.1] = float("nan")
cat = torch.randint(0, 5, (n, 2))
score = torch.nan_to_num(num[:, 0], nan=0.0) + 0.5 * (cat[:, 0] == 2).float() - 0.3 * torch.nan_to_num(num[:, 2])
y = torch.bucketize(score, torch.tensor([-0.5, 0.5]))
y[::17] = -100
print(torch.isnan(num).sum(0), torch.bincount(y[y >= 0]), (y == -100).sum())
col_mean = torch.nanmean(num, dim=0)
print(col_mean, torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=9.0))
num = torch.where(torch.isnan(num), col_mean.expand_as(num), num)
tr, va = torch.arange(0, 90), torch.arange(90, n)
mu, sd = num[tr].mean(0), num[tr].std(0)
num = (num - mu) / sd
print(mu, sd, num[tr].mean(0).abs().max() < 1e-6)


class TabNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(5, 3) for _ in range(2)])
        self.mlp = nn.Sequential(nn.Linear(3 + 6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))

    def forward(self, xn, xc):
        e = torch.cat([emb(xc[:, i]) for i, emb in enumerate(self.embs)], 1)
        return self.mlp(torch.cat([xn, e], 1))


model = TabNet()
counts = torch.bincount(y[tr][y[tr] >= 0], minlength=3).float()
weights = counts.sum() / (3 * counts)
print(weights)
crit = nn.CrossEntropyLoss(weight=weights, ignore_index=-100)
opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=1e-4)
best, best_state, patience, bad = float("inf"), None, 5, 0
for epoch in range(60):
    model.train()
    perm = torch.randperm(len(tr))
    for i in range(0, len(tr), 30):
        idx = tr[perm[i:i + 30]]
        loss = crit(model(num[idx], cat[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        vloss = crit(model(num[va], cat[va]), y[va]).item()
    if vloss < best - 1e-4:
        best, best_state, bad = vloss, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
    if epoch % 10 == 0:
        print(epoch, round(loss.item(), 4), round(vloss, 4))
    if bad >= patience:
        print("early stop at", epoch, "best", round(best, 4))
        break
model.load_state_dict(best_state)
model.eval()
with torch.no_grad():
    pred = model(num, cat).argmax(1)
m = y >= 0
cm = torch.bincount(y[m] * 3 + pred[m], minlength=9).reshape(3, 3)
print(cm)
tp = cm.diag().float()
precision = tp / cm.sum(0).clamp(min=1)
recall = tp / cm.sum(1).clamp(min=1)
f1 = 2 * precision * recall / (precision + recall).clamp(min=1e-12)
print(precision, recall, f1, f1.mean())
print(F.softmax(model(num[:3], cat[:3]), dim=1).round(decimals=3), model.mlp[1].running_mean[:4], model.mlp[1].num_batches_tracked)
