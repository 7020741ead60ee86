from tests.faults import FIGURES


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("faults during an evening: restarts, a database refusing writes")
        for line in FIGURES:
            terminalreporter.write_line(line)
