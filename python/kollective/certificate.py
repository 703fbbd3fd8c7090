"""Checks a Kollective Kemeny certificate against its input, with integers only.

    python3 certificate.py INPUT CERTIFICATE      (or: scripts/kollective check-certificate ...)

Standard library only, and no import of the rest of the package, so that it runs anywhere and
trusts nothing of Kollective's compiled code. docs/certificates.md states the format and what a
certificate proves. Every ranking's distance is the sum over its pairs across the Condorcet
components, each at least the smaller count, and over its pairs inside each component, at least
that component's optimum, which the component's entry proves. A ranking whose distance meets that
sum is optimal.

Exit status: 0 certified, 1 rejected (the message names what failed), 2 the input or the
certificate cannot be read, 3 not certified (a component solved by the subset DP is larger than
this checker re-solves).
"""

import csv
import json
import math
import operator
import re
import sys
from fractions import Fraction

DP_LIMIT = 14  # the largest DP component this checker solves again (2^14 subsets, about a second)
BLANKS = " \t\r\n"  # what the C++ readers trim
DECIMAL = re.compile(r"[+-]?[0-9]+\Z")  # int() would also take '1_000' and non-ASCII digits
ONLY_DECIMALS = re.compile(r"[\s0-9+-]*\Z")
# A decimal as the C++ reader's grammar takes it (an exponent of 3 digits at most: larger ones
# overflow a double there, and would make Fraction slow here).
COUNT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?\Z")


class Rejected(Exception):
    """The certificate does not prove what it claims."""


class Unreadable(Exception):
    """The input or the certificate cannot be read."""


class NotCertified(Exception):
    """Nothing wrong was found, but a part has no proof this checker can verify."""


# ---- inputs: the doubled counts o[i][j] (a pair's margin for signed weights) and the shift


def numbered(n):
    """The names of alternatives a file does not name: 1..n."""
    return [str(a + 1) for a in range(n)]


def margins_of(weights, n, where):
    """Signed weights as margins (doubled) and the doubled sum of each pair's smaller weight."""
    o = [[0] * n for _ in range(n)]
    shift = 0
    for i in range(n):
        for j in range(i + 1, n):
            forward, backward = weights[i][j], weights[j][i]
            if forward > backward:
                o[i][j] = 2 * (forward - backward)
            else:
                o[j][i] = 2 * (backward - forward)
            shift += 2 * min(forward, backward)
    return o, shift




def text_lines(path):
    """The lines of a text file as the C++ readers take them: split at '\n' only, each without
    one trailing '\r', the file without its BOM (a lone '\r' ends no line there)."""
    with open(path, newline="", encoding="utf-8-sig", errors="surrogateescape") as f:
        return [line[:-1] if line.endswith("\r") else line for line in f.read().split("\n")]


def utf8_names(names, path):
    """Names as Kollective takes them: UTF-8 text (text_lines keeps other bytes as surrogates)."""
    for a, name in enumerate(names, 1):
        if any("\udc80" <= c <= "\udcff" for c in name):
            raise Unreadable(f"{path}: the name of alternative {a} is not UTF-8 text")
    return names


def csv_records(path):
    """The CSV records of `path` as the C++ reader splits them (RFC 4180; blank lines and lines
    starting with '#' between records skipped; unquoted cells trimmed), each with its line."""
    lines = text_lines(path)
    at = 0
    while at < len(lines):
        line, number = lines[at], at + 1
        at += 1
        if not line.strip(BLANKS) or line.startswith("#"):
            continue
        cells, cell, quoted, closed, i = [], "", False, False, 0
        while True:
            if i == len(line):
                if not quoted:
                    break
                if at == len(lines):
                    raise Unreadable(f"{path}:{number}: quoted cell not closed before the end of the file")
                line, i, cell = lines[at], 0, cell + "\n"
                at += 1
                continue
            c = line[i]
            i += 1
            if quoted:
                if c != '"':
                    cell += c
                elif i < len(line) and line[i] == '"':
                    cell, i = cell + '"', i + 1
                else:
                    quoted, closed = False, True
            elif c == ",":
                cells.append(cell if closed else cell.strip(BLANKS))
                cell, closed = "", False
            elif closed:
                if c not in " \t":
                    raise Unreadable(f"{path}:{number}: text after the closing quote (cell {len(cells) + 1})")
            elif c == '"':
                if cell.strip(BLANKS):
                    raise Unreadable(f"{path}:{number}: quote inside an unquoted cell (cell {len(cells) + 1})")
                cell, quoted = "", True
            else:
                cell += c
        cells.append(cell if closed else cell.strip(BLANKS))
        yield number, cells


def decimal(text):
    """A decimal as the C++ reader takes one (digits, an optional fraction and exponent), exactly,
    or None."""
    return Fraction(text) if COUNT.match(text) else None


