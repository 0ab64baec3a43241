"""Pages and figures: the report writer, palette, plain-words findings, `unosim report`."""
