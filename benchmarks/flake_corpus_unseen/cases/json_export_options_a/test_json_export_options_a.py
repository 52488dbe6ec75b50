import json_export_options_a_jsonexport as jsonexport

ORDER = {"id": 17, "customer": "Zoë", "lines": [{"sku": "A", "qty": 2}]}


def test_default_dump_is_compact():
    assert jsonexport.dump(ORDER) == '{"id":17,"customer":"Zo\\u00eb","lines":[{"sku":"A","qty":2}]}'


def test_pretty_dump_for_humans():
    out = jsonexport.dump(ORDER, indent=2, sort_keys=True, ensure_ascii=False)
    assert out.splitlines()[1] == '  "customer": "Zoë",'