def read_matrix_csv(path, signed):
    """A pairwise CSV as the C++ reader takes it: an optional header row of names (its first cell
    empty or not a number), a name column only with a header (each row's name that column's),
    counts (whole or ending in .5, the diagonal 0 or empty) or integer weights (the diagonal
    ignored). Returns the doubled counts, the shift, False and the names."""
    records = iter(csv_records(path))
    first = next(records, None)
    if first is None:
        raise Unreadable(f"{path}: no matrix rows")
    header_line, cells = first
    header = cells[0] == "" or decimal(cells[0]) is None
    if header:
        names = cells[1:] if cells[0] == "" else cells
        if not names or any(name == "" for name in names) or len(set(names)) != len(names):
            raise Unreadable(f"{path}:{header_line}: the header's names are not distinct and non-empty")
        utf8_names(names, path)
        first = next(records, None)
        if first is None:
            raise Unreadable(f"{path}:{header_line}: header but no matrix rows")
    else:
        names = numbered(len(cells))
    n = len(names)
    named = header and len(first[1]) == n + 1
    rows = []
    for number, cells in [first, *records]:
        if len(rows) == n:
            raise Unreadable(f"{path}:{number}: more rows than the {n} alternatives")
        i = len(rows)
        if len(cells) != (n + 1 if named else n):
            raise Unreadable(f"{path}:{number}: row has {len(cells)} cells, expected {n + 1 if named else n}")
        if named and cells[0] != names[i]:
            raise Unreadable(f"{path}:{number}: row name '{cells[0]}' does not match column name '{names[i]}'")
        values = []
        for j, text in enumerate(cells[1:] if named else cells):
            if signed:
                value = Fraction(0) if i == j else Fraction(text) if DECIMAL.match(text) and len(text) < 20 else None
            else:
                value = Fraction(0) if i == j and text == "" else decimal(text)
            if signed and (value is None or not -(1 << 31) < value < (1 << 31)):
                raise Unreadable(f"{path}:{number}: cell {j + 1} '{text}' is not an integer weight")
            if not signed and (value is None or value < 0 or (2 * value).denominator != 1 or 2 * value > 4294967295):
                raise Unreadable(f"{path}:{number}: cell {j + 1} '{text}' is not a count")
            if not signed and i == j and value != 0:
                raise Unreadable(f"{path}:{number}: diagonal cell must be 0 or empty, got '{text}'")
            values.append(value)
        rows.append(values)
    if len(rows) < n:
        raise Unreadable(f"{path}: {n} alternatives but {len(rows)} rows")
    if signed:
        return margins_of([[int(v) for v in row] for row in rows], n, path) + (False, names)
    return [[int(2 * v) for v in row] for row in rows], 0, False, names




def lolib_integer(token):
    """An integer of magnitude below 2^31, as the C++ reader takes it, or None."""
    if len(token) > 20 or not DECIMAL.match(token):
        return None
    value = int(token, 10)
    return value if -(1 << 31) < value < (1 << 31) else None


def lolib_plain(text):
    """The weights of a LOLIB file of n and n x n integers, with or without a name line first and
    again last, or None for anything else, which read_lolib's line-by-line reading then takes or
    refuses with its line."""
    first, _, rest = text.partition("\n")
    if first.split() and not DECIMAL.match(first.split()[0]):  # a name line
        name, text = first.strip(), rest
        body, _, last = text.rstrip().rpartition("\n")
        if last.strip() == name:
            text = body
    if not ONLY_DECIMALS.match(text):
        return None
    tokens = text.split()
    try:
        values = [int(token, 10) for token in tokens]
    except ValueError:  # a stray sign
        return None
    if not values or not 1 <= values[0] <= 65536 or len(values) != 1 + values[0] * values[0]:
        return None
    if any(len(token) > 20 for token in tokens) or not -(1 << 31) < min(values) <= max(values) < (1 << 31):
        return None
    n = values[0]
    return [values[1 + i * n : 1 + (i + 1) * n] for i in range(n)], n


def read_lolib(path):
    """LOLIB's format as the C++ reader takes it: an optional name line (line 1, when its first
    token is not an integer), n, then n x n integers; after the full matrix only the name line may
    come again. The diagonal is ignored."""
    lines = text_lines(path)
    text = "\n".join(lines)
    plain = lolib_plain(text)
    if plain is not None:
        return margins_of(plain[0], plain[1], path) + (False, numbered(plain[1]))
    n, values, name = None, [], None
    for number, line in enumerate(lines, 1):
        if n is not None and len(values) == n * n and name is not None and line.strip() == name:
            continue
        for token in line.split():
            if number == 1 and n is None and lolib_integer(token) is None:
                name = line.strip()
                break
            value = lolib_integer(token)
            if value is None:
                raise Unreadable(f"{path}:{number}: '{token}' is not an integer of magnitude below 2^31")
            if n is None:
                if not 1 <= value <= 65536:
                    raise Unreadable(f"{path}:{number}: the size {value} is not in [1, 65536]")
                n = value
            elif len(values) == n * n:
                raise Unreadable(f"{path}:{number}: more than the {n} x {n} values of the matrix")
            else:
                values.append(value)
    if n is None or len(values) < n * n:
        raise Unreadable(f"{path}: not n followed by n x n integers")
    weights = [values[i * n : (i + 1) * n] for i in range(n)]
    return margins_of(weights, n, path) + (False, numbered(n))


MAX_PREFLIB_ALTERNATIVES = 1 << 20  # the C++ reader's bounds
MAX_VOTERS = (1 << 31) - 1
PREFLIB_TYPES = ("soc", "soi", "toc", "toi")


def whole_number(text, low, high, path, number, what):
    """`text`, blanks trimmed, as a whole number of ASCII digits in [low, high]."""
    text = text.strip(BLANKS)
    if not (text.isascii() and text.isdigit() and len(text) <= 20) or not low <= int(text) <= high:
        raise Unreadable(f"{path}:{number}: {what} '{text}' is not a whole number in {low}..{high}")
    return int(text)


