"""`python -m raiders`: the same command line as the `raiders` script."""
from raiders.interpreter.cli import main

if __name__ == "__main__":
    main(prog_name="raiders")
