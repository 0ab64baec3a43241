"""``--where``: a small whitelisted condition language, evaluated on a frame without eval.

The text is parsed by :mod:`ast` and only these nodes are accepted; anything else (a
call, an attribute, a subscript, ``@``, a lambda, a comprehension, ``**`` ...) is a
one-line :class:`WhereError`:

* column names of the frame; numbers, strings, ``True``/``False``;
* comparisons ``== != < <= > >=``, chained (``3 < turns <= 10``);
* ``in`` / ``not in`` a list or tuple of literals (``game in [4, 8]``);
* ``and``, ``or``, ``not`` (also ``&``, ``|``, ``~`` as in pandas), parentheses;
* unary ``-``/``+`` and ``+ - * / // %`` between numbers and columns.

Columns are read as 64-bit numbers (integers as int64, floats as float64) whatever
their stored type, so arithmetic never wraps in a compact type: ``winner * 100 == 300``
gives what pandas gives on int64 columns.

    mask = condition(df, "max_stack >= 12 and winner == 0")
"""

from __future__ import annotations

import ast
import operator

import numpy as np
import pandas as pd

MAX_LENGTH = 2000  # characters: a condition, not a program
HELP = (
    "a condition uses column names, numbers, comparisons, and/or/not, parentheses "
    "and `in [...]`, e.g. 'max_stack >= 12 and winner == 0'"
)


class WhereError(ValueError):
    """A condition outside the grammar, or one that cannot be evaluated; one line."""


