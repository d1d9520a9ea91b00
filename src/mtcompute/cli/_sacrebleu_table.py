"""The multi-system table of ``mtcompute sacrebleu``: what sacreBLEU 2.6.0 prints with
python-tabulate 0.10.0, reproduced for the one call it makes.

sacreBLEU's ``print_results_table`` calls ``tabulate(columns, headers='keys',
tablefmt='fancy_grid' or 'latex_booktabs', colalign=('right',), stralign='center',
numalign='center', floatfmt=f'.{width}f')`` on a dict of columns of strings (the system names,
then one column of score strings per metric; after a paired test, each cell the score with
its bootstrap mean and interval and, for the systems, the p-value on a second line of the
text table, or after a space in LaTeX, in red when not significant). This module follows
that call through tabulate's code, step for step: the column types it infers from the
strings (a column of names that all read as numbers is reformatted with ``floatfmt``), its
stripping and centring, its ANSI-code and multi-line handling, its "separating line" value
``"\\x01"``, its two formats. Widths count code points, as tabulate does when the optional
``wcwidth`` package is not installed (sacreBLEU does not require it). mtcompute does not
depend on tabulate: the differential tests compare this module's output with the real one.
"""

from __future__ import annotations

__all__ = ["COLORAMA_CSI", "COLORAMA_OSC", "TableFormat", "tabulate_columns"]

import math
import re
from collections.abc import Callable, Sequence
from functools import reduce
from itertools import chain, zip_longest
from typing import Any, NamedTuple

MIN_PADDING = 2
SEPARATING_LINE = "\001"

# tabulate's patterns (ANSI CSI codes and OSC 8 hyperlinks; line breaks; thousands separators)
_ESC = r"\x1b"
_ANSI_CODES = re.compile(
    rf"""
    (
        {_ESC}\[ [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]
    |
        {_ESC}\]8; (\w+=\w+:?)* ; ([^{_ESC}]+) {_ESC}\\ ([^{_ESC}]+) {_ESC}\]8;;{_ESC}\\
    )
    """,
    re.VERBOSE,
)
_MULTILINE_CODES = re.compile(r"\r|\n|\r\n")
_THOUSANDS = re.compile(r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$")

# colorama 0.4.6's patterns: what it strips from standard output when it is not a terminal
COLORAMA_CSI = re.compile("\001?\033\\[((?:\\d|;)*)([a-zA-Z])\002?")
COLORAMA_OSC = re.compile("\001?\033\\]([^\a]*)(\a)\002?")


class Line(NamedTuple):
    """A horizontal line: begin, fill, separator, end (a named tuple, as tabulate's)."""

    begin: str
    fill: str
    sep: str
    end: str


class TableFormat(NamedTuple):
    """The parts of one of tabulate's formats that the two used here have."""

    lineabove: Line | Callable[[list[int], list[str]], str]
    linebelowheader: Line
    linebetweenrows: Line | None
    linebelow: Line
    row: tuple[str, str, str] | None  # begin, separator, end; None: a LaTeX row
    padding: int = 1


def _latex_line_begin_tabular(_colwidths: list[int], colaligns: list[str]) -> str:
    alignment = {"left": "l", "right": "r", "center": "c", "decimal": "r"}
    columns = "".join(alignment.get(a, "l") for a in colaligns)
    return "\n".join(["\\begin{tabular}{" + columns + "}", "\\toprule"])


FORMATS = {
    "fancy_grid": TableFormat(
        lineabove=Line("╒", "═", "╤", "╕"),
        linebelowheader=Line("╞", "═", "╪", "╡"),
        linebetweenrows=Line("├", "─", "┼", "┤"),
        linebelow=Line("╘", "═", "╧", "╛"),
        row=("│", "│", "│"),
    ),
    "latex_booktabs": TableFormat(
        lineabove=_latex_line_begin_tabular,
        linebelowheader=Line("\\midrule", "", "", ""),
        linebetweenrows=None,
        linebelow=Line("\\bottomrule\n\\end{tabular}", "", "", ""),
        row=None,
    ),
}
MULTILINE_FORMATS = ("fancy_grid",)

LATEX_ESCAPE_RULES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}


