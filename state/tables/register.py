"""Tables of the register records (filled in by its owner)."""
