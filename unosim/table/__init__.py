"""Seats for people and language models: the text view and reply reader (``text``), an
OpenAI-compatible chat agent (``llm``) and UNO over the Model Context Protocol
(``mcp_server``), all on the stepwise game (``unosim.Game``)."""
