"""Who may ask raiders' HTTP servers anything (`serve` and `record`): the checks every request
passes before a server reads it further, written once for both (docs/security.md).

- **Host**: the request's `Host:` must name this server, with its port (a browser leaves out
  port 80). A name is this server's when it is `localhost` or one the user gave
  (`--allow-host`, or the name of the address it is bound to); any IP address literal is too,
  because DNS rebinding — a page whose own name now leads to this machine — always arrives
  with a name, never an address.
- **Token**: a server that other machines can reach wants its random token on every request,
  compared in constant time.
"""
from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
import socket
from typing import Optional

import attrs

_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[^:\[\]]+)(?::([0-9]{1,5}))?")


def is_loopback(address: str) -> bool:
    """Whether a bind address reaches this machine only."""
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return address == "localhost"


def url_host(address: str) -> str:
    """An address as a URL writes it (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


def new_token() -> str:
    return secrets.token_urlsafe(24)


def network_address() -> str:
    """This machine's address on its network (the one other machines reach it by), for the
    URL a server bound to every address prints; 127.0.0.1 when there is no network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this picks the outgoing address
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


@attrs.frozen
class Guard:
    """The checks of one server: its port, the host names it answers to (lowercase, without
    port; addresses need not be listed) and its token (None: none wanted, on the loopback)."""

    port: int
    names: frozenset[str]
    token: Optional[str] = None

    @classmethod
    def for_bind(cls, bind: str, port: int, extra: tuple[str, ...] = (),
                 token: Optional[str] = None) -> Guard:
        """A server bound to `bind`: `localhost`, the machine's own name when bound to every
        address, and the extra names the user allowed."""
        names = {"localhost", *extra}
        if bind in ("0.0.0.0", "::", ""):
            names.add(socket.gethostname())
        elif not _is_address(bind):
            names.add(bind)
        return cls(port, frozenset(n.lower() for n in names), token)

    def host_allowed(self, host: Optional[str]) -> bool:
        """Whether a `Host:` value names this server, with its port."""
        m = _HOST.fullmatch((host or "").strip().lower())
        if m is None:
            return False
        port = int(m.group(2)) if m.group(2) else 80
        name = m.group(1)
        return port == self.port and (name in self.names or _is_address(name))

    def token_given(self, given: Optional[str]) -> bool:
        """Whether the request carries this server's token (always, when it wants none)."""
        if self.token is None:
            return True
        return hmac.compare_digest((given or "").encode(), self.token.encode())
