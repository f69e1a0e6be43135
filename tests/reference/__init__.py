"""Test oracles: second implementations of the package's rules, kept only to test against."""
