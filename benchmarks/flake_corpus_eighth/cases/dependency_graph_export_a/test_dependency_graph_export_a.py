import dependency_graph_export_a_graph as graph


def test_graph_json_golden():
    deps = {"web": {"auth", "cache", "db"}, "auth": {"db"}, "db": set()}
    assert graph.export_graph(deps) == '{"auth": ["db"], "db": [], "web": ["auth", "cache", "db"]}'
