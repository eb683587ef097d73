"""The drill: the engine that serves and checks cases, mastery, the set course, and the replay a trainer runs."""
