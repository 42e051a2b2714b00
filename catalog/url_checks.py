"""Does a product's booking link work? Pure network logic on the standard library; no ORM.

The checker fetches URLs that admins type in, from inside our network, so it guards against
server-side request forgery:

- only http and https, never a URL with credentials in it;
- every host name is resolved first and *all* its addresses must be public (no loopback,
  private, link-local, multicast, reserved, unspecified or shared 100.64/10 address, also when
  wrapped in IPv6), before the first request and again for every redirect hop;
- the connection goes to an address that passed the check, while Host header and TLS SNI carry
  the original name, so a second DNS answer (DNS rebinding) cannot redirect it;
- redirects are followed by hand, at most MAX_REDIRECTS, each hop checked like the first;
- no cookies, no authorization header, nothing stored between requests.

Hosts listed in URL_VALIDATION_ALLOWED_HOSTS (`host` or `host:port`) skip the address check only;
the tests use this to reach their local server.

DNS resolution has no timeout of its own (the C resolver's applies); the task's time limit bounds it.
"""

import http.client
import ipaddress
import socket
import ssl
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote, urljoin, urlsplit

MAX_REDIRECTS = 5
REDIRECT_CODES = frozenset({301, 302, 303, 307, 308})
HEAD_REFUSED_CODES = frozenset({405, 501})
# Some sites answer bots with 403; a browser's User-Agent gets the answer a specialist would get.
REQUEST_HEADERS = {
    "User-Agent": (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/126.0 Safari/537.36 EVI-Interventiewijzer-linkcontrole"
    ),
    "Accept": "text/html,application/xhtml+xml,*/*;q=0.8",
    "Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5",
    "Connection": "close",
}
SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")
# IANA's special-purpose ranges that are not globally reachable, written out because Python's own
# tables changed between patch releases (3.11.7 took 192.0.0.192, a cloud metadata address, for public).
SPECIAL_PURPOSE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "0.0.0.0/8", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.18.0.0/15", "198.51.100.0/24",
        "203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
        "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "fc00::/7", "fe80::/10",
    )
)
# Characters left as they are when a path is made ASCII for the request line (RFC 3986 reserved + '%').
PATH_SAFE_CHARACTERS = "!#$%&'()*+,/:;=?@[]~"


class Outcome(StrEnum):
    OK = "ok"
    HTTP_ERROR = "http_error"  # the server answered 4xx/5xx: counts towards "broken"
    UNREACHABLE = "unreachable"  # no answer we can judge (network, TLS, refused by the guard)


@dataclass(frozen=True)
class CheckResult:
    outcome: Outcome
    http_status: int | None  # the last HTTP status received, if any
    final_url: str  # the last URL looked at (the one that answered, or the one that failed)
    error: str = ""


class UrlRefused(Exception):
    """The guard refuses the URL before any connection is made."""


@dataclass(frozen=True)
class _Target:
    scheme: str
    host: str  # ASCII (IDNA), without IPv6 brackets
    port: int
    path: str  # path and query, ASCII


def check_url(url: str, *, allowed_hosts: Iterable[str] = (), timeout: float = 5.0) -> CheckResult:
    """HEAD the URL (GET when HEAD is refused), following redirects hop by hop under the SSRF guard."""
    allowed = {entry.strip().lower() for entry in allowed_hosts}
    current, last_status = url, None
    for _ in range(MAX_REDIRECTS + 1):
        try:
            target = _parse(current)
            addresses = _resolve(target, allowed)
            status, location = _fetch(target, addresses, timeout)
        except UrlRefused as error:
            return CheckResult(Outcome.UNREACHABLE, last_status, current, f"blocked: {error}")
        except (OSError, http.client.HTTPException) as error:
            return CheckResult(Outcome.UNREACHABLE, last_status, current, _describe(error, timeout))
        last_status = status
        if status in REDIRECT_CODES and location:
            current = urljoin(current, location)
            continue
        if status >= 400:
            return CheckResult(Outcome.HTTP_ERROR, status, current, f"HTTP {status}")
        return CheckResult(Outcome.OK, status, current)
    # Often a login wall that sets a cookie and redirects back; without cookies we cannot tell.
    return CheckResult(Outcome.UNREACHABLE, last_status, current, f"too many redirects (more than {MAX_REDIRECTS})")


def _parse(url: str) -> _Target:
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise UrlRefused(f"scheme {scheme or '(none)'} not allowed")
    if "@" in parts.netloc:
        raise UrlRefused("credentials in url")
    if not parts.hostname:
        raise UrlRefused("no host name")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
        host = parts.hostname.encode("idna").decode("ascii")
    except (ValueError, UnicodeError):
        raise UrlRefused("invalid host or port") from None
    path = quote(parts.path or "/", safe=PATH_SAFE_CHARACTERS)
    if parts.query:
        path += "?" + quote(parts.query, safe=PATH_SAFE_CHARACTERS)
    return _Target(scheme, host, port, path)


