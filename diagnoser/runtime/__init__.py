"""Checks that run with torch, on the user's own model and data: preflight before training,
watch during it, and the helpers set_seed, lr_find and overfit_one_batch.

catalog.py and findings.py import nothing heavy; the rest imports torch."""
