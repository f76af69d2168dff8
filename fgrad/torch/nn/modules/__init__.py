# ruff: noqa: F401
"""The layers of ``fgrad.torch.nn`` (laid out like ``torch.nn.modules``, so pickled PyTorch
modules map onto them)."""

from .activation import (CELU, ELU, GELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU,
                         LogSigmoid, LogSoftmax, Mish, MultiheadAttention, PReLU, ReLU, ReLU6, RReLU, Sigmoid,
                         SiLU, Softmax,
                         Softmax2d, Softmin, Softplus, Softshrink, Softsign, Tanh, Tanhshrink, Threshold)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm
from .container import Container, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout
from .flatten import Flatten, Unflatten
from .fold import Fold, Unfold
from .linear import Bilinear, Identity, Linear, NonDynamicallyQuantizableLinear
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, GaussianNLLLoss,
                   HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss,
                   MultiLabelSoftMarginLoss, NLLLoss, NLLLoss2d, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss,
                   TripletMarginLoss)
from .module import Module, register_module_forward_hook, register_module_forward_pre_hook
from .normalization import (GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LayerNorm,
                            LocalResponseNorm)
from .padding import (CircularPad1d, CircularPad2d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
                      ReflectionPad1d,
                      ReflectionPad2d, ReplicationPad1d, ReplicationPad2d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d,
                      AdaptiveMaxPool2d, AdaptiveMaxPool3d, AvgPool1d,
                      AvgPool2d, AvgPool3d, MaxPool1d, MaxPool2d, MaxPool3d)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding, EmbeddingBag
from .upsampling import PixelShuffle, PixelUnshuffle, Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .adaptive import AdaptiveLogSoftmaxWithLoss
from .channelshuffle import ChannelShuffle
from .distance import CosineSimilarity, PairwiseDistance
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d, LazyConv2d, LazyConv3d,
                   LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d, LazyInstanceNorm1d,
                   LazyInstanceNorm2d, LazyInstanceNorm3d, LazyLinear)
from .loss import CTCLoss, MultiLabelMarginLoss, MultiMarginLoss, TripletMarginWithDistanceLoss
from .normalization import CrossMapLRN2d, RMSNorm
from .padding import CircularPad3d, ReflectionPad3d, ReplicationPad3d
from .pooling import (FractionalMaxPool2d, FractionalMaxPool3d, LPPool1d, LPPool2d, LPPool3d, MaxUnpool1d,
                      MaxUnpool2d, MaxUnpool3d)
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)

__all__ = [n for n in dir() if not n.startswith("_") and n[0].isupper()] + [
    "register_module_forward_hook", "register_module_forward_pre_hook"]
