"""pytorch/examples siamese_network and the metric-learning idioms around it: a shared
embedding network, BCEWithLogits on pair features, a contrastive loss by hand with
F.pairwise_distance, TripletMarginLoss, TripletMarginWithDistanceLoss with cosine distance,
CosineEmbeddingLoss and MarginRankingLoss."""
# ruff: noqa: E501  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)


class SiameseNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(4, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(16, 16), nn.ReLU(inplace=True), nn.Linear(16, 1))
        self.sigmoid = nn.Sigmoid()
        self.cnn.apply(self.init_weights)

    def init_weights(self, m):
        if isinstance(m, nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            m.bias.data.fill_(0.01)

    def forward_once(self, x):
        return self.cnn(x)

    def forward(self, input1, input2):
        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)
        output = torch.cat((output1, output2), 1)
        return self.fc(output)


def contrastive_loss(o1, o2, label, margin=2.0):
    d = F.pairwise_distance(o1, o2, keepdim=True)
    return torch.mean((1 - label) * torch.pow(d, 2) + label * torch.pow(torch.clamp(margin - d, min=0.0), 2))


images = torch.rand(12, 1, 10, 10)
classes = torch.tensor([0, 1, 2] * 4)
model = SiameseNetwork()
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
crit = nn.BCEWithLogitsLoss()
for epoch in range(3):
    perm = torch.randperm(12)
    a, b = images, images[perm]
    target = (classes == classes[perm]).float().unsqueeze(1)
    opt.zero_grad()
    out = model(a, b)
    loss = crit(out, target)
    loss.backward()
    opt.step()
    sched.step()
    acc = (torch.where(out > 0, 1, 0) == target).sum().item()
    print(f"epoch {epoch} bce {loss.item():.4f} correct {acc} lr {sched.get_last_lr()[0]:.4f}")

emb = model.forward_once
e1, e2 = emb(images[:6]), emb(images[6:])
same = (classes[:6] != classes[6:]).float().unsqueeze(1)
print("contrastive", round(contrastive_loss(e1, e2, same).item(), 5))
print("pairwise", F.pairwise_distance(e1, e2)[:3])
anchor, positive, negative = emb(images[0:4]), emb(images[4:8]), emb(images[8:12])
triplet = nn.TripletMarginLoss(margin=1.0, p=2)
print("triplet", round(triplet(anchor, positive, negative).item(), 5))
print("triplet swap", round(nn.TripletMarginLoss(margin=0.5, p=1, swap=True)(anchor, positive, negative).item(), 5))
cos = nn.TripletMarginWithDistanceLoss(distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y), margin=0.3)
print("triplet cosine", round(cos(anchor, positive, negative).item(), 5))
loss = triplet(anchor, positive, negative)
loss.backward()
print("grad norm", round(sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt().item(), 5))
y = torch.tensor([1, -1, 1, -1])
print("cos emb", round(nn.CosineEmbeddingLoss(margin=0.1)(anchor, positive, y).item(), 5))
print("rank", round(nn.MarginRankingLoss(margin=0.2)(anchor[:, 0], positive[:, 0], y.float()).item(), 5))
print("hinge", round(nn.HingeEmbeddingLoss(margin=1.0)(F.pairwise_distance(anchor, positive), y.float()).item(), 5))
print("cdist", torch.cdist(anchor, negative).shape, round(torch.cdist(anchor, negative, p=1).sum().item(), 4))
