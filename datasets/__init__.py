"""Test data for Kifu: synthetic photos and videos with exact truth, and real photos.

``datasets.synth`` makes pictures and videos from a seed; ``datasets.real`` loads the
team's real photos from ``../shared/datasets``; ``datasets/bundled`` holds a short
sample video and its truth, made by ``kifu synth video``.
"""
