"""Voilà for a proctored sitting (``checkout proctor``) and for the app (``python3 tasks.py app``)."""
