"""duskfall: an open arena for social-deduction games played by LLMs, programs and people."""

__version__ = "0.1.0"