def _resolve(target: _Target, allowed: set[str]) -> list[str]:
    """Every address of the host, refused as a whole when any one of them is not public."""
    infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if _is_allowed(target, allowed):
        return addresses
    for address in addresses:
        reason = _non_public_reason(ipaddress.ip_address(address))
        if reason:
            raise UrlRefused(f"{reason} ({address})")
    return addresses


def _is_allowed(target: _Target, allowed: set[str]) -> bool:
    names = (target.host, f"[{target.host}]") if ":" in target.host else (target.host,)
    return any(name in allowed or f"{name}:{target.port}" in allowed for name in names)


def _non_public_reason(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """Why the address must not be fetched from here, or "" when it is a public unicast address."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour or (address.teredo[1] if address.teredo else None)
        if embedded is not None:
            return _non_public_reason(embedded)
    checks = (
        (address.is_unspecified, "unspecified address"),
        (address.is_loopback, "loopback address"),
        (address.is_link_local, "link-local address"),
        (address.is_multicast, "multicast address"),
        (address.version == 4 and address in SHARED_ADDRESS_SPACE, "shared address"),
        (address.is_private, "private address"),
        (any(address in network for network in SPECIAL_PURPOSE_NETWORKS if network.version == address.version), "special-purpose address"),
        (address.is_reserved, "reserved address"),
        (not address.is_global, "non-public address"),
    )
    return next((reason for hit, reason in checks if hit), "")


def _fetch(target: _Target, addresses: list[str], timeout: float) -> tuple[int, str | None]:
    status, location = _send("HEAD", target, addresses, timeout)
    if status in HEAD_REFUSED_CODES:
        status, location = _send("GET", target, addresses, timeout)
    return status, location


def _send(method: str, target: _Target, addresses: list[str], timeout: float) -> tuple[int, str | None]:
    """One request whose status line and headers must arrive within `timeout` in all.

    The socket timeout bounds each read only, so a server that sends a byte every second would hold
    the check for as long as it likes; a timer shuts the socket down when the whole request overruns.
    """
    connection_class = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = connection_class(target.host, target.port, addresses=addresses, timeout=timeout)
    overran = threading.Event()
    watchdog = threading.Timer(timeout, _cut_off, args=(connection, overran))
    watchdog.daemon = True
    watchdog.start()
    try:
        connection.request(method, target.path, headers=REQUEST_HEADERS)
        response = connection.getresponse()
        # The status line and headers are all we need: a GET body is never read, the close drops it.
        return response.status, response.getheader("Location")
    except (OSError, http.client.HTTPException):
        if overran.is_set():
            raise TimeoutError("request overran its deadline") from None
        raise
    finally:
        watchdog.cancel()
        connection.close()


def _cut_off(connection: http.client.HTTPConnection, overran: threading.Event) -> None:
    overran.set()
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed: the request ended just now


def _open_socket(addresses: list[str], port: int, timeout: float) -> socket.socket:
    """Connect to the first address that answers, by number: no name is resolved here."""
    last_error: OSError | None = None
    for address in addresses:
        sock = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect((address, port))
            return sock
        except OSError as error:
            sock.close()
            last_error = error
    raise last_error or OSError("host has no addresses")


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the addresses that passed the guard instead of resolving the host name again."""

    def __init__(self, host: str, port: int, *, addresses: list[str], timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._addresses = addresses

    def connect(self) -> None:
        self.sock = _open_socket(self._addresses, self.port, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """As _PinnedHTTPConnection, with the certificate verified against the original host name (SNI)."""

    def __init__(self, host: str, port: int, *, addresses: list[str], timeout: float) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self._tls)
        self._addresses = addresses

    def connect(self) -> None:
        sock = _open_socket(self._addresses, self.port, self.timeout)
        self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)


def _describe(error: Exception, timeout: float) -> str:
    """A short English description for url_error; the admin shows it next to the status."""
    if isinstance(error, socket.gaierror):
        return f"DNS lookup failed ({error.strerror})"
    if isinstance(error, TimeoutError):
        return f"timed out after {timeout:g} s"
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS certificate not valid ({error.verify_message})"
    if isinstance(error, ssl.SSLError):
        return f"TLS error ({error.reason or error})"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, http.client.HTTPException):
        return f"invalid HTTP response ({type(error).__name__})"
    return f"network error ({error})"
