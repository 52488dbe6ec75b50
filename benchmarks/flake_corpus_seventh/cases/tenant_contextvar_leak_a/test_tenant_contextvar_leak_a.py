import tenant_contextvar_leak_a_tenancy as tenancy


def test_public_schema_by_default():
    assert tenancy.table_name("invoices") == "invoices"
    assert tenancy.table_name("users") == "users"


def test_tenant_tables_are_prefixed():
    tenancy.current_tenant.set("acme")
    assert tenancy.table_name("invoices") == "acme__invoices"
