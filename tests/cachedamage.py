"""Ways a cache file can be damaged or planted, shared by the grammar and library cache tests:
each cache must ignore such a file and load from the source instead."""
import os
from pathlib import Path


def damage(path: Path, how: str) -> None:
    """Damage the cache file at `path`: its data (`payload`), its key, all of it (`garbage`),
    half of it (`truncate`), its permissions (`group-writable`), or put a link in its place
    (`link`, to a copy elsewhere in the same folder)."""
    blob = path.read_bytes()
    if how == "payload":
        path.write_bytes(blob[:-3] + b"\x00\x00\x00")
    elif how == "key":
        path.write_bytes(blob.replace(blob.split(b" ")[1], b"0" * 64, 1))
    elif how == "garbage":
        path.write_bytes(os.urandom(len(blob)))
    elif how == "truncate":
        path.write_bytes(blob[: len(blob) // 2])
    elif how == "group-writable":
        os.chmod(path, 0o664)
    elif how == "link":
        other = path.parent / "elsewhere.bin"
        other.write_bytes(blob)
        path.unlink()
        path.symlink_to(other)
    else:
        raise ValueError(how)
