"""``python -m helpers``: see :mod:`helpers.cli`."""

from helpers.cli.run import end_process

if __name__ == "__main__":
    end_process()
