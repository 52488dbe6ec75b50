"""The three evidence lanes: property, fixture and flake. Each writes only its own ledger."""
