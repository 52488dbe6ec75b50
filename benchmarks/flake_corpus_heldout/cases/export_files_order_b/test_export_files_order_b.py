from export_files_order_b_app import merge_parts, write_parts


def test_parts_are_merged_in_write_order(tmp_path):
    write_parts(tmp_path, ["header\n", "row1\n"])
    assert merge_parts(tmp_path) == "header\nrow1\n"
