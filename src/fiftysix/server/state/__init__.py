"""A table as a pure state machine over its event log: its events, its state and the state's parts."""
