"""The "What is torch.nn really?" tutorial on synthetic MNIST-like data: logistic regression by
hand (log_softmax, nll, accuracy), then F.cross_entropy, nn.Module, nn.Linear, optim,
TensorDataset, DataLoader, get_model/fit/loss_batch, a CNN with a Lambda layer, nn.Sequential
with AdaptiveAvgPool2d, and WrappedDataLoader with a preprocess function."""
# ruff: noqa: B007, E501, E731  (written as the published program is)

import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
n, d = 256, 784
centers = torch.randn(10, d)
y_train = torch.randint(0, 10, (n,))
x_train = (centers[y_train] * 0.3 + torch.rand(n, d)).clamp(0, 1)
y_valid = torch.randint(0, 10, (64,))
x_valid = (centers[y_valid] * 0.3 + torch.rand(64, d)).clamp(0, 1)
print(x_train, y_train)
print(x_train.shape, y_train.min(), y_train.max())

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs, lr, epochs = 64, 0.05, 2
loss_func = nll
xb, yb = x_train[0:bs], y_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)
print(loss_func(preds, yb), accuracy(preds, yb))
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        xb, yb = x_train[start_i:start_i + bs], y_train[start_i:start_i + bs]
        loss = loss_func(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print("by hand:", loss_func(model(xb), yb), accuracy(model(xb), yb))

loss_func = F.cross_entropy
print("F.cross_entropy:", loss_func(xb @ weights + bias, yb))


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.5f}")


train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)


def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=True), DataLoader(valid_ds, batch_size=bs * 2))


train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
model, opt = get_model()
fit(epochs, model, loss_func, opt, train_dl, valid_dl)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x, y):
    return x.view(-1, 1, 28, 28), y


class WrappedDataLoader:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield (self.func(*b))


model = nn.Sequential(
    Lambda(lambda x: x.view(-1, 1, 28, 28)),
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(4, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(4, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AvgPool2d(4), Lambda(lambda x: x.view(x.size(0), -1)))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
print(model)

train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
train_dl = WrappedDataLoader(train_dl, preprocess)
valid_dl = WrappedDataLoader(valid_dl, preprocess)
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.Conv2d(4, 10, kernel_size=3, stride=2, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), Lambda(lambda x: x.view(x.size(0), -1)))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
print(len(train_dl), len(valid_dl), model[4])
xb, yb = next(iter(valid_dl))
print(xb.shape, accuracy(model(xb), yb))
