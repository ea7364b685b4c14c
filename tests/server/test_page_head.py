"""Every page the server answers is whole: its head holds each element of the shared head exactly once and the
page's own title, its body what the page's file holds; a browser that has the page gets ``304`` and no body."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from fiftysix.server.pages.html import PAGES, STATIC, compose
from helpers.server import client, create, player

SHARED_HEAD = [
    ("meta", (("charset", "utf-8"),)),
    ("meta", (("name", "viewport"), ("content", "width=device-width, initial-scale=1"))),
    ("meta", (("name", "referrer"), ("content", "no-referrer"))),
    ("link", (("rel", "icon"), ("href", "/static/icons/favicon-32.png"))),
    ("link", (("rel", "manifest"), ("href", "/manifest.webmanifest"))),
    ("meta", (("name", "theme-color"), ("content", "#0f5132"))),
    ("link", (("rel", "apple-touch-icon"), ("href", "/static/icons/apple-touch-icon.png"))),
    ("link", (("rel", "stylesheet"), ("href", "/static/style.css"))),
    ("link", (("rel", "stylesheet"), ("href", "/static/extras.css"))),
]
TITLES = {"index": "fiftysix: play 56 and 55 with friends", "table": "fiftysix table",
          "history": "History · fiftysix", "account": "Account · fiftysix", "club": "Clubs · fiftysix",
          "daily": "Today's deals · fiftysix",
          "review": "Deal review · fiftysix", "offline": "fiftysix: offline", "notfound": "No such table · fiftysix"}


class _Page(HTMLParser):
    """The head's elements with their attributes, the title, and where each part of the document is."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[tuple[str, tuple[tuple[str, str | None], ...]]] = []
        self.opened: list[str] = []
        self.title = ""
        self._in: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.opened.append(tag)
        if self._in[-1:] == ["head"] and tag in ("meta", "link"):
            self.head.append((tag, tuple(attrs)))
        if tag in ("html", "head", "body", "title"):
            self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("html", "head", "body", "title"):
            assert self._in.pop() == tag, f"</{tag}> closes what it did not open"

    def handle_data(self, data: str) -> None:
        if self._in[-1:] == ["title"]:
            self.title += data


def parsed(text: str) -> _Page:
    assert text.startswith("<!doctype html>\n")
    page = _Page()
    page.feed(text)
    page.close()
    return page


def served(code: str) -> dict[str, tuple[str, int]]:
    """Each page's URL as a visitor (or the service worker) reaches it: the page's name and the status."""
    return {"/": ("index", 200), f"/t/{code}": ("table", 200), "/t/ZZZZZZ": ("notfound", 404),
            "/history": ("history", 200), "/account": ("account", 200), "/signin": ("account", 200),
            "/club": ("club", 200), "/daily": ("daily", 200), "/review": ("review", 200), "/offline": ("offline", 200),
            **{f"/static/{name}.html": (name, 200) for name in PAGES}}


def test_every_page_has_the_shared_head_once_and_its_own_title(tmp_path: Path) -> None:
    with client(tmp_path / "h.db") as c:
        code = create(c, player(c, "Asha"))
        seen = set()
        for url, (name, status) in served(code).items():
            r = c.get(url)
            assert r.status_code == status, (url, r.status_code)
            assert r.headers["content-type"] == "text/html; charset=utf-8", url
            page = parsed(r.text)
            for element in SHARED_HEAD:
                assert page.head.count(element) == 1, (url, element, page.head)
            assert len(page.head) == len(SHARED_HEAD), (url, page.head)     # nothing else, nothing twice
            assert page.title == TITLES[name], url
            assert page.opened.count("title") == 1 and page.opened.count("main") == 1, url
            assert page.opened[:3] == ["html", "head", "meta"] and "body" in page.opened, url
            seen.add(name)
        assert seen == set(PAGES)


def test_a_page_s_body_is_its_file_s(tmp_path: Path) -> None:
    """What a page's file says reaches the browser whole: its body's elements, in order (the home link put in)."""
    with client(tmp_path / "b.db") as c:
        for name in PAGES:
            own = (STATIC / f"{name}.html").read_text(encoding="utf-8")
            want = parsed(compose("<!doctype html>\n<html><head><!--head--></head><body><!--body--></body></html>",
                                  own, (STATIC / "home.html").read_text(encoding="utf-8")))
            got = parsed(c.get(f"/static/{name}.html").text)
            body = got.opened[got.opened.index("body"):]
            assert body == want.opened[want.opened.index("body"):], name
        table = c.get("/static/table.html").text
        assert table.count('<a href="/" class="home" title="start page" aria-label="start page">⌂</a>') == 1
        assert "<!--" not in table


def test_a_page_the_browser_holds_is_not_sent_again(tmp_path: Path) -> None:
    with client(tmp_path / "e.db") as c:
        first = c.get("/history")
        tag = first.headers["etag"]
        assert tag.startswith('"') and tag.endswith('"')
        again = c.get("/history", headers={"if-none-match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
        assert c.get("/history", headers={"if-none-match": f'"other", W/{tag}'}).status_code == 304
        assert c.get("/history", headers={"if-none-match": '"other"'}).status_code == 200
        assert c.get("/account", headers={"if-none-match": tag}).status_code == 200      # another page's tag
        shell = c.get("/static/table.html")
        assert c.get("/static/table.html", headers={"if-none-match": shell.headers["etag"]}).status_code == 304
        missing = c.get("/t/ZZZZZZ")     # a 404 page is never "not modified"
        assert c.get("/t/ZZZZZZ", headers={"if-none-match": missing.headers["etag"]}).status_code == 404


def test_the_frame_and_its_parts_are_no_page(tmp_path: Path) -> None:
    with client(tmp_path / "f.db") as c:
        for url in ("/static/frame.html", "/static/home.html", "/static/nosuch.html"):
            assert c.get(url).status_code == 404, url
        assert c.get("/static/style.css").status_code == 200
