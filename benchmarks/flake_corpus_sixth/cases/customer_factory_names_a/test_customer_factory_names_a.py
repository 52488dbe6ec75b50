import sqlite3

import customer_factory_names_a_export as export
import customer_factory_names_a_factory as factory


def test_customers_export_to_sqlite():
    customers = [factory.make_customer() for _ in range(3)]
    conn = sqlite3.connect(":memory:")
    assert export.export(conn, customers) == 3
