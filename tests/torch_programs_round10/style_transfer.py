"""The neural style transfer tutorial on a small random CNN standing in for VGG: ContentLoss
and StyleLoss modules with Gram matrices inserted into a rebuilt nn.Sequential, a
Normalization module, the input image optimised directly by LBFGS with clamp_ in the closure."""
# ruff: noqa: E501  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
imsize = 16
style_img = torch.rand(1, 3, imsize, imsize)
content_img = torch.rand(1, 3, imsize, imsize)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        self.loss = F.mse_loss(gram_matrix(input), self.target)
        return input


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, padding=1),
                    nn.ReLU(inplace=True), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(inplace=True),
                    nn.Conv2d(16, 16, 3, padding=1)).eval()
for p in cnn.parameters():
    p.requires_grad_(False)
content_layers = ["conv_4"]
style_layers = ["conv_1", "conv_2", "conv_3", "conv_4"]


def get_style_model_and_losses(cnn, mean, std, style_img, content_img):
    normalization = Normalization(mean, std)
    content_losses, style_losses = [], []
    model = nn.Sequential(normalization)
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f"conv_{i}"
        elif isinstance(layer, nn.ReLU):
            name = f"relu_{i}"
            layer = nn.ReLU(inplace=False)
        elif isinstance(layer, nn.MaxPool2d):
            name = f"pool_{i}"
        else:
            raise RuntimeError(f"Unrecognized layer: {layer.__class__.__name__}")
        model.add_module(name, layer)
        if name in content_layers:
            target = model(content_img).detach()
            content_loss = ContentLoss(target)
            model.add_module(f"content_loss_{i}", content_loss)
            content_losses.append(content_loss)
        if name in style_layers:
            target_feature = model(style_img).detach()
            style_loss = StyleLoss(target_feature)
            model.add_module(f"style_loss_{i}", style_loss)
            style_losses.append(style_loss)
    for i in range(len(model) - 1, -1, -1):
        if isinstance(model[i], ContentLoss) or isinstance(model[i], StyleLoss):
            break
    model = model[:(i + 1)]
    return model, style_losses, content_losses


model, style_losses, content_losses = get_style_model_and_losses(
    cnn, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225], style_img, content_img)
print([name for name, _ in model.named_children()])
input_img = content_img.clone()
input_img.requires_grad_(True)
model.requires_grad_(False)
optimizer = optim.LBFGS([input_img], max_iter=12)
style_weight, content_weight = 1000000, 1
run = [0]
while run[0] < 12:
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * style_weight
        content_score = sum(cl.loss for cl in content_losses) * content_weight
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        if run[0] % 4 == 0:
            print(f"run {run[0]}: Style Loss : {style_score.item():.5f} Content Loss: {content_score.item():.7f}")
        return style_score + content_score
    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
print("image mean", round(input_img.mean().item(), 4), "min", round(input_img.min().item(), 4))
print("gram", gram_matrix(style_img)[:2, :2])
