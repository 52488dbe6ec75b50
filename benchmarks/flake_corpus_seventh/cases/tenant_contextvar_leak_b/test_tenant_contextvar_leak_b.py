import tenant_contextvar_leak_b_tenancy as tenancy


def test_public_schema_by_default():
    assert tenancy.table_name("invoices") == "invoices"
    assert tenancy.table_name("users") == "users"


def test_tenant_tables_are_prefixed():
    with tenancy.tenant_scope("acme"):
        assert tenancy.table_name("invoices") == "acme__invoices"
