"""The Score screen: the totals, the X tallies, the pegboard and the chart of a match."""
