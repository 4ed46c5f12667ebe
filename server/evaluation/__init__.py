"""Harnesses, benchmarks and footage: how the README's hands-free figures are measured.

Not part of the running server: only the demo uses `scripted` (to answer the camera's
questions the way a person at the table would), and the `tablesight` command's measuring
subcommands import the rest on demand.
"""
