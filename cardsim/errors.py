"""The one exception type users see: a clear message, exit code 2 on the CLI."""


class CardsimError(ValueError):
    """Bad input (unknown game, bot, rule or value) or an illegal bot decision.

    The message says what was wrong and what is allowed; the CLI prints it on
    one line and exits with code 2.
    """
