"""Ledgers: the typed, versioned evidence each lane writes and the scorer reads."""
