"""``python -m parsescore``."""

from parsescore.cli.main import main

if __name__ == "__main__":
    main()
