"""Errors the vision layer raises with a message meant for a person."""


class NoModelError(RuntimeError):
    """The ONNX detector model is not installed where we looked."""


class BadImageError(ValueError):
    """An input could not be used as an image (unreadable, empty, corrupt, too large)."""
