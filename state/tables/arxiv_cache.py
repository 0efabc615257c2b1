"""Tables of the arxiv cache records (filled in by its owner)."""
