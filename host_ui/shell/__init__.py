"""The host application's services, below the ``banquier`` command and the composition roots.

- ``config``: loading and checking ``config.toml``; ``doctor``: the installation checks;
  ``backup``: the backup schedule; ``device_key``: where the device key file lives and when it is made;
  ``games``: opening a game file with that key; ``manage``: the ``games`` and ``cards`` subcommands.

Nothing here draws: the pygame code is in :mod:`host_ui.screen`.
"""
