"""``torch.distributed.elastic``'s paths that training scripts import (``@record``)."""
