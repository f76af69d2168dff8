"""The "Knowledge Distillation" tutorial on synthetic CIFAR-shaped data: a deeper teacher and a
light student CNN, cross entropy training, distillation with soft targets (softmax /
log_softmax with temperature T, KL-style sum scaled by T**2), nn.KLDivLoss(reduction=
"batchmean", log_target), the cosine-loss hidden-representation variant with
nn.CosineEmbeddingLoss and AvgPool1d, and accuracies."""
# ruff: noqa: E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
N = 96
images = torch.randn(N, 3, 8, 8)
labels = (images[:, 0].mean((1, 2)) > 0).long() + (images[:, 1].mean((1, 2)) > 0).long()
train_loader = DataLoader(TensorDataset(images[:64], labels[:64]), batch_size=16, shuffle=True)
test_loader = DataLoader(TensorDataset(images[64:], labels[64:]), batch_size=32, shuffle=False)


class DeepNN(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 8, kernel_size=3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(128, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, num_classes))

    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        x = self.classifier(flattened_conv_output)
        return x, flattened_conv_output


class LightNN(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, kernel_size=3, padding=1), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2))
        self.classifier = nn.Sequential(nn.Linear(128, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, num_classes))

    def forward(self, x):
        x = self.features(x)
        flattened_conv_output = torch.flatten(x, 1)
        x = self.classifier(flattened_conv_output)
        return x, flattened_conv_output


def train(model, train_loader, epochs, learning_rate):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=learning_rate)
    model.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            outputs, _ = model(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"Epoch {epoch + 1}/{epochs}, Loss: {running_loss / len(train_loader):.4f}")


def test(model, test_loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for inputs, labels in test_loader:
            outputs, _ = model(inputs)
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    accuracy = 100 * correct / total
    print(f"Test Accuracy: {accuracy:.2f}%")
    return accuracy


teacher = DeepNN()
train(teacher, train_loader, epochs=3, learning_rate=0.003)
test(teacher, test_loader)
torch.manual_seed(42)
student = LightNN()
print("teacher params", sum(p.numel() for p in teacher.parameters()), "student params", sum(p.numel() for p in student.parameters()))


def train_knowledge_distillation(teacher, student, train_loader, epochs, learning_rate, T, soft_target_loss_weight, ce_loss_weight):
    ce_loss = nn.CrossEntropyLoss()
    optimizer = optim.Adam(student.parameters(), lr=learning_rate)
    teacher.eval()
    student.train()
    for epoch in range(epochs):
        running_loss = 0.0
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            with torch.no_grad():
                teacher_logits, _ = teacher(inputs)
            student_logits, _ = student(inputs)
            soft_targets = nn.functional.softmax(teacher_logits / T, dim=-1)
            soft_prob = nn.functional.log_softmax(student_logits / T, dim=-1)
            soft_targets_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size()[0] * (T**2)
            label_loss = ce_loss(student_logits, labels)
            loss = soft_target_loss_weight * soft_targets_loss + ce_loss_weight * label_loss
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"Epoch {epoch + 1}/{epochs}, Loss: {running_loss / len(train_loader):.4f}")


train_knowledge_distillation(teacher, student, train_loader, epochs=3, learning_rate=0.003, T=2, soft_target_loss_weight=0.25, ce_loss_weight=0.75)
test(student, test_loader)

# the same soft loss with nn.KLDivLoss
t_logits, _ = teacher(images[:8])
s_logits, _ = student(images[:8])
T = 2.0
kl = nn.KLDivLoss(reduction="batchmean")(F.log_softmax(s_logits / T, dim=-1), F.softmax(t_logits / T, dim=-1)) * T * T
kl_log = nn.KLDivLoss(reduction="batchmean", log_target=True)(F.log_softmax(s_logits / T, dim=-1), F.log_softmax(t_logits / T, dim=-1)) * T * T
by_hand = torch.sum(F.softmax(t_logits / T, -1) * (F.log_softmax(t_logits / T, -1) - F.log_softmax(s_logits / T, -1))) / 8 * T * T
print(f"{kl.item():.5f} {kl_log.item():.5f} {by_hand.item():.5f}")
print(F.kl_div(F.log_softmax(s_logits, -1), F.softmax(t_logits, -1), reduction="none").shape)

# cosine loss on hidden representations (avg-pooled to the student's size)
_, t_hidden = teacher(images[:8])
_, s_hidden = student(images[:8])
t_hidden = F.avg_pool1d(t_hidden, 1)
s_hidden = F.adaptive_avg_pool1d(s_hidden.unsqueeze(1), 128).squeeze(1)
cos = nn.CosineEmbeddingLoss()(s_hidden, t_hidden.detach(), torch.ones(8))
print(f"cosine loss {cos.item():.5f}", tuple(t_hidden.shape), tuple(s_hidden.shape))
print(nn.AvgPool1d(2)(t_hidden.unsqueeze(1)).shape)
