"""Command-line tools of paiju."""
