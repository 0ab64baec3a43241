"""Seats played outside the kernel: the protocol, the decisions asked, the rounds that
pause for them."""
