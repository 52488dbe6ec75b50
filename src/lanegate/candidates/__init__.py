"""`lanegate candidates`: many candidate heads judged against one base, the base's work done once."""
