"""Dazzling Diceline (Masaki Suga, analog lunchbox) for 3 and 4 players."""
# rules.core's __init__ builds the registry, which imports rules.diceline.engine: load it first so that
# importing any module of this package directly (rules.diceline.actions, ...) never meets a half-made one.
import rules.core  # noqa: F401
