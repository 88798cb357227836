"""Players and their records across matches: statistics, head-to-head, CSV."""
