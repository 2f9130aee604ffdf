"""The pygame screen: drawing the view model, reading touches and keys, and the display outputs.

- ``render``, ``screens``, ``widgets``, ``deed_card``, ``chart``, ``theme`` (and ``fonts/``): drawing.
- ``input_map``, ``pg_events``, ``evdev_touch``: inputs, turned with the screen's rotation.
- ``display``: window, KMS/DRM and framebuffer outputs; ``context``: what a screen layout is given;
  ``app``: the loop that ties them to a
  :class:`terminal.table.machine.Terminal`.
"""
