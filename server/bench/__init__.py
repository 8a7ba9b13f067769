"""Benchmarks behind ``kifu bench TARGET``: each module exposes ``run(args) -> int``.

They print figures (medians, rates, and a peer measured in the same run); speed is
never asserted in unit tests.
"""
