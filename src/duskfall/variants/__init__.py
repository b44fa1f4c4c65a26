"""Game variants. Each package exposes ``VARIANT`` (see :mod:`duskfall.core.variant`)."""
