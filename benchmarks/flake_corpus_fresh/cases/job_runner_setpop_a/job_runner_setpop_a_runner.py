JOBS = {
    "fetch_orders", "fetch_refunds", "fetch_payouts", "sync_stock", "sync_prices",
    "rebuild_search", "expire_carts", "rotate_logs", "compact_db", "send_daily_report",
}
LAST = {"send_daily_report"}


def run_all(jobs):
    pending = set(jobs)
    log = []
    while pending:
        job = pending.pop()
        log.append(job)
    return log
