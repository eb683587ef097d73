"""``python -m helpers``: see :mod:`helpers.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
