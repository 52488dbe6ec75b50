"""Upstream address for the reverse proxy, hot-reloaded from a JSON file."""
import json
from pathlib import Path


class UpstreamConfig:
    def __init__(self, host, port):
        self.host, self.port = host, port

    def reload(self, path):
        data = json.loads(Path(path).read_text())
        self.host = data["host"]
        self.port = self._port_for(data)

    @staticmethod
    def _port_for(data):
        if "port" in data:
            return int(data["port"])
        services = Path(data["services_file"]).read_text().split()
        return int(services[services.index(data["service"]) + 1])

    def address(self):
        return (self.host, self.port)
