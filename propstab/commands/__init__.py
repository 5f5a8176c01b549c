"""One module per CLI subcommand. Each defines ``add_parser(subparsers)`` which adds its
subparser and sets ``func`` (``args -> exit code``). :mod:`propstab.cli` discovers them."""
