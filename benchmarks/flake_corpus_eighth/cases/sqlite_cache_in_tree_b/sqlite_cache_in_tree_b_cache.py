"""Local price cache (sqlite)."""
import sqlite3


def rebuild(db_path, prices):
    con = sqlite3.connect(db_path, timeout=0.5)
    try:
        con.execute("DROP TABLE IF EXISTS prices")
        con.execute("CREATE TABLE prices (sku TEXT, cents INTEGER)")
        con.commit()
        for i in range(0, len(prices), 20):  # one transaction per feed page
            con.executemany("INSERT INTO prices VALUES (?, ?)", prices[i:i + 20])
            con.commit()
        return con.execute("SELECT COUNT(*) FROM prices").fetchone()[0]
    finally:
        con.close()
