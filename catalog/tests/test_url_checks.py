"""The network half of the link check: HTTP behaviour against a local server, and the SSRF guard."""

import socket

import pytest

from catalog.url_checks import MAX_REDIRECTS, Outcome, check_url


def _check(server, path: str):
    return check_url(server.url_for(path), allowed_hosts=[f"127.0.0.1:{server.port}"], timeout=0.5)


def _fake_dns(monkeypatch, answers: dict[str, list[str]]):
    """Resolve the given names to the given addresses; other names fail like an unknown host."""
    lookups = []

    def getaddrinfo(host, port, *args, **kwargs):
        lookups.append(host)
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))
            for address in answers[host]
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("http://127.0.0.1/", "blocked: loopback address (127.0.0.1)"),
        ("http://169.254.169.254/latest/meta-data", "blocked: link-local address (169.254.169.254)"),
        ("http://[::1]/", "blocked: loopback address (::1)"),
        ("http://10.0.0.1/", "blocked: private address (10.0.0.1)"),
        ("http://192.168.1.10:8080/admin", "blocked: private address (192.168.1.10)"),
        ("http://100.64.0.1/", "blocked: shared address (100.64.0.1)"),
        ("http://[::ffff:10.0.0.1]/", "blocked: private address (::ffff:10.0.0.1)"),
        ("http://[fd00::1]/", "blocked: private address (fd00::1)"),
        ("http://224.0.0.1/", "blocked: multicast address (224.0.0.1)"),
        ("http://192.0.0.192/latest/meta-data", "blocked: special-purpose address (192.0.0.192)"),
        ("http://198.18.0.1/", "blocked: private address (198.18.0.1)"),
        ("http://[2001:db8::1]/", "blocked: private address (2001:db8::1)"),
        ("http://0.0.0.0/", "blocked: unspecified address (0.0.0.0)"),
        ("http://0x7f.1/", "blocked: loopback address (127.0.0.1)"),
        ("http://localhost/", "blocked: loopback address"),
        ("file:///etc/passwd", "blocked: scheme file not allowed"),
        ("ftp://example.com/", "blocked: scheme ftp not allowed"),
        ("http://user:pass@example.com/", "blocked: credentials in url"),
        ("javascript:alert(1)", "blocked: scheme javascript not allowed"),
    ],
)
def test_it_refuses_non_public_targets_without_connecting(no_connections, url, error):
    result = check_url(url)
    assert result.outcome == Outcome.UNREACHABLE
    assert result.error.startswith(error)
    assert result.http_status is None
    assert result.final_url == url


def test_it_refuses_a_host_name_that_resolves_to_loopback(no_connections, monkeypatch):
    _fake_dns(monkeypatch, {"intranet.example": ["127.0.0.1"]})
    assert check_url("https://intranet.example/").error == "blocked: loopback address (127.0.0.1)"


def test_it_refuses_a_host_name_when_any_of_its_addresses_is_private(no_connections, monkeypatch):
    _fake_dns(monkeypatch, {"mixed.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "10.1.2.3"]})
    assert check_url("http://mixed.example/").error == "blocked: private address (10.1.2.3)"


def test_it_reports_a_dns_failure_as_unreachable(no_connections, monkeypatch):
    _fake_dns(monkeypatch, {})
    result = check_url("https://does-not-exist.example/")
    assert result.outcome == Outcome.UNREACHABLE
    assert result.error.startswith("DNS lookup failed")


def test_it_allows_only_the_exact_host_and_port_listed(link_server, no_connections):
    result = check_url("http://127.0.0.1/", allowed_hosts=[f"127.0.0.1:{link_server.port}"])
    assert result.error == "blocked: loopback address (127.0.0.1)"


def test_it_connects_to_the_address_it_checked_and_sends_the_original_host(link_server, monkeypatch):
    link_server.expect_request("/pinned").respond_with_data("ok")
    lookups = _fake_dns(monkeypatch, {"pinned.example": ["127.0.0.1"]})
    result = check_url(f"http://pinned.example:{link_server.port}/pinned", allowed_hosts=[f"pinned.example:{link_server.port}"])
    assert result.outcome == Outcome.OK
    assert lookups == ["pinned.example"]  # resolved once: the connection used that answer, not a new lookup
    request, _ = link_server.log[-1]
    assert request.headers["Host"] == f"pinned.example:{link_server.port}"


def test_it_sends_a_browser_user_agent_and_never_cookies_or_credentials(link_server):
    link_server.expect_request("/login").respond_with_data(
        "", status=302, headers={"Location": "/home", "Set-Cookie": "session=abc; Path=/"}
    )
    link_server.expect_request("/home").respond_with_data("welkom")
    assert _check(link_server, "/login").outcome == Outcome.OK
    for request, _ in link_server.log:
        assert request.method == "HEAD"
        assert "Mozilla/5.0" in request.headers["User-Agent"]
        assert "Cookie" not in request.headers
        assert "Authorization" not in request.headers


def test_it_follows_at_most_five_redirects(link_server):
    link_server.expect_request("/loop").respond_with_data("", status=302, headers={"Location": "/loop"})
    result = _check(link_server, "/loop")
    assert result.outcome == Outcome.UNREACHABLE
    assert result.error == f"too many redirects (more than {MAX_REDIRECTS})"
    assert len(link_server.log) == MAX_REDIRECTS + 1


def test_it_reports_a_refused_connection_as_unreachable():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = check_url(f"http://127.0.0.1:{port}/", allowed_hosts=[f"127.0.0.1:{port}"], timeout=0.5)
    assert (result.outcome, result.error) == (Outcome.UNREACHABLE, "connection refused")


def test_it_reports_a_tls_failure_as_unreachable(link_server):
    url = link_server.url_for("/").replace("http://", "https://")
    result = check_url(url, allowed_hosts=[f"127.0.0.1:{link_server.port}"], timeout=0.5)
    assert result.outcome == Outcome.UNREACHABLE
    assert result.error.startswith("TLS error")


def test_it_gives_up_on_a_server_that_drips_its_answer(drip_server):
    """The timeout bounds the whole request, not each read: a status line sent a byte every 0.1 s is cut off."""
    server = drip_server(b"", b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" * 20, 0.1)
    url = f"http://127.0.0.1:{server.port}/traag"
    result = check_url(url, allowed_hosts=[f"127.0.0.1:{server.port}"], timeout=0.5)
    assert result.outcome == Outcome.UNREACHABLE and result.error == "timed out after 0.5 s"
    assert server.cut_off.wait(timeout=30)  # the checker hung up long before the server was done
