"""attrs objects ↔ plain data that `marshal` can store (tuples, str, int, float, bool, None):
no pickle, so data read back can build nothing but what it is allowed to.

`flatten(root, classes)` lays every tuple, list, dict and attrs object reachable from `root`
out once in a table, children before their parents, each referred to by its place: `(i,)`.
Shared references stay shared and identity is kept (a kind's chain holds the very declarations
its library's modules hold, and code compares them with `is`). `rebuild(data, classes)` reads
the table once, front to back, and builds objects only of the given classes, by name, through
their own `__init__`; a name not among them, a value of any other type, a reference to a later
place or a wrong number of fields is a ValueError: a damaged or forged file cannot build an
unexpected object, and builds nothing that runs code.
"""
from __future__ import annotations

from typing import Any, Iterable

import attrs

SCALARS = (str, int, float, bool, type(None))
_TUPLE, _LIST, _DICT, _OBJECT = "t", "l", "d", "o"


class Classes:
    """The classes data may hold, by name (the module's last part and the class name)."""

    def __init__(self, classes: Iterable[type]):
        self.by_name: dict[str, type] = {}
        self.names: dict[type, str] = {}
        self.fields: dict[type, tuple[str, ...]] = {}  # attrs.fields costs a call each time
        for cls in classes:
            fields = attrs.fields(cls)
            # Built from their fields in order: every field must be a plain positional one.
            if any(not f.init or f.kw_only or f.converter is not None
                   or f.validator is not None for f in fields) \
                    or hasattr(cls, "__attrs_post_init__"):
                raise TypeError(f"{cls.__qualname__} cannot be rebuilt from its fields")
            name = f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"
            self.by_name[name] = cls
            self.names[cls] = name
            self.fields[cls] = tuple(f.name for f in fields)


def flatten(root: Any, classes: Classes) -> tuple[tuple, Any]:
    """(table, root's value). ValueError for an object of a class not in `classes`, a value
    of any other type, or a cycle."""
    table: list[tuple] = []
    place: dict[int, tuple[int]] = {}
    busy: set[int] = set()

    names, fields = classes.names, classes.fields

    # (a hot loop when a large mod's parsed files are kept: lists, not generators, and each
    # class's field names looked up once)
    def value(obj: Any) -> Any:
        kind = type(obj)
        if kind in SCALARS:
            return obj
        key = id(obj)
        known = place.get(key)
        if known is not None:
            return known
        if key in busy:
            raise ValueError("a cycle")
        busy.add(key)
        if kind is tuple:
            entry: tuple = (_TUPLE, tuple([value(x) for x in obj]))
        elif kind is list:
            entry = (_LIST, tuple([value(x) for x in obj]))
        elif kind is dict:
            entry = (_DICT, tuple([value(x) for kv in obj.items() for x in kv]))
        elif kind in names:
            entry = (_OBJECT, names[kind], tuple([value(getattr(obj, f)) for f in fields[kind]]))
        else:
            raise ValueError(f"cannot store a {kind.__name__}")
        busy.discard(key)
        known = place[key] = (len(table),)
        table.append(entry)
        return known

    top = value(root)
    return tuple(table), top


def rebuild(data: Any, classes: Classes) -> Any:
    """The object `flatten` was given, from its (table, root). ValueError for anything else."""
    try:
        table, top = data
        built: list[Any] = []

        def value(v: Any) -> Any:
            kind = type(v)
            if kind in SCALARS:
                return v
            if kind is tuple and len(v) == 1 and type(v[0]) is int and 0 <= v[0] < len(built):
                return built[v[0]]
            raise ValueError("not a stored value")

        for entry in table:
            tag, body = entry[0], entry[-1]
            if type(body) is not tuple or len(entry) != (3 if tag == _OBJECT else 2):
                raise ValueError("not a stored entry")
            items = [v if type(v) in SCALARS else value(v) for v in body]
            if tag == _TUPLE:
                built.append(tuple(items))
            elif tag == _LIST:
                built.append(items)
            elif tag == _DICT:
                built.append(dict(zip(items[::2], items[1::2], strict=True)))
            elif tag == _OBJECT and type(entry[1]) is str and entry[1] in classes.by_name:
                built.append(classes.by_name[entry[1]](*items))
            else:
                raise ValueError("not a stored entry")
        return value(top)
    except ValueError:
        raise
    except Exception as err:  # noqa: BLE001 - any other shape of bad data (a list as a key, …)
        raise ValueError(f"not stored data: {err}") from None
