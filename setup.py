"""Packages are listed here because passes/ installs as cass_cc.passes (DESIGN.md)."""
from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["cass_cc", "cass_cc.*"])
    + ["cass_cc.passes"]
    + ["cass_cc.passes." + name for name in find_packages("passes")],
)
