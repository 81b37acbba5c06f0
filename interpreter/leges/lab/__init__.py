"""Studies of a game: playing many games (simulate, runner), measuring them (metrics, stats), records
of the games played, ladders of agents and the pictures of the results (plot).

Sits above the engine and the agents; the command line and the page use it.
"""
