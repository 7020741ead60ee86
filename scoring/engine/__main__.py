"""`python -m scoring.engine --rules RULESET ...`: see cli.py or --help."""

import sys

from .cli import main

sys.exit(main())
