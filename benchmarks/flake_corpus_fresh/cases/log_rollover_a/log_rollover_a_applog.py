import datetime
import pathlib


class DailyLog:
    def __init__(self, directory):
        self.path = pathlib.Path(directory) / f"app-{datetime.date.today():%Y%m%d}.log"
        self.fh = open(self.path, "a")

    def write(self, message):
        self.fh.write(f"{datetime.datetime.now():%H:%M:%S.%f} {message}\n")
        self.fh.flush()

    def close(self):
        self.fh.close()
