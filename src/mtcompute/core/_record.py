"""Small immutable records for the modules that ``mtcompute score`` imports.

What ``@dataclass(frozen=True, slots=True)`` gives those classes (value equality and hashing
over the fields, a readable repr, no attribute assignment after ``__init__``), without
importing :mod:`dataclasses`, which with :mod:`inspect` costs more start-up time than Python
itself. A subclass lists its own fields in ``__slots__`` (in order; a subclass of a record
adds to its base's), annotates them for the type checker, and sets them in ``__init__``
(whose parameters are all the fields, in that order) with ``object.__setattr__``. Positional
``match`` patterns work as on a dataclass; ``dataclasses.asdict`` and ``replace`` do not.
"""

from __future__ import annotations

__all__ = ["Record"]


class Record:
    """Base class: fields are the subclass's ``__slots__``; instances are immutable values.

    >>> class Point(Record):
    ...     __slots__ = ("x", "y")
    ...     def __init__(self, x: int, y: int) -> None:
    ...         object.__setattr__(self, "x", x)
    ...         object.__setattr__(self, "y", y)
    >>> Point(1, 2) == Point(1, 2), Point(1, 2) == Point(2, 1), Point(1, 2)
    (True, False, Point(x=1, y=2))
    >>> match Point(1, 2):
    ...     case Point(x, y):
    ...         print(x + y)
    3
    >>> Point(1, 2).x = 3
    Traceback (most recent call last):
    AttributeError: cannot assign to field 'x' of Point: it is immutable
    """

    __slots__: tuple[str, ...] = ()
    _fields: tuple[str, ...] = ()  # every field, the base classes' first (set per subclass)
    __match_args__: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        own = cls.__dict__.get("__slots__", ())
        cls._fields = (*cls._fields, *((own,) if isinstance(own, str) else own))
        cls.__match_args__ = cls._fields  # type: ignore[misc]  # set once, per class

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__, self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({fields})"

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        # pickle and copy rebuild through __init__, whose parameters are the fields in order
        return self.__class__, self._values()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(
            f"cannot assign to field {name!r} of {self.__class__.__qualname__}: it is immutable"
        )

    def __delattr__(self, name: str) -> None:
        raise AttributeError(
            f"cannot delete field {name!r} of {self.__class__.__qualname__}: it is immutable"
        )
