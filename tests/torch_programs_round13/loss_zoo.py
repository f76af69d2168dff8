"""Every loss of torch.nn as a "loss functions explained" notebook prints them: each with
reduction none/mean/sum, class weights, ignore_index, label smoothing, probabilities as
targets, the margin/ranking/embedding losses, KLDiv with log_target, Poisson and Gaussian
NLL, Huber vs SmoothL1 with beta, CTC loss on a toy alignment, and the gradients of several
of them with respect to the inputs."""
# ruff: noqa: E501

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(6, 4, requires_grad=True)
target = torch.tensor([0, 3, 1, 1, 2, 3])
w = torch.tensor([1.0, 2.0, 0.5, 1.5])
for red in ["none", "mean", "sum"]:
    print(red, F.cross_entropy(logits, target, reduction=red), F.cross_entropy(logits, target, weight=w, reduction=red))
print(F.cross_entropy(logits, target, ignore_index=1), F.cross_entropy(logits, target, weight=w, ignore_index=3))
print(F.cross_entropy(logits, target, label_smoothing=0.2), F.cross_entropy(logits, target, weight=w, label_smoothing=0.1))
probs = torch.softmax(torch.randn(6, 4), 1)
print(F.cross_entropy(logits, probs), F.cross_entropy(logits, probs, weight=w, label_smoothing=0.1, reduction="sum"))
img = torch.randn(2, 3, 4, 4)
seg = torch.randint(0, 3, (2, 4, 4))
seg[0, 0, 0] = -100
print(F.cross_entropy(img, seg), F.nll_loss(F.log_softmax(img, 1), seg, weight=torch.tensor([0.2, 0.3, 0.5])))
print(F.nll_loss(F.log_softmax(logits, 1), target, reduction="none"))

x = torch.randn(5, 3)
y = torch.randn(5, 3)
print(F.mse_loss(x, y), F.l1_loss(x, y, reduction="sum"), F.smooth_l1_loss(x, y, beta=0.5), F.huber_loss(x, y, delta=0.5), F.smooth_l1_loss(x, y, beta=0.0))
print(F.huber_loss(x, y, reduction="none", delta=2.0))
p = torch.sigmoid(torch.randn(5, 3))
t = torch.randint(0, 2, (5, 3)).float()
print(F.binary_cross_entropy(p, t), F.binary_cross_entropy(p, t, weight=torch.tensor([1.0, 2.0, 3.0])))
z = torch.randn(5, 3)
print(F.binary_cross_entropy_with_logits(z, t, pos_weight=torch.tensor([3.0, 1.0, 0.5])), F.binary_cross_entropy_with_logits(z, t, reduction="none"))
print(F.multilabel_soft_margin_loss(z, t), F.soft_margin_loss(z, 2 * t - 1), F.multilabel_margin_loss(z, torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [0, -1, 1], [1, 0, -1]])))
print(F.multi_margin_loss(logits, target), F.multi_margin_loss(logits, target, p=2, margin=0.5, weight=w))
lp = F.log_softmax(torch.randn(4, 5), 1)
tp = F.softmax(torch.randn(4, 5), 1)
print(F.kl_div(lp, tp, reduction="batchmean"), F.kl_div(lp, tp.log(), reduction="sum", log_target=True), F.kl_div(lp, tp, reduction="none").sum(1))
rate = torch.rand(6) * 3
counts = torch.poisson(torch.full((6,), 2.0))
print(counts, F.poisson_nll_loss(rate.log(), counts), F.poisson_nll_loss(rate, counts, log_input=False, full=True))
mu, var = torch.randn(6, 2), torch.rand(6, 2) + 0.1
obs = torch.randn(6, 2)
print(F.gaussian_nll_loss(mu, obs, var), F.gaussian_nll_loss(mu, obs, var[:, :1], full=True, reduction="sum"))
a, b = torch.randn(4, 8), torch.randn(4, 8)
lbl = torch.tensor([1, -1, 1, -1])
print(F.cosine_embedding_loss(a, b, lbl, margin=0.2), F.hinge_embedding_loss(a.norm(dim=1), lbl, margin=3.0), F.margin_ranking_loss(a[:, 0], b[:, 0], lbl, margin=0.1))
anc, pos, neg = torch.randn(4, 8), torch.randn(4, 8), torch.randn(4, 8)
print(F.triplet_margin_loss(anc, pos, neg), F.triplet_margin_loss(anc, pos, neg, p=1, swap=True, margin=0.5))
print(nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.3)(anc, pos, neg))

T, C, N, S = 12, 5, 2, 4
torch.manual_seed(1)
log_probs = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
input_lengths = torch.full((N,), T, dtype=torch.long)
target_lengths = torch.tensor([4, 3])
ctc = nn.CTCLoss()
loss = ctc(log_probs, targets, input_lengths, target_lengths)
print(loss)
loss.backward()
print(log_probs.grad[:3, 0])
print(F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none"), F.ctc_loss(log_probs, targets[:, :2].reshape(-1), input_lengths, torch.tensor([2, 2]), reduction="sum", zero_infinity=True))

for fn in [lambda: F.cross_entropy(logits, target, label_smoothing=0.1, weight=w), lambda: F.multi_margin_loss(logits, target), lambda: F.nll_loss(logits.log_softmax(1), target, ignore_index=3)]:
    logits.grad = None
    fn().backward()
    print(logits.grad[:2])
