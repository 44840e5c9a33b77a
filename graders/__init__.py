"""hogkit: the engine behind the Hog teaching kit.

The engine knows nothing about any one edition of the game. An edition is data: its manifest
(``tests/editions/<edition>/edition.toml``), its marked solution, the skeleton generated from it, its case
files and its handout. Everything here reads those files and never branches on an edition's name.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
