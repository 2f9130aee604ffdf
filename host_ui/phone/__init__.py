"""The players' phones: a read-only live page of the game on the table's network (issue "Every player's phone
shows their money").

- :mod:`host_ui.phone.access`: what the terminal and the page share through the data folder (the switch, the
  device's token) and who may be served (the table's network only). It imports nothing of the web libraries,
  so the terminal can use it without them.
- The page's server runs in a process of its own (``banquier phone``), never inside the terminal: a crash or a
  hang of the page leaves the table playing.
"""
