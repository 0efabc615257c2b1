"""Tables of the coordination records (filled in by its owner)."""
