import backup_cli_options_a_cli as cli


def s3_options(parser):
    parser.add_argument("--bucket")
    parser.add_argument("--region", default="eu-central-1")


def test_core_options_only():
    args = cli.parse(["--dry-run", "--keep", "3"])
    assert args.dry_run and args.keep == 3


def test_s3_plugin_options():
    args = cli.parse(["--bucket", "nightly-db", "--dry-run"], plugins=[s3_options])
    assert args.bucket == "nightly-db"
    assert args.region == "eu-central-1"
    assert args.keep == 7
