"""Report exporters register themselves by subclassing Exporter."""


class Exporter:
    registry = {}
    name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name in Exporter.registry:
            raise ValueError(f"duplicate exporter {cls.name!r}")
        Exporter.registry[cls.name] = cls

    def export(self, rows):
        raise NotImplementedError


class CsvExporter(Exporter):
    name = "csv"

    def export(self, rows):
        return "\n".join(",".join(map(str, r)) for r in rows)


def export(fmt, rows):
    return Exporter.registry[fmt]().export(rows)
