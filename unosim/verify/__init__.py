"""An independent move checker for traced rounds."""
