"""The share link friends can reach (``POST /api/share``) and ``fiftysix serve --public-url``: the public URL
when given, this machine's network address when listening on every interface, else the address the browser
used; always with a QR code of exactly that link."""

from __future__ import annotations

import io
import ipaddress
import re
import socket
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fiftysix.server import Settings
from fiftysix.server.edge.share import check_path, check_public_url, lan_address, loopback_only, share_base
from helpers.server import TestClient, create_app


def post_share(tmp_path: Path, path: str, **settings: str) -> tuple[int, dict[str, object]]:
    app = create_app(Settings(db_url=f"sqlite+aiosqlite:///{tmp_path / 's.db'}", **settings))  # type: ignore[arg-type]
    with TestClient(app, base_url="http://127.0.0.1:8056") as c:
        r = c.post("/api/share", json={"path": path})
        return r.status_code, r.json()


def test_the_public_url_is_the_link_base_and_the_qr_code_holds_the_whole_link(tmp_path: Path) -> None:
    status, body = post_share(tmp_path, "/t/ABC234#k=s3cret", public_url="https://cards.example.org/club",
                              listen_host="0.0.0.0")
    assert status == 200
    assert body["url"] == "https://cards.example.org/club/t/ABC234#k=s3cret"
    assert body["local_only"] is False
    svg = unquote(str(body["qr"]).split(",", 1)[1])
    assert str(body["qr"]).startswith("data:image/svg+xml") and "<svg" in svg and "<path" in svg
    import segno  # the same link encoded again gives the same picture: the code holds exactly the link

    again = io.BytesIO()
    segno.make("https://cards.example.org/club/t/ABC234#k=s3cret", error="m").save(again, kind="svg", scale=4,
                                                                                   border=2)
    drawn = re.compile(r""" d=["']([^"']+)["']""")
    assert drawn.findall(svg) == drawn.findall(again.getvalue().decode())


def test_listening_on_every_interface_gives_this_machines_network_address(tmp_path: Path) -> None:
    status, body = post_share(tmp_path, "/t/ABC234", listen_host="0.0.0.0")
    assert status == 200
    assert body["url"] == f"http://{lan_address()}:8056/t/ABC234"


def test_listening_on_loopback_keeps_the_browsers_address_and_says_it_is_local(tmp_path: Path) -> None:
    status, body = post_share(tmp_path, "/t/ABC234", listen_host="127.0.0.1")
    assert (status, body["url"], body["local_only"]) == (200, "http://127.0.0.1:8056/t/ABC234", True)


@pytest.mark.parametrize("path", ["/api/tables", "https://evil.example/t/X", "/t/A B", "/t/" + "A" * 300, ""])
def test_a_path_that_is_not_a_tables_is_refused_and_named(tmp_path: Path, path: str) -> None:
    status, body = post_share(tmp_path, path)
    assert status == 400 and "path must be a table's path" in str(body["error"])


def test_the_network_address_is_one_of_this_machines_found_without_traffic() -> None:
    address = lan_address()
    ipaddress.ip_address(address)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((address, 0))         # only an address of this machine can be bound


@given(st.sampled_from(["http", "https"]), st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z]{2,6}){1,2}", fullmatch=True),
       st.sampled_from(["", "/", "/club", "/club/"]))
def test_a_public_url_is_kept_without_its_trailing_slash(scheme: str, host: str, prefix: str) -> None:
    url = f"{scheme}://{host}{prefix}"
    assert check_public_url(url) == url.rstrip("/")
    assert share_base(url, "0.0.0.0", "http://127.0.0.1:1/", 1) == url.rstrip("/")
    assert not loopback_only(url)


@pytest.mark.parametrize("url", ["cards.example.org", "ftp://x.org", "https://", "https://x.org/?a=1",
                                 "https://x.org/#k"])
def test_a_bad_public_url_is_refused_with_what_is_allowed(url: str) -> None:
    with pytest.raises(ValueError, match="http:// or https://"):
        check_public_url(url)


def test_serve_refuses_a_bad_public_url_before_listening() -> None:
    from fiftysix.cli.main import main

    err = io.StringIO()
    assert main(["serve", "--public-url", "cards.example.org"], stdout=io.StringIO(), stderr=err) == 2
    assert "--public-url must be" in err.getvalue()


def test_check_path_keeps_a_tables_path() -> None:
    assert check_path("/t/ABC234#k=x_y-z") == "/t/ABC234#k=x_y-z"