# -- values: tabulate's type inference and formatting --------------------------------------


def _strip_ansi(text: str) -> str:
    return _ANSI_CODES.sub(r"\4", text)


def _convertible(conv: Callable[[str], object], text: str) -> bool:
    try:
        conv(text)
    except (ValueError, TypeError):
        return False
    return True


def _is_number(text: str) -> bool:
    if not _convertible(float, text):
        return False
    value = float(text)
    overflow = math.isinf(value) or math.isnan(value)
    return not overflow or text.lower() in ("inf", "-inf", "nan")


def _type(text: str) -> type:
    """tabulate's ``_type`` of a str (ANSI codes stripped, numbers parsed)."""
    text = _strip_ansi(text)
    if not text:
        return type(None)
    if text in ("True", "False"):
        return bool
    if _convertible(int, text) or (_THOUSANDS.match(text) and "." not in text):
        return int
    if _is_number(text) or _THOUSANDS.match(text):
        return float
    return str


_GENERALITY: dict[type, int] = {type(None): 0, bool: 1, int: 2, float: 3, bytes: 4, str: 5}


def _more_generic(type1: type, type2: type) -> type:
    rank = max(_GENERALITY.get(type1, 5), _GENERALITY.get(type2, 5))
    return next(t for t, r in _GENERALITY.items() if r == rank)


def _column_type(column: Sequence[str]) -> type:
    start: type = bool
    return reduce(_more_generic, [_type(text) for text in column], start)


def _format(value: str, value_type: type, floatfmt: str, has_invisible: bool) -> str:
    """tabulate's ``_format`` of a str value (intfmt '', missingval '')."""
    if not value:
        return ""
    if value_type is float:
        if has_invisible:
            raw = _strip_ansi(value)
            try:
                formatted = format(float(raw), floatfmt)
            except (ValueError, TypeError):
                return value
            return value.replace(raw, formatted)
        plain = value.replace(",", "") if "," in value else value
        try:
            return format(float(plain), floatfmt)
        except (ValueError, TypeError):
            return plain
    if value_type is int:
        return _format_int(value)
    return value


def _format_int(value: str) -> str:
    """tabulate's int branch for a str: a colored run of digits is re-formatted with intfmt
    '' (which leaves it as it is); the value comes back unchanged either way, except that
    the round trip through ``unicode_escape`` is tabulate's (kept for exactness)."""
    escaped = value.encode("unicode_escape").decode("utf-8")
    colored = re.search(r"(\\[xX]+[0-9a-fA-F]+\[\d+[mM]+)([0-9.]+)(\\.*)$", escaped)
    if colored and colored.group(2).isdigit():
        rebuilt = colored.group(1) + format(int(colored.group(2)), "") + colored.group(3)
        value = rebuilt.encode("utf-8").decode("unicode_escape")
    return format(value, "")


# -- widths and alignment --------------------------------------------------------------------


def _visible_width(text: str) -> int:
    return len(_strip_ansi(text))


def _line_width_fn(has_invisible: bool) -> Callable[[str], int]:
    return _visible_width if has_invisible else len


def _width_fn(has_invisible: bool, is_multiline: bool) -> Callable[[str], int]:
    line_width = _line_width_fn(has_invisible)
    if is_multiline:
        return lambda text: max(map(line_width, re.split("[\r\n]", text)))
    return line_width


def _pad(alignment: str, width: int, text: str) -> str:
    if alignment == "right":
        return f"{text:>{width}s}"
    if alignment == "center":
        return f"{text:^{width}s}"
    return f"{text:<{width}s}"


