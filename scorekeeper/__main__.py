import sys

from scorekeeper.cli import main

sys.exit(main())