def preflib_header(path, lines):
    """n, the names and the declared totals and type from a PrefLib file's header (its leading
    '#' lines), as the C++ reader takes them: `# KEY: value` lines, the keys it uses at most once,
    names not given are the numbers."""
    n, given, declared = None, [], {}
    for number, line in lines:
        if not line.startswith("#"):
            break
        if ":" not in line:
            continue  # a free comment
        key, value = (part.strip(BLANKS) for part in line[1:].split(":", 1))
        if key.startswith("ALTERNATIVE NAME "):
            given.append((key[len("ALTERNATIVE NAME "):].strip(BLANKS), value, number))
            continue
        if key not in ("NUMBER ALTERNATIVES", "NUMBER VOTERS", "NUMBER UNIQUE ORDERS", "DATA TYPE", "TITLE"):
            continue
        if key in declared:
            raise Unreadable(f"{path}:{number}: repeated header '{key}'")
        declared[key] = value
        if key == "NUMBER ALTERNATIVES":
            n = whole_number(value, 1, MAX_PREFLIB_ALTERNATIVES, path, number, key)
        elif key in ("NUMBER VOTERS", "NUMBER UNIQUE ORDERS"):
            declared[key] = whole_number(value, 0, MAX_VOTERS, path, number, key)
        elif key == "DATA TYPE" and value not in PREFLIB_TYPES:
            raise Unreadable(f"{path}:{number}: DATA TYPE '{value}' is not an ordinal type")
    if n is None:
        raise Unreadable(f"{path}: its header has no '# NUMBER ALTERNATIVES: n' line")
    names, named = numbered(n), {}
    for key, value, number in given:
        a = whole_number(key, 1, n, path, number, "alternative number")
        if a in named or value == "":
            raise Unreadable(f"{path}:{number}: alternative {a} is named twice or has an empty name")
        named[a] = value
        names[a - 1] = value
    if len(set(names)) != n:
        raise Unreadable(f"{path}: two alternatives have the same name")
    return n, utf8_names(names, path), declared


def preflib_legacy_header(path, lines):
    """n, the names, the totals line's three numbers and the number of header lines of PrefLib's
    format before 2022: n, then n lines `i,Name`, then `voters,sum of counts,unique orders`."""
    number, first = lines[0]
    if not (first.isascii() and first.isdigit()):
        raise Unreadable(f"{path}:{number}: expected '# KEY: value' header lines or the number of alternatives")
    n = whole_number(first, 1, MAX_PREFLIB_ALTERNATIVES, path, number, "number of alternatives")
    if len(lines) < n + 2:
        raise Unreadable(f"{path}: the file ends inside the header ({n} name lines and a totals line expected)")
    names = []
    for i, (number, line) in enumerate(lines[1 : n + 1], 1):
        index, comma, name = line.partition(",")
        if not comma or index.strip(BLANKS) != str(i):
            raise Unreadable(f"{path}:{number}: expected '{i},Name'")
        if not name.strip(BLANKS):
            raise Unreadable(f"{path}:{number}: alternative {i} has an empty name")
        names.append(name.strip(BLANKS))
    if len(set(names)) != n:
        raise Unreadable(f"{path}: two alternatives have the same name")
    number, totals = lines[n + 1]
    fields = totals.split(",")
    if len(fields) != 3:
        raise Unreadable(f"{path}:{number}: expected 'voters,sum of counts,unique orders'")
    totals = [whole_number(field, 0, MAX_VOTERS, path, number, "a total") for field in fields]
    return n, utf8_names(names, path), totals, n + 2


def parse_order(text, n, path, number):
    """A ballot's order as the C++ reader parses it: alternatives 1..n (ASCII digits), '{a,b}' a
    tie, ',' between groups, blanks (spaces and tabs) around each; 0-based groups."""
    groups, seen, i = [], set(), 0

    def fault(what):
        return Unreadable(f"{path}:{number}: {what}")

    def skip():
        nonlocal i
        while i < len(text) and text[i] in " \t":
            i += 1

    def alternative():
        nonlocal i
        skip()
        start = i
        while i < len(text) and "0" <= text[i] <= "9":
            i += 1
        if start == i:
            raise fault(f"unexpected {text[i]!r} in order" if i < len(text) else "order ends where an alternative was expected")
        if i - start > 20 or not 1 <= int(text[start:i]) <= n:
            raise fault(f"unknown alternative {text[start:i]} (alternatives are 1..{n})")
        a = int(text[start:i])
        if a in seen:
            raise fault(f"alternative {a} appears twice in one order")
        seen.add(a)
        skip()
        return a - 1

    skip()
    if i == len(text):
        raise fault("empty order")
    while True:
        skip()
        if i < len(text) and text[i] == "{":
            i += 1
            skip()
            if i < len(text) and text[i] == "}":
                raise fault("empty tie group '{}'")
            group = []
            while True:
                group.append(alternative())
                if i < len(text) and text[i] in ",}":
                    i += 1
                    if text[i - 1] == "}":
                        break
                    continue
                raise fault("unbalanced braces: '{' without matching '}'")
            groups.append(group)
        elif i < len(text) and text[i] == "}":
            raise fault("unbalanced braces: '}' without matching '{'")
        else:
            groups.append([alternative()])
        skip()
        if i == len(text):
            return groups
        if text[i] != ",":
            raise fault(f"expected ',' but found {text[i]!r}")
        i += 1


def add_ballot(o, n, groups, count):
    """Adds `count` voters of the order `groups` to the doubled counts o (a tie counts 1/2 each
    way, an unranked alternative comes after every ranked one)."""
    position = [None] * n
    for place, group in enumerate(groups):
        for a in group:
            position[a] = place
    for a in range(n):
        for b in range(n):
            if a == b or position[a] is None:
                continue
            if position[b] is None or position[a] < position[b]:
                o[a][b] += 2 * count
            elif position[a] == position[b]:
                o[a][b] += count


def data_type(ties, incomplete):
    return ("toi" if incomplete else "toc") if ties else ("soi" if incomplete else "soc")


