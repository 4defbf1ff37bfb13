"""``python -m parsescore``."""

from parsescore.cli import main

if __name__ == "__main__":
    main()
