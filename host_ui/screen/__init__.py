"""The terminal's screen, drawn with pygame: layouts, the renderer, outputs, input mapping and the loop."""
