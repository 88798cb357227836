"""Getting in: the join screen (all a browser without a code sees), the host's invitation
with the QR codes, a watcher's Home (``view``), and the host's list of the seats (``seats_view``)."""