def _align_column(
    strings: list[str], alignment: str, minwidth: int, has_invisible: bool, is_multiline: bool
) -> list[str]:
    """tabulate's ``_align_column`` for 'right' and 'center' (both strip the values)."""
    strings = [text.strip() for text in strings]
    line_width = _line_width_fn(has_invisible)
    if is_multiline:
        widths = [list(map(line_width, re.split("[\r\n]", text))) for text in strings]
        maxwidth = max(*chain.from_iterable(widths), minwidth)
        if not has_invisible:
            return [
                "\n".join(_pad(alignment, maxwidth, s) for s in text.splitlines())
                for text in strings
            ]
        lengths = [[len(s) for s in re.split("[\r\n]", text)] for text in strings]
        visible = [
            [maxwidth - (w - n) for w, n in zip(ws, ns, strict=False)]
            for ws, ns in zip(widths, lengths, strict=True)
        ]
        return [
            "\n".join(
                _pad(alignment, w, s) for s, w in zip(text.splitlines() or text, vs, strict=False)
            )
            for text, vs in zip(strings, visible, strict=True)
        ]
    flat = list(map(line_width, strings))
    maxwidth = max(*flat, minwidth)
    if not has_invisible:
        return [_pad(alignment, maxwidth, text) for text in strings]
    return [
        _pad(alignment, maxwidth - (w - len(text)), text)
        for text, w in zip(strings, flat, strict=True)
    ]


def _align_header(
    header: str,
    alignment: str,
    width: int,
    visible_width: int,
    is_multiline: bool,
    width_fn: Callable[[str], int],
) -> str:
    if is_multiline:
        return "\n".join(
            _align_header(h, alignment, width, width_fn(h), False, width_fn)
            for h in _MULTILINE_CODES.split(header)
        )
    return _pad(alignment, width + len(header) - visible_width, header)


# -- rows and lines --------------------------------------------------------------------------


def _is_separating_line(row: object) -> bool:
    """tabulate's test: a list or str whose first or second item strips to ``"\\x01"``."""
    if not isinstance(row, list | str):
        return False
    return any(
        len(row) > i and type(row[i]) is str and row[i].strip() == SEPARATING_LINE for i in (0, 1)
    )


def _pad_row(cells: Any, padding: int) -> Any:
    if cells:
        if cells == SEPARATING_LINE:
            return SEPARATING_LINE
        pad = " " * padding
        return [pad + cell + pad for cell in cells]
    return cells


def _build_simple_row(cells: Any, begin: str, sep: str, end: str) -> str:
    return (begin + sep.join(cells) + end).rstrip()


def _build_row(cells: Any, fmt: TableFormat) -> str:
    if fmt.row is None:  # LaTeX: each character escaped, '&' between, '\\' at the end
        escaped = ["".join(LATEX_ESCAPE_RULES.get(c, c) for c in cell) for cell in cells]
        return _build_simple_row(escaped, "", "&", "\\\\")
    return _build_simple_row(cells, *fmt.row)


def _build_line(widths: list[int], aligns: list[str], line: Line | Callable[..., str]) -> str:
    if isinstance(line, Line):
        return _build_simple_row([line.fill * w for w in widths], line.begin, line.sep, line.end)
    return line(widths, aligns)


def _append_row(
    lines: list[str], cells: Any, widths: list[int], fmt: TableFormat, is_multiline: bool
) -> None:
    if not is_multiline:
        lines.append(_build_row(_pad_row(cells, fmt.padding), fmt))
        return
    colwidths = [w - 2 * fmt.padding for w in widths]
    cells_lines = [cell.splitlines() for cell in cells]
    nlines = max(map(len, cells_lines))
    cells_lines = [
        cl + [" " * w] * (nlines - len(cl)) for cl, w in zip(cells_lines, colwidths, strict=False)
    ]
    for i in range(nlines):
        lines.append(_build_row(_pad_row([cl[i] for cl in cells_lines], fmt.padding), fmt))


