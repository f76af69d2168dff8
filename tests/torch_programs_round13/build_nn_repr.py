"""The "Build the Neural Network" tutorial (NeuralNetwork with Flatten, linear_relu_stack,
Softmax on the logits, the layer-by-layer walk through) and the module printing that
course notebooks rely on: reprs of containers (Sequential with an OrderedDict, ModuleList,
ModuleDict, ParameterList, ParameterDict), extra_repr, named_parameters with sizes,
parameter counts, and the reprs of many layer types with their options."""
# ruff: noqa: E501

from collections import OrderedDict

import torch
from torch import nn


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


torch.manual_seed(0)
device = "cpu"
print(f"Using {device} device")
model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, 28, 28, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
print(pred_probab)
input_image = torch.rand(3, 28, 28)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
input_image = torch.rand(3, 28, 28)
logits = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab = softmax(logits)
print(pred_probab)
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))


class Scaled(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.w = nn.Parameter(torch.ones(k))

    def extra_repr(self):
        return f"k={self.k}"

    def forward(self, x):
        return x * self.w


net = nn.Sequential(OrderedDict([
    ("conv1", nn.Conv2d(1, 20, 5)),
    ("relu1", nn.ReLU()),
    ("conv2", nn.Conv2d(20, 64, 5, stride=2, padding=1, bias=False)),
    ("bn", nn.BatchNorm2d(64, momentum=0.2)),
    ("pool", nn.MaxPool2d(2, ceil_mode=True)),
    ("drop", nn.Dropout2d(0.25)),
    ("scale", Scaled(3)),
]))
print(net)
print(net.conv2, net[0], net[-1], len(net), net[1:3])
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
ml.append(nn.Tanh())
md = nn.ModuleDict({"act": nn.LeakyReLU(0.1), "norm": nn.LayerNorm([4, 5], eps=1e-6, elementwise_affine=False)})
pl = nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), nn.Parameter(torch.ones(4))])
pd = nn.ParameterDict({"a": nn.Parameter(torch.zeros(1)), "b": nn.Parameter(torch.ones(2, 2, dtype=torch.float64))})
print(ml, md, pl, pd, sep="\n")
layers = [
    nn.Conv1d(3, 6, 3, dilation=2, groups=3, padding_mode="circular", padding=2), nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1),
    nn.Conv3d(1, 2, (1, 3, 3)), nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False), nn.AdaptiveAvgPool2d((None, 7)),
    nn.AdaptiveMaxPool1d(4), nn.LPPool2d(2, 3), nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True),
    nn.Embedding(10, 3, padding_idx=0, max_norm=1.0), nn.EmbeddingBag(10, 3, mode="max"), nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1),
    nn.GRU(3, 5), nn.RNN(3, 4, nonlinearity="relu", bias=False), nn.LSTMCell(3, 4), nn.GRUCell(3, 4), nn.RNNCell(2, 2),
    nn.GroupNorm(2, 4), nn.InstanceNorm1d(3, affine=True), nn.LocalResponseNorm(2), nn.BatchNorm1d(5, affine=False, track_running_stats=False),
    nn.PReLU(3), nn.ELU(alpha=0.5), nn.Hardtanh(-2, 2), nn.Softplus(beta=2, threshold=10), nn.GELU(approximate="tanh"), nn.SiLU(), nn.Mish(), nn.Softmin(dim=0),
    nn.LogSoftmax(dim=-1), nn.Threshold(0.1, 20), nn.CELU(), nn.Hardswish(), nn.Hardsigmoid(), nn.RReLU(), nn.Softshrink(0.3), nn.Tanhshrink(), nn.GLU(),
    nn.Identity(), nn.Bilinear(2, 3, 4), nn.Unflatten(1, (2, 5)), nn.PixelShuffle(2), nn.ZeroPad2d((1, 0, 2, 0)), nn.ReflectionPad1d(2), nn.ConstantPad2d(1, 3.5),
    nn.CrossEntropyLoss(label_smoothing=0.1), nn.MSELoss(reduction="sum"), nn.TransformerEncoderLayer(8, 2, 16), nn.MultiheadAttention(8, 2, kdim=4, vdim=4),
    nn.CosineSimilarity(dim=1, eps=1e-6), nn.PairwiseDistance(p=1), nn.Dropout(p=0.3, inplace=True), nn.AlphaDropout(0.2), nn.Fold((4, 5), (2, 2)), nn.Unfold(2, stride=2),
    nn.ChannelShuffle(2), nn.Softmax2d(), nn.LazyLinear(4), nn.RMSNorm([3]), nn.CircularPad2d(1), nn.ReplicationPad3d(1), nn.Linear(3, 4, bias=False, dtype=torch.float64),
]
for layer in layers:
    print(layer)
