"""Helpers shared by the benchmark scripts (scripts/bench*.py)."""
import os
import platform


def machine():
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem = int(f.readline().split()[1]) / 1048576
    distro = ""
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    distro = line.split("=", 1)[1].strip().strip('"') + ", "
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {mem:.0f} GiB, {cpu}, {distro}{platform.platform()}"
