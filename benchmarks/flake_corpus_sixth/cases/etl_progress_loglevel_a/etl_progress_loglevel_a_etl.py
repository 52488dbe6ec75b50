"""Nightly ETL job; the CLI entry point configures logging for the whole process."""
import logging

log = logging.getLogger("etl_progress_loglevel_a.etl")


def configure_logging(verbose=False):
    logging.getLogger().setLevel(logging.DEBUG if verbose else logging.INFO)


def load_rows(rows):
    log.info("loaded %d rows", len(rows))
    return len(rows)
