"""The error hierarchy: every message names the offender."""

from __future__ import annotations

__all__ = [
    "BatonError",
    "ConfigError",
    "UsageError",
    "VaultError",
    "StoreError",
    "StoreConflict",
    "DamagedFile",
    "SchemaError",
    "ThreadBusy",
    "ApprovalError",
    "TemplateError",
    "DeliveryError",
    "NoSpace",
]


class BatonError(Exception):
    """Base of every error baton raises on purpose."""


class UsageError(BatonError):
    """A bad argument from the user (unknown topic, bad date, missing vault)."""


class ConfigError(BatonError):
    """A configuration file of the vault is missing or invalid."""


class VaultError(BatonError):
    """The vault cannot be read as a whole (not one bad note: those are listed, not raised)."""


class StoreError(BatonError):
    """The state store cannot be opened or written."""


class StoreConflict(StoreError):
    """A write lost a race on a unique key (another process wrote the same row first)."""


class DamagedFile(StoreError):
    """A database file of the state folder is not a sound database (exit 2: the message says what to do)."""


class SchemaError(StoreError):
    """The database's schema is not the one this baton needs (``baton db upgrade`` fixes it)."""


class ThreadBusy(BatonError):
    """Another process holds the thread's lease (exit 3)."""


class ApprovalError(BatonError):
    """An approval step was refused (nothing pending, already decided, bad edit file)."""


class TemplateError(BatonError):
    """A prompt template and its caller disagree."""


class DeliveryError(BatonError):
    """A sink could not deliver an alert (after its retries)."""


class NoSpace(BatonError):
    """The disk (or the quota) is full: a file could not be written whole, and nothing half-written is left."""
