"""The rules atlas's data files: one group's cells packed small, and read back exactly.

A group (one kind of players, one deck, one player count) is up to 1,440 cells of
whole numbers (``atlas_grid.cell_stats``: the ``FIELDS``, the wins per seat, the turns
and points histograms). Written as JSON they made 25 MB; packed they make about a
third of that, with every number kept exactly. A data file is one line of JavaScript::

    atlasPut("<strategy>-<deck>-<n>", "<base64 of the zlib-deflated packed integers>");

The packed integers are unsigned LEB128 numbers (seven bits a byte, low bits first):

1. a header: ``FORMAT``, the number of cells, then the widths of the four parts of a
   cell's row (fields, wins, turns bins, points bins);
2. the cells' keys as numbers, in ascending order: the first key, then each one's
   difference from the one before (a key is ``1 + len(SWITCHES)`` digits);
3. the rows, column by column (one position of every cell, then the next), each number
   as its difference from the same position of the cell's *parent* (``parent_key``:
   the same rules with the last switch that is not at its first value set back to it;
   none when that cell is not in the group), zigzag-coded (0, -1, 1, -2 -> 0, 1, 2, 3).

Rows are padded to the full histograms (``TURN_BINS + 1`` and ``POINT_BINS + 1``) and
trimmed of trailing empty bins again when read, as ``cell_stats`` trims them. Rules of
close keys give close numbers (the same deals in every cell), so the differences are
small and deflate well. ``reports/atlas/atlas.js`` reads the same format in the page.
"""

from __future__ import annotations

import base64
import json
import zlib

from . import atlas_grid as G

FORMAT = 1
KEY_DIGITS = 1 + len(G.SWITCHES)
PREFIX = "atlasPut("
# JavaScript reads whole numbers exactly up to 2**53; a packed number must stay below
LIMIT = 2**53
# a packed group is at most some 200 KB inflated: refuse to inflate more than this
MAX_INFLATED = 64 * 2**20

Cells = dict[str, list]


def parent_key(key: str) -> str | None:
    """``key`` with its last switch digit that is not 0 set to 0 (None for the deck's
    official rules). The result is a smaller number than ``key``."""
    for i in range(len(key) - 1, 0, -1):
        if key[i] != "0":
            return key[:i] + "0" + key[i + 1 :]
    return None


def pack(cells: Cells, n_players: int) -> str:
    """The base64 text of one group's ``cells`` (key -> ``cell_stats`` row) at
    ``n_players``."""
    keys = sorted(cells, key=int)
    if any(len(k) != KEY_DIGITS or not k.isdigit() for k in keys):
        raise ValueError(f"atlas keys must be {KEY_DIGITS} digits")
    widths = (len(G.FIELDS), n_players, G.TURN_BINS + 1, G.POINT_BINS + 1)
    rows = {k: _row(cells[k], widths) for k in keys}
    out: list[int] = [FORMAT, len(keys), *widths]
    out += [int(k) - (int(keys[i - 1]) if i else 0) for i, k in enumerate(keys)]
    refs = {k: rows.get(parent_key(k) or "") for k in keys}
    for j in range(sum(widths)):
        for k in keys:
            ref = refs[k]
            out.append(_zigzag(rows[k][j] - (ref[j] if ref else 0)))
    raw = bytearray()
    for v in out:
        _leb128(v, raw)
    return base64.b64encode(zlib.compress(bytes(raw), 9)).decode("ascii")


def unpack(text: str) -> Cells:
    """The cells that ``pack`` wrote into ``text``, exactly."""
    try:
        z = zlib.decompressobj()
        raw = z.decompress(base64.b64decode(text, validate=True), MAX_INFLATED)
    except (ValueError, zlib.error) as e:
        raise ValueError(f"not packed atlas data ({e})") from None
    if z.unconsumed_tail or not z.eof:
        raise ValueError("packed atlas data cut short or too large")
    numbers = list(_read_leb128(raw))
    if len(numbers) < 6 or numbers[0] != FORMAT:
        raise ValueError(f"packed atlas data not of format {FORMAT}")
    count, widths = numbers[1], numbers[2:6]
    width = sum(widths)
    if len(numbers) != 6 + count + count * width:
        raise ValueError("packed atlas data does not hold whole cells")
    keys, at = [], 0
    for step in numbers[6 : 6 + count]:
        at += step
        keys.append(str(at).zfill(KEY_DIGITS))
    body = numbers[6 + count :]
    rows = [[_unzigzag(body[j * count + i]) for j in range(width)] for i in range(count)]
    index = {k: i for i, k in enumerate(keys)}
    for i, k in enumerate(keys):  # a parent is a smaller key: already whole
        p = index.get(parent_key(k) or "")
        if p is not None:
            rows[i] = [a + b for a, b in zip(rows[i], rows[p])]
    nf, nw, nt, _ = widths
    return {
        k: r[:nf] + [r[nf : nf + nw], _trim(r[nf + nw : nf + nw + nt]), _trim(r[nf + nw + nt :])]
        for k, r in zip(keys, rows)
    }


def data_file(name: str, cells: Cells, n_players: int) -> str:
    """The text of the data file of group ``name``."""
    return f"{PREFIX}{json.dumps(name)},{json.dumps(pack(cells, n_players))});\n"


def read_data_file(text: str) -> tuple[str, Cells]:
    """(group name, cells) of a data file's ``text``."""
    text = text.strip()
    if not (text.startswith(PREFIX) and text.endswith(");")):
        raise ValueError("not an atlas data file")
    head, sep, tail = text[len(PREFIX) : -2].partition(",")
    try:
        name, packed = json.loads(head), json.loads(tail)
    except ValueError:
        name = packed = None
    if not (sep and isinstance(name, str) and isinstance(packed, str)):
        raise ValueError("not an atlas data file (a name and a packed text)")
    return name, unpack(packed)


def _row(cell: list, widths: tuple[int, int, int, int]) -> list[int]:
    nf, nw, nt, np_ = widths
    fields, wins, turns, points = cell[:nf], cell[nf], cell[nf + 1], cell[nf + 2]
    if len(fields) != nf or len(wins) != nw or len(turns) > nt or len(points) > np_:
        raise ValueError("an atlas cell does not have the grid's shape")
    row = [*fields, *wins, *turns, *[0] * (nt - len(turns)), *points, *[0] * (np_ - len(points))]
    if any(not isinstance(v, int) or not 0 <= v < LIMIT // 4 for v in row):
        raise ValueError("atlas numbers must be whole, at least 0 and below 2**51")
    return row


def _zigzag(v: int) -> int:
    return 2 * v if v >= 0 else -2 * v - 1


def _unzigzag(z: int) -> int:
    return z // 2 if z % 2 == 0 else -(z + 1) // 2


def _leb128(v: int, out: bytearray) -> None:
    while True:
        low, v = v & 0x7F, v >> 7
        out.append(low | 0x80 if v else low)
        if not v:
            return


def _read_leb128(raw: bytes):
    value = shift = 0
    for b in raw:
        value |= (b & 0x7F) << shift
        if b & 0x80:
            shift += 7
            if shift > 56:
                raise ValueError("packed atlas number too large")
        else:
            yield value
            value = shift = 0
    if shift:
        raise ValueError("packed atlas data cut short")


def _trim(h: list[int]) -> list[int]:
    end = len(h)
    while end and h[end - 1] == 0:
        end -= 1
    return h[:end]
