"""Learned weights (built by tools/train_vision.py); a package so that they install."""
