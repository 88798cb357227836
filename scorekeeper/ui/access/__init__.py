"""Who may come in, without any Flet: the roles of a browser (``roles``), the table's codes
and the gate that checks them (``gate``), the passes and seats a browser holds, kept in the
store's side file ``table.json`` (``passes``), and one browser at the table (``visitor``).
The server's door asks them; the screens show them; nothing here imports the rest of the app."""
