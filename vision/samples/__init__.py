"""Drawn sample photos for the replay camera (tools/make_vision_samples.py)."""
