"""`dataclass`, `field` and `replace` for the text path, without the standard module's import cost.

`import dataclasses` pulls in inspect, ast, dis and tokenize: about 9 ms on every start of the
CLI, as much as the whole rest of a diagnosis. The records of the text path (frames, errors,
points of a training log, matches, lint findings) use a small part of it: fields with defaults
or default factories, frozen instances, slots, eq and hash, order, repr, `replace`, and a subclass
that adds fields after its base's. That part is here; anything else
is refused at class creation rather than silently ignored. mypy reads the standard module instead
(TYPE_CHECKING), so these classes are type-checked exactly as real dataclasses.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs a few ms to import; mypy knows this name
if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from dataclasses import field as field
    from dataclasses import replace as replace
else:
    _MISSING = object()
    _FIELDS = "__record_fields__"

    class FrozenInstanceError(AttributeError):
        pass

    _SPECS = "__record_specs__"

    class _Field:
        __slots__ = ("default", "default_factory", "repr")

        def __init__(self, default: object, default_factory: object, repr: bool) -> None:
            self.default, self.default_factory, self.repr = default, default_factory, repr

    def field(*, default=_MISSING, default_factory=_MISSING, repr=True):
        return _Field(default, default_factory, repr)

    def dataclass(cls=None, /, *, frozen=False, eq=True, order=False, slots=False):
        def wrap(cls):
            return _record(cls, frozen, eq, order, slots)

        return wrap if cls is None else wrap(cls)

    def replace(obj, /, **changes):
        fields = getattr(type(obj), _FIELDS)
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
        return type(obj)(**{name: changes.get(name, getattr(obj, name)) for name in fields})

    def _record(cls, frozen, eq, order, slots):
        if order and not eq:
            raise ValueError("eq must be true if order is true")
        bases = [base for base in cls.__bases__ if hasattr(base, _FIELDS)]
        if len(bases) > 1 or (bases and slots):
            raise TypeError(f"{cls.__name__}: a record inherits fields from one base, unslotted")
        specs = dict(getattr(bases[0], _SPECS)) if bases else {}
        # the class's own annotations, as strings (no inspect: that is the import we avoid)
        own = list(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063
        names = list(specs) + [name for name in own if name not in specs]
        for name in own:
            value = cls.__dict__.get(name, _MISSING)
            spec = value if isinstance(value, _Field) else _Field(value, _MISSING, True)
            specs[name] = spec
            if slots or spec.default is _MISSING:
                if name in cls.__dict__:
                    delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        namespace = {"_setattr": object.__setattr__, "_MISSING": _MISSING}
        params, body = [], []
        for name, spec in specs.items():
            if spec.default_factory is not _MISSING:
                namespace[f"_factory_{name}"] = spec.default_factory
                params.append(f"{name}=_MISSING")
                value = f"_factory_{name}() if {name} is _MISSING else {name}"
            elif spec.default is not _MISSING:
                namespace[f"_default_{name}"] = spec.default
                params.append(f"{name}=_default_{name}")
                value = name
            else:
                if any("=" in p for p in params):
                    raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one")
                params.append(name)
                value = name
            body.append(
                f"_setattr(self, {name!r}, {value})" if frozen else f"self.{name} = {value}"
            )
        source = f"def __init__(self, {', '.join(params)}):\n    " + "\n    ".join(body or ["pass"])

        def __init__(self, *args, **kwargs):
            # Compiled when the first instance is made (~0.1 ms a class: half the records of a
            # start are never made), then in its place: a real signature, instances made as fast
            # as dataclasses'.
            exec(source, namespace)
            record.__init__ = namespace["__init__"]
            record.__init__(self, *args, **kwargs)

        attrs = dict(cls.__dict__)
        # the old class's own descriptors: the new class makes its own (or none, with slots)
        attrs.pop("__dict__", None)
        attrs.pop("__weakref__", None)
        attrs["__init__"] = __init__
        attrs[_FIELDS] = tuple(names)
        attrs[_SPECS] = specs
        shown = [name for name, spec in specs.items() if spec.repr]

        def __repr__(self):
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
            return f"{type(self).__qualname__}({inner})"

        attrs["__repr__"] = __repr__
        if eq:

            def __eq__(self, other):
                if other.__class__ is not self.__class__:
                    return NotImplemented
                # tuples, as dataclasses compare: an identical nan still equals itself
                return tuple(getattr(self, n) for n in names) == tuple(
                    getattr(other, n) for n in names
                )

            attrs["__eq__"] = __eq__
            if frozen:
                attrs["__hash__"] = lambda self: hash(tuple(getattr(self, n) for n in names))
            else:
                attrs["__hash__"] = None
        if order:

            def compare(op):
                def method(self, other):
                    if other.__class__ is not self.__class__:
                        return NotImplemented
                    return op(tuple(getattr(self, n) for n in names),
                              tuple(getattr(other, n) for n in names))  # fmt: skip

                return method

            attrs["__lt__"] = compare(lambda a, b: a < b)
            attrs["__le__"] = compare(lambda a, b: a <= b)
            attrs["__gt__"] = compare(lambda a, b: a > b)
            attrs["__ge__"] = compare(lambda a, b: a >= b)
        if frozen:

            def __setattr__(self, name, value):
                raise FrozenInstanceError(f"cannot assign to field {name!r}")

            def __delattr__(self, name):
                raise FrozenInstanceError(f"cannot delete field {name!r}")

            attrs["__setattr__"], attrs["__delattr__"] = __setattr__, __delattr__
        if slots:
            attrs["__slots__"] = tuple(names)
            attrs["__getstate__"] = lambda self: [getattr(self, n) for n in names]

            def __setstate__(self, state):
                for name, value in zip(names, state, strict=True):
                    object.__setattr__(self, name, value)

            attrs["__setstate__"] = __setstate__
        record = type(cls)(cls.__name__, cls.__bases__, attrs)
        return record

    __all__ = ["FrozenInstanceError", "dataclass", "field", "replace"]
