"""Progress bars: on a terminal only (dpbandits.progress)."""

from __future__ import annotations

import io

from dpbandits.progress import progress


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_no_progress_bar_in_a_log_or_a_pipe():
    stream = io.StringIO()
    items = [1, 2, 3]
    assert progress(items, "cells", stream=stream) is items
    assert stream.getvalue() == ""


def test_a_progress_bar_on_a_terminal():
    stream = _Terminal()
    assert list(progress(range(5), "dueling alg1 k_grid/r1", 5, stream=stream)) == list(range(5))
    assert "dueling alg1 k_grid/r1" in stream.getvalue() and "0/5" in stream.getvalue()
