from rpc_single_recv_a_rpc import call, start_server


def inventory(request):
    return {"items": [{"sku": f"SKU-{i}", "qty": i % 7} for i in range(request["params"]["limit"])]}


def test_inventory_rpc_returns_all_items():
    listener, thread = start_server(inventory)
    try:
        result = call(listener.getsockname()[1], "list_items", limit=2500)
    finally:
        thread.join(2)
        listener.close()
    assert len(result["items"]) == 2500
