from tests.faults import FIGURES


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("restarts during an evening")
        for line in FIGURES:
            terminalreporter.write_line(line)
