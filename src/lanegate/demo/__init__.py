"""The bundled demo: a tiny library, an agent-style head and an honest head, judged end to end."""