def tabulate_columns(columns: dict[str, list[str]], tablefmt: str, width: int) -> str:
    """``tabulate(columns, headers='keys', tablefmt=tablefmt, colalign=('right',),
    stralign='center', numalign='center', floatfmt=f'.{width}f')`` for a dict of columns of
    str, as tabulate 0.10.0 without wcwidth returns it; ``tablefmt`` is 'fancy_grid' or
    'latex_booktabs'. Raises IndexError where tabulate does (every row a separating line)."""
    floatfmt = f".{width}f"
    headers = list(columns)
    all_rows: list[Any] = [list(row) for row in zip_longest(*columns.values())]
    separating = [i for i, row in enumerate(all_rows) if _is_separating_line(row)]
    rows = [row for row in all_rows if not _is_separating_line(row)]

    plain_text = "\t".join(chain(headers, chain.from_iterable(rows)))
    has_invisible = _ANSI_CODES.search(plain_text) is not None
    is_multiline = tablefmt in MULTILINE_FORMATS and _MULTILINE_CODES.search(plain_text) is not None
    width_fn = _width_fn(has_invisible, is_multiline)

    cols = [list(col) for col in zip_longest(*rows)]
    coltypes = [_column_type(col) for col in cols]
    cols = [
        [_format(v, ct, floatfmt, has_invisible) for v in col]
        for col, ct in zip(cols, coltypes, strict=True)
    ]
    aligns = ["center" for _ in coltypes]  # numalign and stralign are both 'center'
    if aligns:
        aligns[0] = "right"  # colalign=('right',)
    minwidths = [width_fn(h) + MIN_PADDING for h in headers] if headers else [0] * len(cols)
    cols = [
        _align_column(c, a, minw, has_invisible, is_multiline)
        for c, a, minw in zip(cols, aligns, minwidths, strict=False)
    ]

    header_aligns: list[str] = []
    if headers:
        t_cols = cols or [[""]] * len(headers)
        header_aligns = aligns or ["center"] * len(headers)
        minwidths = [
            max(minw, *(width_fn(cell) for cell in c))
            for minw, c in zip(minwidths, t_cols, strict=False)
        ]
        headers = [
            _align_header(h, a, minw, width_fn(h), is_multiline, width_fn)
            for h, a, minw in zip(headers, header_aligns, minwidths, strict=False)
        ]
    else:
        minwidths = [max(width_fn(cell) for cell in c) for c in cols]
    table_rows: list[Any] = list(zip(*cols, strict=True))  # tuples, as tabulate's
    rowaligns_count = len(table_rows)
    for index in separating:
        table_rows.insert(index, SEPARATING_LINE)
    return _format_table(
        FORMATS[tablefmt], headers, header_aligns, table_rows, rowaligns_count, minwidths,
        aligns, is_multiline,
    )  # fmt: skip


def _format_table(
    fmt: TableFormat,
    headers: list[str],
    header_aligns: list[str],
    rows: list[Any],
    rowaligns_count: int,
    colwidths: list[int],
    colaligns: list[str],
    is_multiline: bool,
) -> str:
    """tabulate's ``_format_table`` (``rowaligns_count``: the rows before the separating
    lines were put back, which bounds the loop as tabulate's ``zip`` does)."""
    del header_aligns  # a row format here ignores alignments, as tabulate's two do
    lines: list[str] = []
    widths = [w + 2 * fmt.padding for w in colwidths]
    lines.append(_build_line(widths, colaligns, fmt.lineabove))
    if headers:
        _append_row(lines, headers, widths, fmt, is_multiline)
        lines.append(_build_line(widths, colaligns, fmt.linebelowheader))
    if rows and fmt.linebetweenrows is not None:
        for row, _ in zip(rows[:-1], range(rowaligns_count), strict=False):
            if row != SEPARATING_LINE:
                _append_row(lines, row, widths, fmt, is_multiline)
            lines.append(_build_line(widths, colaligns, fmt.linebetweenrows))
        if rowaligns_count == 0:
            raise IndexError("list index out of range")  # tabulate's rowaligns[-1]
        _append_row(lines, rows[-1], widths, fmt, is_multiline)
    else:
        separator = fmt.linebetweenrows or fmt.linebelowheader
        for row in rows:
            if _is_separating_line(row):
                lines.append(_build_line(widths, colaligns, separator))
            else:
                _append_row(lines, row, widths, fmt, is_multiline)
    lines.append(_build_line(widths, colaligns, fmt.linebelow))
    if headers or rows:
        return "\n".join(lines)
    return ""
