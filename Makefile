# Two entry points for a fresh machine (README.md): `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
APT_PACKAGES := llvm-22 lld-22 clang-22 hipcc libamdhip64-dev rocm-device-libs cmake ccache redis-server
PYTEST_ARGS ?=

.PHONY: demo test system-deps venv clean

# Debian's packages: installed when run as root, otherwise the exact command is printed. nvcc
# needs no package: the venv holds NVIDIA's nvcc wheels, used where no CUDA toolkit is found.
system-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

venv: $(VENV)/.installed

$(VENV)/.installed: setup.cfg setup.py | system-deps
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test,bench,nvcc,dataset]'
	@echo "nvcc used: $$($(VENV)/bin/cass-cc doctor | grep -w nvcc | sed 's/ *\[binary route\] */ /')"
	touch $@

demo: system-deps venv
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(MAKE) -C examples/vector_add clean all NVCC=cass-nvcc
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH cass-run examples/vector_add/vector_add

# worksteal: a worker that runs out of tests takes some from the other, so the suite's long
# tests (a minute or two each) do not leave one core idle at the end
test: system-deps venv
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(VENV)/bin/pytest -q -n 2 --dist worksteal --durations=25 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
