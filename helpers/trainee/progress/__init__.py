"""A trainee's progress: the saved files and their migration readers, the lock that guards a save, and the times."""
