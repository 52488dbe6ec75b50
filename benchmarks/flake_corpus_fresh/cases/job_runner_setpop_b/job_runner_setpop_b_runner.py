JOBS = {
    "fetch_orders", "fetch_refunds", "fetch_payouts", "sync_stock", "sync_prices",
    "rebuild_search", "expire_carts", "rotate_logs", "compact_db", "send_daily_report",
}
LAST = {"send_daily_report"}


def run_all(jobs):
    pending = set(jobs)
    log = []
    while pending:
        job = min(pending, key=lambda j: (j in LAST, j))
        pending.discard(job)
        log.append(job)
    return log
