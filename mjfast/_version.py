"""The package version: read by pyproject.toml (setuptools attr:) at build
time and re-exported as mjfast.__version__; kept alone so reading it imports
nothing."""
__version__ = "0.1.0"
