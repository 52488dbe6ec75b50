"""storectl: administration commands for the storefront."""
import argparse


def build_parser():
    p = argparse.ArgumentParser(prog="storectl", description="Administration commands for the storefront "
                                "(catalogue, prices, customers). Most commands accept --dry-run.")
    p.add_argument("--dry-run", action="store_true", help="show what would change without writing anything "
                   "to the database or the search index")
    p.add_argument("--batch-size", type=int, default=500, help="number of rows written per transaction when "
                   "importing large catalogues")
    p.add_argument("--region", choices=["eu", "us", "apac"], default="eu", help="data-centre region whose "
                   "database is used")
    return p
