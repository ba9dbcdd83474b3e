import sys

from spyglass.cli.main import main

sys.exit(main())
