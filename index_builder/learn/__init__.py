"""Learning from the firm's use (issue 27): usage events, knowledge-team curation, relearning.

``store`` keeps the shown lists, usage events and curation marks in one database (SQLite
by default, any SQLAlchemy URL for several servers); ``curation`` turns marks into card
labels and ranking; ``relearn`` retrains the learned fusion on events with position-bias
correction behind a guard. It lives in ``index_builder`` because both the server (writing
events) and ``index-builder learn`` (reading them) need it, and the index builder never
imports the server.
"""
