"""`fgrad.monitoring`: JAX's ``jax.monitoring`` event API — record events, durations, time
spans and scalars, and register listeners that receive them (with keyword metadata), so
programs that instrument themselves through it run unchanged.  fgrad itself records no events
(its compile log is the ``fgrad.jit`` logger, docs/diagnostics.md).

Example::

    >>> from fgrad import monitoring
    >>> seen = []
    >>> monitoring.register_event_listener(lambda event, **kw: seen.append((event, kw)))
    >>> monitoring.record_event("/my/app/started", run=3)
    >>> seen
    [('/my/app/started', {'run': 3})]
    >>> monitoring.clear_event_listeners()
"""

from __future__ import annotations

from typing import Callable

__all__ = ["clear_event_listeners", "record_event", "record_event_duration_secs", "record_event_time_span",
           "record_scalar", "register_event_duration_secs_listener", "register_event_listener",
           "register_event_time_span_listener", "register_scalar_listener",
           "unregister_event_duration_listener", "unregister_event_listener",
           "unregister_event_time_span_listener", "unregister_scalar_listener"]

_event: list[Callable[..., None]] = []
_duration: list[Callable[..., None]] = []
_time_span: list[Callable[..., None]] = []
_scalar: list[Callable[..., None]] = []


def record_event(event: str, **kwargs: str | int) -> None:
    """Tell every event listener that ``event`` happened (``kwargs``: metadata).

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_listener(listener)
        >>> monitoring.record_event('/app/checkpoint_saved', step=100)
        >>> monitoring.unregister_event_listener(listener)
        >>> seen
        [(('/app/checkpoint_saved',), {'step': 100})]
    """
    for listener in list(_event):
        listener(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: str | int) -> None:
    """Tell every duration listener that ``event`` took ``duration`` seconds.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_duration_secs_listener(listener)
        >>> monitoring.record_event_duration_secs('/app/step', 0.25)
        >>> monitoring.unregister_event_duration_listener(listener)
        >>> seen
        [(('/app/step', 0.25), {})]
    """
    for listener in list(_duration):
        listener(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float, **kwargs: str | int) -> None:
    """Tell every time-span listener that ``event`` ran from ``start_time`` to ``end_time``.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_time_span_listener(listener)
        >>> monitoring.record_event_time_span('/app/epoch', 10.0, 12.5, epoch=2)
        >>> monitoring.unregister_event_time_span_listener(listener)
        >>> seen
        [(('/app/epoch', 10.0, 12.5), {'epoch': 2})]
    """
    for listener in list(_time_span):
        listener(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float | int, **kwargs: str | int) -> None:
    """Tell every scalar listener the value ``value`` of ``event``.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_scalar_listener(listener)
        >>> monitoring.record_scalar('/app/loss', 0.125, step=3)
        >>> monitoring.unregister_scalar_listener(listener)
        >>> seen
        [(('/app/loss', 0.125), {'step': 3})]
    """
    for listener in list(_scalar):
        listener(event, value, **kwargs)


def register_event_listener(callback: Callable[..., None]) -> None:
    """Call ``callback(event, **kwargs)`` for every `record_event`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_listener(listener)
        >>> monitoring.record_event('/app/started')
        >>> monitoring.unregister_event_listener(listener)
        >>> seen
        [(('/app/started',), {})]
    """
    _event.append(callback)


def register_event_duration_secs_listener(callback: Callable[..., None]) -> None:
    """Call ``callback(event, duration, **kwargs)`` for every `record_event_duration_secs`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_duration_secs_listener(listener)
        >>> monitoring.record_event_duration_secs('/app/step', 0.5, step=1)
        >>> monitoring.unregister_event_duration_listener(listener)
        >>> seen
        [(('/app/step', 0.5), {'step': 1})]
    """
    _duration.append(callback)


def register_event_time_span_listener(callback: Callable[..., None]) -> None:
    """Call ``callback(event, start, end, **kwargs)`` for every `record_event_time_span`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_time_span_listener(listener)
        >>> monitoring.record_event_time_span('/app/epoch', 0.0, 1.0)
        >>> monitoring.unregister_event_time_span_listener(listener)
        >>> seen
        [(('/app/epoch', 0.0, 1.0), {})]
    """
    _time_span.append(callback)


def register_scalar_listener(callback: Callable[..., None]) -> None:
    """Call ``callback(event, value, **kwargs)`` for every `record_scalar`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_scalar_listener(listener)
        >>> monitoring.record_scalar('/app/loss', 2.0)
        >>> monitoring.unregister_scalar_listener(listener)
        >>> seen
        [(('/app/loss', 2.0), {})]
    """
    _scalar.append(callback)


def _unregister(listeners: list, callback: Callable[..., None], what: str) -> None:
    try:
        listeners.remove(callback)
    except ValueError:
        raise AssertionError(f"The callback {callback!r} is not a registered {what} listener") from None


def unregister_event_listener(callback: Callable[..., None]) -> None:
    """Remove a listener added by `register_event_listener`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_listener(listener)
        >>> monitoring.record_event('/app/started')
        >>> monitoring.unregister_event_listener(listener)
        >>> seen
        [(('/app/started',), {})]
        >>> monitoring.record_event('/app/ignored')
        >>> len(seen)
        1
    """
    _unregister(_event, callback, "event")


def unregister_event_duration_listener(callback: Callable[..., None]) -> None:
    """Remove a listener added by `register_event_duration_secs_listener`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_duration_secs_listener(listener)
        >>> monitoring.record_event_duration_secs('/app/step', 0.5)
        >>> monitoring.unregister_event_duration_listener(listener)
        >>> seen
        [(('/app/step', 0.5), {})]
        >>> monitoring.record_event_duration_secs('/app/step', 0.7)
        >>> len(seen)
        1
    """
    _unregister(_duration, callback, "event duration")


def unregister_event_time_span_listener(callback: Callable[..., None]) -> None:
    """Remove a listener added by `register_event_time_span_listener`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_event_time_span_listener(listener)
        >>> monitoring.record_event_time_span('/app/epoch', 0.0, 1.0)
        >>> monitoring.unregister_event_time_span_listener(listener)
        >>> seen
        [(('/app/epoch', 0.0, 1.0), {})]
        >>> monitoring.record_event_time_span('/app/epoch', 1.0, 2.0)
        >>> len(seen)
        1
    """
    _unregister(_time_span, callback, "event time span")


def unregister_scalar_listener(callback: Callable[..., None]) -> None:
    """Remove a listener added by `register_scalar_listener`.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> def listener(*args, **kw):
        ...     seen.append((args, kw))
        ...
        >>> monitoring.register_scalar_listener(listener)
        >>> monitoring.record_scalar('/app/loss', 2.0)
        >>> monitoring.unregister_scalar_listener(listener)
        >>> seen
        [(('/app/loss', 2.0), {})]
        >>> monitoring.record_scalar('/app/loss', 1.0)
        >>> len(seen)
        1
    """
    _unregister(_scalar, callback, "scalar")


def clear_event_listeners() -> None:
    """Remove every listener of every kind.

    Example::

        >>> from fgrad import monitoring
        >>> seen = []
        >>> monitoring.register_event_listener(lambda event, **kw: seen.append(event))
        >>> monitoring.clear_event_listeners()
        >>> monitoring.record_event('/app/ignored')
        >>> seen
        []
    """
    for listeners in (_event, _duration, _time_span, _scalar):
        listeners.clear()
