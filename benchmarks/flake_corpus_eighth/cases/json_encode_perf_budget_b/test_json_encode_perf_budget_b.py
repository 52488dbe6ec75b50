import json
import time

import json_encode_perf_budget_b_export as export

PRODUCTS = [{"sku": f"SKU{i:05d}", "name": f"Item {i}", "price": i * 0.5, "tags": ["a", "b", str(i)]}
            for i in range(6000)]


def test_catalog_export_is_fast():
    start = time.perf_counter()
    text = export.export_catalog(PRODUCTS)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.08, f"export took {elapsed:.3f}s"
