"""A real HTTP server on 127.0.0.1 that answers like GitHub's REST API from recorded JSON files."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

RECORDED = Path(__file__).parent / "recorded"
REPO = "/repos/octo-org/widgets"
WRITE_TOKEN = "ghs_write_token_for_tests"
READ_ONLY_TOKEN = "ghs_read_only_fork_token"


@dataclass
class LoggedRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    token: str | None


@dataclass
class RecordedGitHub:
    """Serve recorded JSON; log every request; refuse writes from the read-only token with 403."""

    comment_pages: tuple[str, ...] = ("comments_7.page1.json", "comments_7.page2.json")
    requests: list[LoggedRequest] = field(default_factory=list)
    edited_comments: dict[int, str] = field(default_factory=dict)
    fail_with: dict[str, int] = field(default_factory=dict)  # path -> status, e.g. a 502 to retry
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def load(self, name: str) -> Any:
        text = (RECORDED / name).read_text(encoding="utf-8")
        return json.loads(text.replace("https://api.github.com", self.base_url))

    def start(self) -> RecordedGitHub:
        recorded = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
                pass

            def _handle(self) -> None:
                split = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                auth = self.headers.get("Authorization", "")
                token = auth.split(" ", 1)[1] if " " in auth else None
                body = json.loads(raw) if raw else None
                recorded.requests.append(
                    LoggedRequest(self.command, split.path, parse_qs(split.query), body, token)
                )
                status, payload, headers = recorded.answer(
                    self.command, split.path, split.query, body, token
                )
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _pages(
        self, path: str, query: str, pages: tuple[str, ...]
    ) -> tuple[int, Any, dict[str, str]]:
        page = int(parse_qs(query).get("page", ["1"])[0])
        headers: dict[str, str] = {}
        links = []
        if page < len(pages):
            links.append(f'<{self.base_url}{path}?per_page=100&page={page + 1}>; rel="next"')
            links.append(f'<{self.base_url}{path}?per_page=100&page={len(pages)}>; rel="last"')
        if page > 1:
            links.append(f'<{self.base_url}{path}?per_page=100&page=1>; rel="first"')
        if links:
            headers["Link"] = ", ".join(links)
        return 200, self.load(pages[page - 1]), headers

    def answer(
        self, method: str, path: str, query: str, body: Any, token: str | None
    ) -> tuple[int, Any, dict[str, str]]:
        if path in self.fail_with:
            return self.fail_with[path], {"message": "Server Error"}, {}
        if token not in (WRITE_TOKEN, READ_ONLY_TOKEN):
            return 401, {"message": "Bad credentials"}, {}
        if method != "GET" and token == READ_ONLY_TOKEN:
            return 403, self.load("error_403.json"), {}
        if method == "GET" and path == f"{REPO}/pulls/7":
            return 200, self.load("pull_7.json"), {}
        if method == "GET" and path == f"{REPO}/pulls/7/files":
            return self._pages(path, query, ("pull_7_files.page1.json", "pull_7_files.page2.json"))
        if method == "GET" and path == f"{REPO}/pulls/7/commits":
            return 200, self.load("pull_7_commits.json"), {}
        if method == "GET" and path == f"{REPO}/issues/7":
            return 200, self.load("issue_7.json"), {}
        if method == "GET" and path == f"{REPO}/issues/7/comments":
            return self._pages(path, query, self.comment_pages)
        if method == "POST" and path == f"{REPO}/issues/7/comments":
            created = self.load("comment_created.json")
            created["body"] = body["body"]
            return 201, created, {}
        match = re.fullmatch(rf"{REPO}/issues/comments/(\d+)", path)
        if method == "PATCH" and match:
            number = int(match.group(1))
            self.edited_comments[number] = body["body"]
            page = [c for name in self.comment_pages for c in self.load(name) if c["id"] == number]
            if not page:
                return 404, {"message": "Not Found"}, {}
            return 200, {**page[0], "body": body["body"]}, {}
        if method == "POST" and path == f"{REPO}/check-runs":
            run = self.load("check_run.json")
            run.update({k: body[k] for k in ("name", "head_sha", "status") if k in body})
            return 201, run, {}
        if method == "PATCH" and path == f"{REPO}/check-runs/4":
            run = self.load("check_run.json")
            run.update({k: body[k] for k in ("status", "conclusion") if k in body})
            return 200, run, {}
        return 404, {"message": "Not Found", "path": path}, {}

    def writes(self) -> list[LoggedRequest]:
        return [r for r in self.requests if r.method != "GET"]
