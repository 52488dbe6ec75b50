from csv_header_columns_a_csvexport import to_csv


def test_export_header_is_stable():
    out = to_csv([{"id": 1, "email": "a@x.test"}, {"id": 2, "name": "Bo"}])
    assert out.splitlines()[0] == "id,email,name"
