"""The Players screens: the standings, one player, the matches behind a figure."""
