import threading


class Registry:
    def __init__(self):
        self.series = {}
        self.lock = threading.Lock()

    def inc(self, name, **labels):
        key = (name, tuple(sorted(labels.items())))
        with self.lock:
            self.series[key] = self.series.get(key, 0) + 1

    def scrape(self):
        lines = []
        with self.lock:
            items = list(self.series.items())
        for (name, labels), value in items:
            label_text = ",".join(f'{k}="{v}"' for k, v in labels)
            lines.append(f"{name}{{{label_text}}} {value}")
        return "\n".join(lines)
