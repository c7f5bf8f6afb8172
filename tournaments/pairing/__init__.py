"""Pairing maths, pure Python: who meets whom each round. No Django, no I/O.

Entrants are opaque hashable ids (ints in practice). ``None`` stands for a bye.
"""
