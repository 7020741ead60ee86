"""Several writes released at the same moment, as a hall of tablets (or a double tap) sends
them: the tests' one way to start threads together."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.db import connections

T = TypeVar("T")


def at_once(works: Sequence[Callable[[], T]], timeout: float = 60) -> list[T | Exception]:
    """Run each of `works` in a thread of its own, all released together by a barrier; what
    each returned, or the exception it raised, in the same order. Every thread closes its
    database connections (a thread's connection is its own, and PostgreSQL cannot drop the
    test database while one stays open)."""
    barrier = threading.Barrier(len(works), timeout=timeout)
    # Each thread runs in a copy of the caller's context: the club scope the test set up
    # (club/scoping.py) holds in the threads too, as a request's holds in its view.
    contexts = [contextvars.copy_context() for _ in works]
    results: list[T | Exception | None] = [None] * len(works)

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = contexts[i].run(works[i])
        except Exception as error:  # noqa: BLE001 - the caller inspects what each thread met
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(works))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results


def failures(results: list) -> list[Exception]:
    """The exceptions among `at_once`'s results."""
    return [result for result in results if isinstance(result, Exception)]
