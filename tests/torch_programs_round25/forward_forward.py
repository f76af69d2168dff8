"""Hinton's forward-forward algorithm as in pytorch/examples' mnist_forward_forward, in
float32, on synthetic 8x8 "digits" (class prototypes plus noise) instead of MNIST: the label
overlaid on the first pixels (x.max() at the label's index), positive data with the true
label and negative data with a random wrong one, each nn.Linear layer trained locally with
its own Adam (inputs normalised by their L2 norm with a small epsilon, goodness as the mean
of squared ReLU activations, the softplus loss log(1 + exp([-g_pos + threshold, g_neg -
threshold]))), detached outputs handed to the next layer; prediction by the label with the
largest summed goodness, train and test error."""
# ruff: noqa: E501

import torch
import torch.nn as nn
from torch.optim import Adam

torch.manual_seed(1234)
N_CLASSES, SIDE = 10, 8
prototypes = (torch.rand(N_CLASSES, SIDE * SIDE) < 0.3).float()


def make_split(n):
    y = torch.randint(0, N_CLASSES, (n,))
    x = prototypes[y] + 0.35 * torch.randn(n, SIDE * SIDE)
    x = (x - 0.1307) / 0.3081  # the example's MNIST normalisation constants
    return x, y


def overlay_y_on_x(x, y):
    x_ = x.clone()
    x_[:, :N_CLASSES] *= 0.0
    x_[range(x.shape[0]), y] = x.max()
    return x_


class Layer(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__(in_features, out_features, bias, device, dtype)
        self.relu = torch.nn.ReLU()
        self.opt = Adam(self.parameters(), lr=0.03)
        self.threshold = 2.0
        self.num_epochs = 60

    def forward(self, x):
        x_direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
        return self.relu(torch.mm(x_direction, self.weight.T) + self.bias.unsqueeze(0))

    def train_layer(self, x_pos, x_neg):
        for i in range(self.num_epochs):
            g_pos = self.forward(x_pos).pow(2).mean(1)
            g_neg = self.forward(x_neg).pow(2).mean(1)
            loss = torch.log(1 + torch.exp(torch.cat([-g_pos + self.threshold, g_neg - self.threshold]))).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if i % 20 == 0:
                print(f"  epoch {i:3d} loss {loss.item():.4f} goodness pos {g_pos.mean().item():.4f} neg {g_neg.mean().item():.4f}")
        return self.forward(x_pos).detach(), self.forward(x_neg).detach()


class Net(torch.nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList([Layer(dims[d], dims[d + 1]) for d in range(len(dims) - 1)])

    def predict(self, x):
        goodness_per_label = []
        for label in range(N_CLASSES):
            h = overlay_y_on_x(x, torch.full((x.shape[0],), label))
            goodness = []
            for layer in self.layers:
                h = layer(h)
                goodness += [h.pow(2).mean(1)]
            goodness_per_label += [sum(goodness).unsqueeze(1)]
        goodness_per_label = torch.cat(goodness_per_label, 1)
        return goodness_per_label.argmax(1)

    def train_net(self, x_pos, x_neg):
        h_pos, h_neg = x_pos, x_neg
        for i, layer in enumerate(self.layers):
            print("training layer", i, "...")
            h_pos, h_neg = layer.train_layer(h_pos, h_neg)


x, y = make_split(2000)
x_te, y_te = make_split(500)
print("train", tuple(x.shape), x.dtype, f"mean {x.mean().item():.4f} max {x.max().item():.4f}")
net = Net([SIDE * SIDE, 200, 200])
x_pos = overlay_y_on_x(x, y)
rnd = torch.randperm(x.size(0))
x_neg = overlay_y_on_x(x, y[rnd])
print("negative labels equal to the true one:", (y[rnd] == y).sum().item())
net.train_net(x_pos, x_neg)
print(f"train error: {1.0 - net.predict(x).eq(y).float().mean().item():.4f}")
print(f"test error: {1.0 - net.predict(x_te).eq(y_te).float().mean().item():.4f}")
for i, layer in enumerate(net.layers):
    print(f"layer {i} weight norm {layer.weight.norm().item():.4f} bias mean {layer.bias.mean().item():.5f}, Adam steps {int(layer.opt.state[layer.weight]['step'])}")
