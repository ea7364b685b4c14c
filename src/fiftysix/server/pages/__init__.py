"""The pages' own routes: the table's websocket, finished deals, peeks and the installable app."""
