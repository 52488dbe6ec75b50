"""lanegate on GitHub: the REST client (PyGithub), the Actions runtime (actions-toolkit), event payloads.

Nothing outside this package imports PyGithub or actions-toolkit; nothing here is named `github` at the
top level (actions-toolkit juggles `sys.path` to import PyGithub's own top-level `github`).
"""
