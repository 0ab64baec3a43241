"""The seat's view in plain words and replies read back as actions: ``unosim.text.render``
and ``unosim.text.parse`` (the code lives in :mod:`unosim.table.text`)."""

from .table.text import (  # noqa: F401
    InvalidMove,
    MoveCounts,
    MovePolicy,
    action_text,
    card_text,
    fallback_action,
    legal_list,
    parse,
    render,
)
