from export_format_choices_a_cli import build_parser


def test_help_lists_formats():
    usage = build_parser().format_usage()
    assert "[--format {csv,json,xml}]" in usage, usage


def test_parse_format():
    assert build_parser().parse_args(["--format", "xml"]).format == "xml"
