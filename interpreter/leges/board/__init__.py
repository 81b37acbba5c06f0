"""Boards: spaces with properties, their adjacency, named areas, and board queries."""
from .board import Board, load_board

__all__ = ["Board", "load_board"]
