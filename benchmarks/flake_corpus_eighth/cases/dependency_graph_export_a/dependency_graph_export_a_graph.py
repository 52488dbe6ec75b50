"""Service dependency graph, exported for the architecture docs."""
import json


def export_graph(deps):
    return json.dumps({name: sorted(d) for name, d in sorted(deps.items())})
