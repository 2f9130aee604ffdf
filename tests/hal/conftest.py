"""The hal tests use the shared fakes' fixtures (``tests/fakes/plugin.py``, registered for every folder by
``tests/conftest.py``): ``fake_clock``, ``fake_gpio``, ``fake_mfrc522``, ``make_rc522_reader``, ``fake_serial``,
``sim_reader``, ``sim_beeper``, ``sim_buttons``."""
