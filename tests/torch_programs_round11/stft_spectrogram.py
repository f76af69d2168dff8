"""Audio-style feature extraction with torch.fft and torch.stft as in torchaudio-free scripts:
a chirp plus tones, window functions (hann, hamming, blackman, kaiser), stft with
return_complex=True (center, reflect padding, onesided), power and log-mel-like spectrograms
with a triangular filterbank built by hand, the dominant frequency per frame, istft round trip
with length, rfft/irfft/fftfreq/rfftfreq, and a spectral-convergence loss used by vocoders."""
# ruff: noqa: B007, E501  (written as the published program is)

import math

import torch

torch.manual_seed(0)
sr = 800
t = torch.arange(0, 1.0, 1 / sr)
chirp = torch.sin(2 * math.pi * (50 * t + 100 * t ** 2))
tones = 0.5 * torch.sin(2 * math.pi * 120 * t) + 0.25 * torch.sin(2 * math.pi * 300 * t)
signal = chirp + tones + 0.05 * torch.randn_like(t)
print(signal.shape, f"{signal.abs().max().item():.4f}")
for name, w in [("hann", torch.hann_window(8)), ("hamming", torch.hamming_window(8)), ("blackman", torch.blackman_window(8, periodic=False)), ("kaiser", torch.kaiser_window(8, True, 6.0))]:
    print(name, w)

n_fft, hop = 64, 16
window = torch.hann_window(n_fft)
spec = torch.stft(signal, n_fft=n_fft, hop_length=hop, window=window, return_complex=True)
print(spec.shape, spec.dtype, spec[3, 5])
power = spec.abs() ** 2
freqs = torch.fft.rfftfreq(n_fft, d=1 / sr)
print(freqs[:5], freqs.shape)
peak = freqs[power.argmax(0)]
print(peak[::5])


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_mels, n_fft, sr):
    mels = torch.linspace(hz_to_mel(torch.tensor(0.0)), hz_to_mel(torch.tensor(sr / 2)), n_mels + 2)
    hz = mel_to_hz(mels)
    f = torch.fft.rfftfreq(n_fft, 1 / sr)
    lower = (f[None, :] - hz[:-2, None]) / (hz[1:-1, None] - hz[:-2, None])
    upper = (hz[2:, None] - f[None, :]) / (hz[2:, None] - hz[1:-1, None])
    return torch.clamp(torch.minimum(lower, upper), min=0.0)


fb = mel_filterbank(10, n_fft, sr)
mel = fb @ power
log_mel = torch.log(mel + 1e-6)
print(fb.shape, fb.sum(1)[:4], log_mel.shape, log_mel.mean(1)[:4])
recon = torch.istft(spec, n_fft=n_fft, hop_length=hop, window=window, length=signal.shape[0])
print(torch.allclose(recon, signal, atol=1e-5), (recon - signal).abs().max() < 1e-4)
spec2 = torch.stft(signal, n_fft=n_fft, hop_length=hop, win_length=32, window=torch.hamming_window(32), center=False, return_complex=True)
print(spec2.shape, spec2[10, 2])
two = torch.stft(torch.stack([signal, chirp]), n_fft=n_fft, hop_length=hop, window=window, return_complex=True, normalized=True)
print(two.shape, two[1, 4, 7])
X = torch.fft.rfft(signal)
print(X.shape, torch.fft.irfft(X, n=signal.shape[0]).sub(signal).abs().max() < 1e-4, torch.fft.fftfreq(6, d=0.5))
print(torch.fft.fftshift(torch.fft.fftfreq(5)), f"{X[120].abs().item():.2f}", X.abs().argmax())
noisy = signal + 0.3 * torch.randn_like(signal)
S = torch.stft(signal, n_fft, hop, window=window, return_complex=True).abs()
Sn = torch.stft(noisy, n_fft, hop, window=window, return_complex=True).abs()
sc = torch.linalg.norm(S - Sn, "fro") / torch.linalg.norm(S, "fro")
log_mag = torch.nn.functional.l1_loss(torch.log(Sn + 1e-7), torch.log(S + 1e-7))
print(f"spectral convergence {sc.item():.4f} log magnitude {log_mag.item():.4f}")
