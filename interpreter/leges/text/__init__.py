"""The plumbing every layer stands on: reading files safely, YAML and JSON with positions, located
errors, text made harmless for a terminal, and the signed disk cache.

Nothing here knows rules, boards or games; everything above may import it.
"""
