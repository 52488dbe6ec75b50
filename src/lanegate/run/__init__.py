"""`lanegate run`: every lane, lint and score in one process, with a safe output directory."""
