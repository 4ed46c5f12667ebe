"""Dazzling Diceline (Masaki Suga, analog lunchbox) for 3 and 4 players."""
