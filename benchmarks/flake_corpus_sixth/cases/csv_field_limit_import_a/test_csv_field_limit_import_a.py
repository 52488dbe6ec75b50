import csv

import pytest

import csv_field_limit_import_a_importer as importer


def test_long_product_description_imports():
    text = "sku,description\nA-1," + "x" * 5000 + "\n"
    rows = importer.parse(text)
    assert len(rows[0]["description"]) == 5000


def test_untrusted_upload_rejects_huge_fields():
    text = "sku,description\nA-1," + "y" * 4000 + "\n"
    with pytest.raises(csv.Error):
        importer.parse_untrusted(text)