_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_ARITH = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_NAMES = {
    ast.Call: "function calls",
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambda",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.JoinedStr: "f-strings",
    ast.NamedExpr: "assignments",
    ast.Starred: "starred expressions",
    ast.IfExp: "if-else expressions",
    ast.Dict: "dicts",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


def wide(col: pd.Series) -> pd.Series:
    """``col`` in 64 bits: integers as int64 (uint64 kept), floats as float64; bool and
    other columns as they are."""
    dt = col.dtype
    if pd.api.types.is_bool_dtype(dt) or not pd.api.types.is_numeric_dtype(dt):
        return col
    if isinstance(dt, pd.api.extensions.ExtensionDtype):  # nullable: missing is NaN
        exact = pd.api.types.is_integer_dtype(dt) and not col.hasnans
        values = col.to_numpy(np.int64) if exact else col.to_numpy(np.float64, na_value=np.nan)
        return pd.Series(
            values,
            index=col.index,
            name=col.name,
        )
    if pd.api.types.is_float_dtype(dt):
        return col.astype(np.float64)
    if pd.api.types.is_unsigned_integer_dtype(dt) and dt.itemsize == 8:
        return col
    if pd.api.types.is_integer_dtype(dt):
        return col.astype(np.int64)
    return col


def _is_bool(v) -> bool:
    if isinstance(v, pd.Series):
        return v.dtype == bool
    return isinstance(v, (bool, np.bool_))


def _is_number(v) -> bool:
    if isinstance(v, pd.Series):
        return v.dtype != object and v.dtype != bool
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


class _Evaluator:
    def __init__(self, df: pd.DataFrame):
        self.df = df

    def __call__(self, node: ast.AST):
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            what = _NAMES.get(type(node), f"{type(node).__name__} expressions")
            raise WhereError(f"{what} are not allowed: {HELP}")
        return method(node)

    def _Expression(self, node):
        return self(node.body)

    def _Constant(self, node):
        v = node.value
        if isinstance(v, bool | int | float | str):
            return v
        raise WhereError(f"{v!r} is not a number, text or True/False: {HELP}")

    def _Name(self, node):
        if node.id not in self.df.columns:
            raise WhereError(
                f"unknown column {node.id!r} (columns: {', '.join(map(str, self.df.columns))})"
            )
        return wide(self.df[node.id])

    def _literals(self, node) -> list:
        if not isinstance(node, ast.List | ast.Tuple | ast.Set):
            raise WhereError(f"`in` takes a list of values, e.g. 'game in [4, 8]': {HELP}")
        out = []
        for elt in node.elts:
            v = self(elt)
            if isinstance(v, pd.Series):
                raise WhereError("the list after `in` holds values, not columns")
            out.append(v)
        return out

    def _Compare(self, node):
        left = self(node.left)
        result = None
        for op, right_node in zip(node.ops, node.comparators):
            if isinstance(op, ast.In | ast.NotIn):
                if not isinstance(left, pd.Series):
                    raise WhereError("`in` tests a column, e.g. 'game in [4, 8]'")
                right = self._literals(right_node)
                part = left.isin(right)
                if isinstance(op, ast.NotIn):
                    part = ~part
            elif type(op) in _COMPARE:
                right = self(right_node)
                part = _COMPARE[type(op)](left, right)
            else:  # is, is not
                raise WhereError(f"`is` is not allowed (use ==): {HELP}")
            result = part if result is None else result & part
            left = right
        return result

    def _BoolOp(self, node):
        values = [
            self._condition(v, "and" if isinstance(node.op, ast.And) else "or") for v in node.values
        ]
        out = values[0]
        for v in values[1:]:
            out = (out & v) if isinstance(node.op, ast.And) else (out | v)
        return out

    def _condition(self, node, word: str):
        v = self(node)
        if not _is_bool(v):
            raise WhereError(
                f"`{word}` joins conditions (true or false for each round), "
                f"e.g. 'turns > 20 and winner == 0'"
            )
        return v

    def _UnaryOp(self, node):
        if isinstance(node.op, ast.Not | ast.Invert):
            v = self(node.operand)
            if not _is_bool(v):
                raise WhereError("`not` applies to a condition, e.g. 'not truncated'")
            return ~v if isinstance(v, pd.Series) else not v
        v = self(node.operand)
        if not _is_number(v):
            raise WhereError("a sign applies to a number or a numeric column")
        return -v if isinstance(node.op, ast.USub) else +v

    def _BinOp(self, node):
        if isinstance(node.op, ast.BitAnd | ast.BitOr):
            word = "&" if isinstance(node.op, ast.BitAnd) else "|"
            a, b = self._condition(node.left, word), self._condition(node.right, word)
            return (a & b) if word == "&" else (a | b)
        if type(node.op) not in _ARITH:
            raise WhereError(f"the operator {type(node.op).__name__} is not allowed: {HELP}")
        a, b = self(node.left), self(node.right)
        if not (_is_number(a) and _is_number(b)):
            raise WhereError("arithmetic (+ - * / // %) is between numbers and columns")
        return _ARITH[type(node.op)](a, b)


def parse(text: str) -> ast.Expression:
    """The syntax tree of ``text``; :class:`WhereError` if it is not one expression."""
    if not isinstance(text, str):
        raise WhereError(f"a condition is text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise WhereError(f"the condition is {len(text):,} characters long; at most {MAX_LENGTH:,}")
    if "\x00" in text:  # Python 3.10's parser raises ValueError here, 3.11's SyntaxError
        raise WhereError(f"syntax error (source code string cannot contain null bytes): {HELP}")
    try:
        return ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise WhereError(f"syntax error ({e.msg}): {HELP}") from None
    except (ValueError, RecursionError, MemoryError):
        raise WhereError(f"cannot parse it: {HELP}") from None


def condition(df: pd.DataFrame, text: str) -> pd.Series:
    """Which rows of ``df`` satisfy ``text`` (a bool Series on ``df.index``)."""
    tree = parse(text)
    try:
        mask = _Evaluator(df)(tree)
    except WhereError:
        raise
    except RecursionError:
        raise WhereError("the condition is nested too deeply") from None
    except (TypeError, ValueError, ArithmeticError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise WhereError(f"cannot evaluate it ({type(e).__name__}: {first})") from None
    if isinstance(mask, bool | np.bool_):
        return pd.Series(bool(mask), index=df.index)
    if not (isinstance(mask, pd.Series) and mask.dtype == bool and mask.index.equals(df.index)):
        raise WhereError(
            "it is not a condition (true or false for each round), e.g. 'max_stack >= 12'"
        )
    return mask
