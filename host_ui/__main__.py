import sys

from host_ui.cli import main

sys.exit(main())
