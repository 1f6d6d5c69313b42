"""ptkg: a knowledge graph of what shipped in PyTorch, read from its blog posts.

The Python API (:mod:`ptkg.api`), loaded on first use so that ``import ptkg`` stays light::

    import ptkg
    g = ptkg.open("out/graph.json")
    g.run("features-by-release", release="PyTorch 1.8").to_dicts()
"""

__version__ = "0.1.0"

_API = ("open", "Graph", "Result", "Answer")

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:  # imported by name: ``import ptkg`` (and what imports __version__) stays light
        import importlib

        return getattr(importlib.import_module("ptkg.api"), name)
    raise AttributeError(f"module 'ptkg' has no attribute {name!r}")
