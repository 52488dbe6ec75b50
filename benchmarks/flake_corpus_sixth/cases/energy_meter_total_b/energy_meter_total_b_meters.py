"""Site energy total from the sub-meters (each read over a slow fieldbus, in parallel)."""
import math
import random
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

READINGS = {"M1": 0.1, "M2": 0.2, "M3": 0.3, "M4": 0.4}


def read_meter(meter):
    time.sleep(random.random() * 0.004)  # bus latency
    return READINGS[meter]


def site_total(meters):
    with ThreadPoolExecutor(len(meters)) as ex:
        futures = [ex.submit(read_meter, m) for m in meters]
        return math.fsum(f.result() for f in as_completed(futures))