def admits(declared, actual):
    """Whether data of type `actual` may be in a file declared `declared` (PrefLib's types)."""
    return {"toi": True, "toc": actual in ("soc", "toc"), "soi": actual in ("soc", "soi"),
            "soc": actual == "soc"}.get(declared, True)


def read_preflib(path, alternatives):
    """Counts from a PrefLib file as Kollective reads it, whether every ballot ranks every
    alternative without ties, and the names. The current format: a header of '#' lines with
    `# NUMBER ALTERNATIVES: n`, then `count: order` lines; the format before 2022: n, n lines
    `i,Name`, a totals line, then `count,order` lines. Declared totals and types (the header's,
    the file extension's) must hold. `alternatives`: the certificate's n, compared before the
    counts take n x n memory."""
    lines = [(number, line.strip(BLANKS)) for number, line in enumerate(text_lines(path), 1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise Unreadable(f"{path}: empty file")
    current = lines[0][1].startswith("#")
    if current:
        n, names, declared = preflib_header(path, lines)
        data = next((k for k, (_, line) in enumerate(lines) if not line.startswith("#")), len(lines))
    else:
        n, names, totals, data = preflib_legacy_header(path, lines)
        declared = {"NUMBER VOTERS": totals[0], "sum of counts": totals[1], "NUMBER UNIQUE ORDERS": totals[2]}
    if n != alternatives:
        raise Rejected(f"the input has {n} alternatives, the certificate {alternatives}")
    if data == len(lines):
        raise Unreadable(f"{path}: no orders after the header")
    o = [[0] * n for _ in range(n)]
    separator, total, ties, incomplete = ":" if current else ",", 0, False, False
    for number, line in lines[data:]:
        if current and line.startswith("#"):
            raise Unreadable(f"{path}:{number}: header line after the data")
        count_text, found, order = line.partition(separator)
        if not found:
            raise Unreadable(f"{path}:{number}: expected 'count{separator}order'")
        count = whole_number(count_text, 1, MAX_VOTERS, path, number, "count")
        total += count
        if total > MAX_VOTERS:
            raise Unreadable(f"{path}:{number}: the counts add up to more than {MAX_VOTERS} voters")
        groups = parse_order(order, n, path, number)
        ties = ties or any(len(group) > 1 for group in groups)
        incomplete = incomplete or sum(map(len, groups)) < n
        add_ballot(o, n, groups, count)
    orders = len(lines) - data
    for key, actual in (("NUMBER VOTERS", total), ("sum of counts", total), ("NUMBER UNIQUE ORDERS", orders)):
        if key in declared and declared[key] != actual:
            raise Unreadable(f"{path}: the header's {key} is {declared[key]}, but the orders give {actual}")
    actual = data_type(ties, incomplete)
    extension = path.rsplit(".", 1)[-1] if "." in path else ""
    for stated in (declared.get("DATA TYPE", ""), extension if extension in PREFLIB_TYPES else ""):
        if stated and not admits(stated, actual):
            raise Unreadable(f"{path}: it says '{stated}' but the data is {actual}")
    return o, 0, not ties and not incomplete, names


INPUT_FORMATS = {  # the certificate's input_format -> the reader of the input file
    "preflib": read_preflib,
    "matrix-counts": lambda path, _: read_matrix_csv(path, signed=False),
    "matrix-signed": lambda path, _: read_matrix_csv(path, signed=True),
    "lolib": lambda path, _: read_lolib(path),
}


def read_input(path, certificate):
    """The input as the certificate's input_format reads it: the doubled counts, the shift, whether
    every ballot is strict and complete, and the names, which must be the certificate's."""
    fmt = certificate["input_format"]
    if fmt not in INPUT_FORMATS:
        raise Unreadable(f"unknown input_format {fmt!r} (one of {', '.join(INPUT_FORMATS)})")
    o, shift, strict_complete, names = INPUT_FORMATS[fmt](path, certificate["alternatives"])
    if len(names) != certificate["alternatives"]:
        raise Rejected(f"the input has {len(names)} alternatives, the certificate {certificate['alternatives']}")
    if len(certificate["names"]) != len(names):
        raise Rejected(f"the certificate names {len(certificate['names'])} alternatives, the input has {len(names)}")
    for a, (read, stated) in enumerate(zip(names, certificate["names"])):
        if read != stated:
            raise Rejected(f"alternative {a + 1} is '{read}' in the input, '{stated}' in the certificate")
    return o, shift, strict_complete


# ---- the proof of one component


def ladder_row(row, m):
    """The arcs and right-hand side of a Möbius ladder row ["ladder", cycles, weight], checked:
    k odd cycles (k >= 1), each 3 or 4 distinct alternatives in order (a dicycle: arcs a0 a1,
    a1 a2, ..., last a0); consecutive cycles (C_k and C_1 too) share exactly one arc and others
    none; no arc in three. Every ranking keeps at most |A| - (k + 1) / 2 of the arcs A: it drops
    an arc of each cycle, and a dropped arc breaks at most two cycles, consecutive ones, of an odd
    cyclic sequence. Returns (arcs, rhs, weight)."""
    if len(row) != 3 or not isinstance(row[1], list) or type(row[2]) is not int or row[2] < 0:
        raise Rejected(f"row {row} is not [\"ladder\", cycles, weight] with an integer weight >= 0")
    cycles, k = row[1], len(row[1])
    if k % 2 == 0:
        raise Rejected(f"ladder row {row}: {k} cycles; a ladder has an odd number")
    arcs_of = []
    for cycle in cycles:
        if not isinstance(cycle, list) or len(cycle) not in (3, 4) \
                or not all(type(a) is int and 0 <= a < m for a in cycle) or len(set(cycle)) != len(cycle):
            raise Rejected(f"ladder row {row}: cycle {cycle} is not 3 or 4 distinct alternatives of 0..{m - 1}")
        arcs_of.append({(cycle[p], cycle[(p + 1) % len(cycle)]) for p in range(len(cycle))})
    uses = {}  # arc -> the cycles it lies in
    for p, arcs in enumerate(arcs_of):
        for arc in arcs:
            uses.setdefault(arc, []).append(p)
    if any(len(on) > 3 for on in uses.values()):  # bounds the pairs counted below
        raise Rejected(f"ladder row {row}: an arc lies in three cycles")
    shared = {}  # (p, q), p < q -> the arcs cycles p and q share
    for on in uses.values():
        for x in range(len(on)):
            for y in range(x + 1, len(on)):
                shared[(on[x], on[y])] = shared.get((on[x], on[y]), 0) + 1
    neighbours = {(min(p, (p + 1) % k), max(p, (p + 1) % k)) for p in range(k)} if k > 1 else set()
    for p, q in sorted(set(shared) | neighbours):
        expected = 1 if (p, q) in neighbours else 0
        if shared.get((p, q), 0) != expected:
            raise Rejected(f"ladder row {row}: cycles {p} and {q} share {shared.get((p, q), 0)} arcs, not {expected}")
    if any(len(on) > 2 for on in uses.values()):
        raise Rejected(f"ladder row {row}: an arc lies in three cycles")
    return sorted(uses), len(uses) - (k + 1) // 2, row[2]


def fence_row(row, m):
    """The arcs and right-hand side of a fence row ["fence", pales, weight], checked: t >= 3 pales
    [u, l] over 2t distinct alternatives; the arcs are the pales u_i -> l_i and the crosses
    l_j -> u_i for i != j, and every ranking keeps at most t^2 - t + 1 of them (Grötschel, Jünger
    and Reinelt 1985). Why: a ranking keeps all but the crosses u_i -> l_j it reverses, so the row
    says kept pales - reversed crosses <= 1; of s kept pales, the one whose u comes first has its u
    before the other s - 1 kept pales' l, each a reversed cross. Returns (arcs, rhs, weight)."""
    if len(row) != 3 or not isinstance(row[1], list) or type(row[2]) is not int or row[2] < 0:
        raise Rejected(f"row {row} is not [\"fence\", pales, weight] with an integer weight >= 0")
    pales, t = row[1], len(row[1])
    if t < 3 or not all(isinstance(p, list) and len(p) == 2 and all(type(a) is int and 0 <= a < m for a in p)
                        for p in pales):
        raise Rejected(f"fence row {row}: needs 3 or more pales [u, l] of alternatives 0..{m - 1}")
    if len({a for p in pales for a in p}) != 2 * t:
        raise Rejected(f"fence row {row}: its pales' alternatives are not distinct")
    arcs = [tuple(p) for p in pales] + [(pales[j][1], pales[i][0]) for i in range(t) for j in range(t) if i != j]
    return arcs, t * t - t + 1, row[2]


FACET_ROWS = {"ladder": ladder_row, "fence": fence_row}


def column_pairs(m):
    """The LP's pair columns of m alternatives: (i, j) for i < j, in order."""
    return [(i, j) for i in range(m) for j in range(i + 1, m)]


class Component:
    """A component's counts (in the certificate's order) and what bounds its rankings."""

    def __init__(self, o, alternatives, price_bits):
        self.m = m = len(alternatives)
        self.sub = [[o[a][b] for b in alternatives] for a in alternatives]
        self.pairs = column_pairs(m)
        self.index = {pair: c for c, pair in enumerate(self.pairs)}
        self.unit = 1 << price_bits
        self.cost = [self.sub[j][i] - self.sub[i][j] for i, j in self.pairs]  # of x_ij = 1 (i before j)
        self.constant = sum(self.sub[i][j] for i, j in self.pairs)
        # Every ranking's distance is the constant plus the costs of the pairs i < j it puts i
        # first, so it lies a multiple of the costs' greatest common divisor from the constant.
        self.step = math.gcd(*self.cost) or 1
        self.priced = {}  # rows index -> (value without the columns, reduced costs, their free sum)

    def simple_bound(self):
        return sum(min(self.sub[i][j], self.sub[j][i]) for i, j in self.pairs)

    def prices(self, key, rows):
        """Weak duality for weights w >= 0 of the rows: value and reduced costs, scaled by unit."""
        if key in self.priced:
            return self.priced[key]
        value, reduced = self.constant * self.unit, [c * self.unit for c in self.cost]
        if not isinstance(rows, list):
            raise Rejected(f"rows {key} are {rows!r:.80}, not a list of rows")
        for row in rows:
            if not isinstance(row, list):
                raise Rejected(f"row {row!r:.80} is not a list")
            if row and isinstance(row[0], str) and row[0] in FACET_ROWS:
                arcs, rhs, weight = FACET_ROWS[row[0]](row, self.m)
                for a, b in arcs:  # x(a, b) is x_ab for a < b, else 1 - x_ba: the constant moves right
                    reduced[self.index[(min(a, b), max(a, b))]] += weight if a < b else -weight
                    rhs -= 0 if a < b else 1
                value -= weight * rhs
                continue
            if len(row) != 5 or not all(type(v) is int for v in row):
                raise Rejected(f"row {row} is not [i, j, k, upper, weight] of integers")
            i, j, k, upper, weight = row
            if not (0 <= i < j < k < self.m) or upper not in (0, 1) or weight < 0:
                raise Rejected(f"row {row}: needs 0 <= i < j < k < {self.m}, upper 0 or 1, weight >= 0")
            signed = weight if upper else -weight
            value -= weight if upper else 0  # x_ij + x_jk - x_ik <= 1, or x_ik - x_ij - x_jk <= 0
            reduced[self.index[(i, j)]] += signed
            reduced[self.index[(j, k)]] += signed
            reduced[self.index[(i, k)]] -= signed
        entry = (value, reduced, sum(min(0, d) for d in reduced))
        self.priced[key] = entry
        return entry

    def scaled_bound(self, key, rows, fixed):
        """What the rows' weights bound the rankings keeping `fixed` at, in units of 1 / unit."""
        value, reduced, free_sum = self.prices(key, rows)
        return value + free_sum + sum(reduced[c] * x - min(0, reduced[c]) for c, x in fixed.items())

    def with_column(self, key, scaled, c, x):
        """scaled_bound with free column c fixed at x as well."""
        d = self.priced[key][1][c]
        return scaled + d * x - min(0, d)

    def whole(self, scaled):
        """The least distance a ranking can have at or above scaled / unit."""
        whole = max(0, -((-scaled) // self.unit))
        return whole + (self.constant - whole) % self.step

    def bound(self, key, rows, fixed):
        """The least whole distance the rows' weights allow for rankings keeping `fixed`."""
        return self.whole(self.scaled_bound(key, rows, fixed))

    def cyclic(self, fixed):
        """Whether the fixed pairs (c: 1, i before j) hold a directed cycle."""
        after = [[] for _ in range(self.m)]
        for c, x in fixed.items():
            i, j = self.pairs[c]
            after[i if x else j].append(j if x else i)
        state = [0] * self.m  # 0 new, 1 on the path, 2 done
        for start in range(self.m):
            stack = [(start, iter(after[start]))] if state[start] == 0 else []
            state[start] = 1 if stack else state[start]
            while stack:
                node, rest = stack[-1]
                step = next(rest, None)
                if step is None:
                    state[node] = 2
                    stack.pop()
                elif state[step] == 1:
                    return True
                elif state[step] == 0:
                    state[step] = 1
                    stack.append((step, iter(after[step])))
        return False

    def distance_of(self, fixed):
        return sum(self.sub[j][i] if fixed[c] else self.sub[i][j] for c, (i, j) in enumerate(self.pairs))

    def dp_optimum(self):
        """The optimum by the subset DP: best[S] = min over a in S of best[S - a] + a placed last."""
        m, full = self.m, (1 << self.m) - 1
        best = [0] * (full + 1)
        for s in range(1, full + 1):
            options = []
            for a in range(m):
                if s >> a & 1:
                    rest = s & ~(1 << a)
                    options.append(best[rest] + sum(self.sub[a][b] for b in range(m) if rest >> b & 1))
            best[s] = min(options)
        return best[full]


def grouping_cut(margins, side, a, b, m):
    """W(S): what the alternatives outside S may lose by moving behind S, the sum over s in S and
    t outside S of max(0, m(t, s)); S must hold a and not b."""
    if not isinstance(side, list) or any(type(s) is not int or not 0 <= s < m for s in side) \
            or len(set(side)) != len(side) or a not in side or b in side:
        raise Rejected(f"fixed pair [{a}, {b}, 'grouping']: its side is not a set of the component's "
                       f"alternatives holding {a} and not {b}")
    inside = set(side)
    outside = [t for t in range(m) if t not in inside]
    return sum(max(0, margins[t][s]) for s in side for t in outside)


def check_fixed_pairs(component, entry, strict_complete):
    """The root's fixed pairs, each re-derived by its rule; returns them by column."""
    m, sub = component.m, component.sub
    margins = [[sub[a][b] - sub[b][a] for b in range(m)] for a in range(m)]

    def margin(a, b):
        return margins[a][b]

    def three_quarters(a, b):
        return sub[a][b] > 0 and sub[a][b] >= 3 * sub[b][a]

    def non_dirty(x):
        return all(y == x or three_quarters(x, y) or three_quarters(y, x) for y in range(m))

    reach = [0] * m  # bit b of reach[a]: a before b by the exchange and majority pairs, closed
    fixed, closure = {}, []
    for pair in entry.get("fixed_pairs", []):
        if not isinstance(pair, list) or len(pair) not in (3, 4):
            raise Rejected(f"fixed pair {pair}: not [a, b, rule] or [a, b, 'grouping', side]")
        a, b, rule = integer(pair[0], "a fixed pair's a"), integer(pair[1], "a fixed pair's b"), pair[2]
        if len(pair) != (4 if rule == "grouping" else 3):
            raise Rejected(f"fixed pair {pair}: the grouping rule, and only it, gives a side")
        if not (0 <= a < m and 0 <= b < m and a != b):
            raise Rejected(f"fixed pair {pair}: not two alternatives of the component")
        c = component.index[(min(a, b), max(a, b))]
        if c in fixed:
            raise Rejected(f"fixed pair {pair}: the pair is fixed twice")
        fixed[c] = 1 if a < b else 0
        if rule == "exchange":
            # Over every other c; c = a and c = b add nothing where a's margin over b is positive.
            gain = sum(x for x in map(operator.sub, margins[b], margins[a]) if x > 0)
            if not margin(a, b) > gain:
                raise Rejected(f"fixed pair {pair}: the exchange rule does not hold (margin {margin(a, b)}, gain {gain})")
        elif rule == "majority":
            if not strict_complete:
                raise Rejected(f"fixed pair {pair}: the 3/4-majority rule needs ballots that rank every alternative without ties")
            if not (three_quarters(a, b) and (non_dirty(a) or non_dirty(b))):
                raise Rejected(f"fixed pair {pair}: the 3/4-majority rule does not hold")
        elif rule == "grouping":
            cut = grouping_cut(margins, pair[3], a, b, m)
            if not margin(a, b) > cut:
                raise Rejected(f"fixed pair {pair[:3]}: the grouping rule does not hold (margin {margin(a, b)}, cut {cut})")
        elif rule == "closure":
            closure.append((a, b))
            continue
        else:
            raise Rejected(f"fixed pair {pair}: unknown rule '{rule}'")
        reach[a] |= 1 << b
    for k in range(m):  # Warshall on bit sets
        for a in range(m):
            if reach[a] >> k & 1:
                reach[a] |= reach[k]
    for a, b in closure:
        if not reach[a] >> b & 1:
            raise Rejected(f"fixed pair [{a}, {b}, 'closure']: not implied by the other fixed pairs")
    if any(reach[a] >> a & 1 for a in range(m)):
        raise Rejected("the fixed pairs hold a cycle")
    return fixed


def check_tree(component, entry, fixed_at_root, where):
    """Every leaf of the search's tree bounds its rankings at the component's distance or above,
    and the leaves cover every ranking that keeps the root's fixed pairs."""
    proof, target = entry.get("proof"), entry["distance_doubled"]
    if not isinstance(proof, dict) or not isinstance(proof.get("rows"), list) or not isinstance(proof.get("nodes"), list):
        raise Unreadable(f"{where}: its proof is not {{\"rows\": [...], \"nodes\": [...]}}")
    rows, nodes = proof["rows"], proof["nodes"]
    for key, listed in enumerate(rows):  # every row set, those no node uses too, is well formed
        try:
            component.prices(key, listed)
        except Rejected as e:
            raise Rejected(f"{where}: {e}") from None
    seen = set()
    stack = [(0, dict(fixed_at_root))]

    def rows_of(index, name):
        if index == -1:
            return -1, []
        if not (type(index) is int and 0 <= index < len(rows)):
            raise Rejected(f"{where}: node {name} names rows {index!r}, which are not in the proof")
        return index, rows[index]

    def pair_column(pair):
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(a) is int for a in pair)):
            return None
        return component.index.get(tuple(pair))

    while stack:
        name, fixed = stack.pop()
        if not (type(name) is int and 0 <= name < len(nodes)) or name in seen:
            raise Rejected(f"{where}: node {name!r} is missing or reached twice: the tree does not cover every ranking")
        seen.add(name)
        node = nodes[name]
        if not isinstance(node, dict):
            raise Rejected(f"{where}: node {name} is {node!r:.80}, not an object")
        key, node_rows = rows_of(node.get("rows", -1), name)
        kind = node.get("kind")
        if kind == "bound":
            bound = component.bound(key, node_rows, fixed)
            if bound < target:
                raise Rejected(f"{where}: node {name}: its bound {bound} is below the distance {target}")
            continue
        if kind == "cycle":
            if not component.cyclic(fixed):
                raise Rejected(f"{where}: node {name}: its fixed pairs hold no cycle, so it may hold a ranking")
            continue
        lean = node.get("fixed_at_lean", [])
        if not isinstance(lean, list) or not all(isinstance(item, list) and len(item) == 2 for item in lean):
            raise Rejected(f"{where}: node {name}: fixed_at_lean is not a list of [pair, value]")
        base = component.scaled_bound(key, node_rows, fixed) if lean else 0
        for pair, value in lean:
            c = pair_column(pair)
            # An integer 0 or 1 only: a float would carry the bound's exact sums into rounding.
            if c is None or c in fixed or type(value) is not int or value not in (0, 1):
                raise Rejected(f"{where}: node {name}: pair {pair} cannot be fixed to {value} there")
            bound = component.whole(component.with_column(key, base, c, 1 - value))
            if bound < target:
                raise Rejected(f"{where}: node {name}: pair {pair} at {1 - value} is bounded by {bound} only, below {target}")
            fixed[c] = value
        if kind == "single":
            if len(fixed) != len(component.pairs):
                raise Rejected(f"{where}: node {name}: a single ranking, but {len(component.pairs) - len(fixed)} pairs are free")
            if not component.cyclic(fixed) and component.distance_of(fixed) < target:
                raise Rejected(f"{where}: node {name}: its ranking is shorter than the distance {target}")
            continue
        if kind != "branch":
            raise Rejected(f"{where}: node {name}: unknown kind '{kind}'")
        c = pair_column(node.get("pair"))
        children = node.get("children")
        if c is None or c in fixed or not isinstance(children, list) or len(children) != 2:
            raise Rejected(f"{where}: node {name}: does not split a free pair into two children")
        for value in (0, 1):
            child = dict(fixed)
            child[c] = value
            stack.append((children[value], child))
    return len(seen)


# ---- the whole certificate


def integer(value, what, low=None, high=None):
    """A JSON integer (not a float, a bool, NaN or infinity) in [low, high]."""
    if type(value) is not int or (low is not None and value < low) or (high is not None and value > high):
        raise Rejected(f"{what} is {value!r}, not an integer in range")
    return value


def check_shape(certificate):
    """The parts every certificate has, with their JSON types (Unreadable names what is wrong;
    an integer that is not one is Rejected)."""
    if not isinstance(certificate, dict) or certificate.get("format") != "kollective-kemeny-certificate" \
            or type(certificate.get("version")) is not int or not 1 <= certificate["version"] <= 5:
        raise Unreadable("not a version 1 to 5 Kollective Kemeny certificate")
    for key, kind in (("input_format", str), ("names", list), ("ranking", list), ("components", list)):
        if not isinstance(certificate.get(key), kind):
            raise Unreadable(f"the certificate's '{key}' is missing or not a {'string' if kind is str else 'list'}")
    integer(certificate.get("price_bits"), "price_bits", 1, 64)
    integer(certificate.get("alternatives"), "alternatives", 1, 65536)
    integer(certificate.get("distance_doubled"), "distance_doubled")
    if not all(isinstance(name, str) for name in certificate["names"]):
        raise Unreadable("the certificate's names are not all strings")
    for p, a in enumerate(certificate["ranking"]):
        integer(a, f"ranking[{p}]")
    for k, entry in enumerate(certificate["components"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("alternatives"), list) \
                or not isinstance(entry.get("method"), str):
            raise Unreadable(f"component {k} is not an object with 'alternatives' and 'method'")
        integer(entry.get("distance_doubled"), f"component {k}'s distance_doubled")
        for a in entry["alternatives"]:
            integer(a, f"an alternative of component {k}")
        if not isinstance(entry.get("fixed_pairs", []), list):
            raise Unreadable(f"component {k}'s fixed_pairs is not a list")


def check_certificate(input_path, certificate):
    check_shape(certificate)
    o, shift, strict_complete = read_input(input_path, certificate)
    n = len(o)
    ranking = certificate["ranking"]
    if sorted(ranking) != list(range(n)):
        raise Rejected("the ranking is not an order of the alternatives")
    distance = sum(o[ranking[q]][ranking[p]] for p in range(n) for q in range(p + 1, n))
    if distance + shift != certificate["distance_doubled"]:
        raise Rejected(f"the ranking's distance is {distance + shift} (doubled), not {certificate['distance_doubled']}")
    components = certificate["components"]
    member = {}
    for k, entry in enumerate(components):
        for a in entry["alternatives"]:
            if a in member or not (0 <= a < n):
                raise Rejected(f"component {k}: alternative {a} is not in exactly one component")
            member[a] = k
    if len(member) != n:
        raise Rejected("the components do not hold every alternative")
    place = {a: p for p, a in enumerate(ranking)}
    bound = sum(min(o[a][b], o[b][a]) for a in range(n) for b in range(a + 1, n) if member[a] != member[b])
    leaves, not_certified = 0, []
    for k, entry in enumerate(components):
        component = Component(o, entry["alternatives"], certificate["price_bits"])
        method, where = entry["method"], f"component {k} ({entry['method']}, {component.m} alternatives)"
        inside = entry["alternatives"]
        own = sum(o[b][a] for a in inside for b in inside if place[a] < place[b])  # the ranking's, inside
        if own != entry["distance_doubled"]:
            raise Rejected(f"{where}: the ranking's distance inside it is {own}, not {entry['distance_doubled']}")
        if method in ("trivial", "heuristic"):
            bound += component.simple_bound()
        elif method in ("dp", "enumeration"):
            if component.m > DP_LIMIT:
                not_certified.append(where)
                bound += component.simple_bound()
                continue
            optimum = component.dp_optimum()
            if optimum != entry["distance_doubled"]:
                raise Rejected(f"{where}: its optimum is {optimum}, not {entry['distance_doubled']}")
            bound += optimum
        elif method in ("lp", "branch-and-cut"):
            fixed = check_fixed_pairs(component, entry, strict_complete)
            leaves += check_tree(component, entry, fixed, where)
            bound += entry["distance_doubled"]
        else:
            raise Rejected(f"{where}: unknown method")
    if not_certified:
        raise NotCertified("; ".join(not_certified) + f": the subset DP's optimum has no short proof, and this checker "
                           f"solves it again only up to {DP_LIMIT} alternatives")
    if distance > bound:
        raise Rejected(f"the components prove only {bound + shift} (doubled), below the ranking's {distance + shift}")
    return (f"certified: the ranking's distance {Fraction(distance + shift, 2)} is optimal for {input_path} read as "
            f"{certificate['input_format']} ({n} alternatives, {len(components)} components, {leaves} proof nodes "
            f"checked)")


def check(input_path, certificate):
    """Returns a summary of what was certified; raises Rejected, NotCertified or Unreadable, and
    nothing else for any certificate."""
    try:
        return check_certificate(input_path, certificate)
    except (Rejected, Unreadable, NotCertified):
        raise
    except RecursionError:
        raise Unreadable("the certificate is nested too deeply") from None
    except (OSError, UnicodeError) as e:
        raise Unreadable(f"{input_path}: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        raise Unreadable(f"the certificate does not have the format's structure ({type(e).__name__}: {e})") from None


def unique_keys(pairs):
    """A JSON object whose keys are distinct (a reader could otherwise see a value the checker
    does not check)."""
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Unreadable(f"the certificate repeats the key '{next(k for k in keys if keys.count(k) > 1)}' in an object")
    return dict(pairs)


def reject_constant(name):
    raise Unreadable(f"the certificate holds {name}, which is not a number JSON allows")


def load(path):
    """The certificate file as JSON, refused with a message where it is not plain JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f, parse_constant=reject_constant, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as e:
        raise Unreadable(f"{path}: not JSON ({e})") from None
    except RecursionError:
        raise Unreadable(f"{path}: nested too deeply") from None
    except (OSError, UnicodeError, ValueError) as e:  # ValueError: an integer of over 4300 digits
        raise Unreadable(f"{path}: {e}") from None


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        print(check(argv[1], load(argv[2])))
        return 0
    except Rejected as e:
        print(f"certificate rejected: {e}", file=sys.stderr)
        return 1
    except NotCertified as e:
        print(f"not certified: {e}", file=sys.stderr)
        return 3
    except Unreadable as e:
        print(f"cannot check: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001  (anything else unforeseen: nothing is certified)
        print(f"cannot check: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
