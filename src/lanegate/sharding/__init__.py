"""Plan once, execute slices: the shard plan of the property and flake lanes, and the shard merge."""
