"""Each algorithm's options as its C++ declaration gives them (the YAML configs read the same one):
the package's functions take them as keyword arguments and pass them to the extension whole,
which checks names, kinds and ranges; here they become the functions' signatures and help."""

import functools
import inspect
import warnings

from . import _kollective


@functools.lru_cache(maxsize=None)
def fields(algorithm):
    """The declared options of "schulze", "kemeny", "coalition" or "ranksvm": dicts (name, kind,
    default, choices, range, note, meaning, former_names)."""
    return tuple(getattr(_kollective, algorithm + "_options")())


def given(options):
    """The keyword arguments a caller gave: None stands for the option's default."""
    return {name: value for name, value in options.items() if value is not None}


def current_name(algorithm, name, stacklevel=3):
    """`name`, or the name it was renamed to (with a FutureWarning, as the extension warns, at the
    caller `stacklevel` frames up)."""
    for field in fields(algorithm):
        if name in field["former_names"]:
            warnings.warn(f"'{name}' is now '{field['name']}' (CHANGELOG.md); read as {field['name']}", FutureWarning,
                          stacklevel=stacklevel)
            return field["name"]
    return name


def help_text(algorithm):
    """The options as a docstring section: name=default, the allowed values, the meaning."""
    lines = ["", "Options (keyword arguments; the YAML runs' `options:` of the same names):"]
    for field in fields(algorithm):
        allowed = field["range"] + (f" ({field['note']})" if field["note"] else "")
        lines.append(f"    {field['name']}={field['default']!r}: {field['meaning']}" + (f" [{allowed}]" if allowed else ""))
    return "\n".join(lines)


def declare(function, algorithm):
    """Gives `function` (whose options arrive as **options) the declared keyword arguments with
    their defaults in its signature, and their help in its docstring."""
    signature = inspect.signature(function)
    leading = [p for p in signature.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    options = [inspect.Parameter(f["name"], inspect.Parameter.KEYWORD_ONLY, default=f["default"])
               for f in fields(algorithm)]
    function.__signature__ = signature.replace(parameters=leading + options)
    function.__doc__ = (function.__doc__ or "") + "\n" + help_text(algorithm)
    return function
