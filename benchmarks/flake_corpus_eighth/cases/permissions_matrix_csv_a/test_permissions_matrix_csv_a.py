import permissions_matrix_csv_a_matrix as m

GRANTS = [("viewer", "read"), ("editor", "read"), ("editor", "write"), ("admin", "read"),
          ("admin", "write"), ("admin", "delete"), ("editor", "read")]


def test_matrix_csv_golden():
    assert m.to_csv(m.matrix(GRANTS)) == "admin,delete|read|write\neditor,read|write\nviewer,read"
