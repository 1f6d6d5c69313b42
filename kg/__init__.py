"""ptkg: a knowledge graph of what shipped in PyTorch, read from its blog posts."""

__version__ = "0.1.0"
