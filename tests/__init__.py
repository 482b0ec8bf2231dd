"""The test suite, laid out like the source tree it covers; shared helpers in ``tests.helpers``."""
