"""`python -m lanegate` runs the command line."""

from lanegate.cli.main import main

raise SystemExit(main())
