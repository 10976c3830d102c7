# SPDX-License-Identifier: GPL-3.0-or-later
"""Fixtures the pure-core tests share."""

import pytest

from tests.conftest import SHARED
from tests.support.schemas import PhysicsSchemaValidator


@pytest.fixture(scope="session")
def validator() -> PhysicsSchemaValidator:
    """The official physics JSON schemas (known upstream defects patched); the test is
    skipped where ../shared is absent."""
    specs = SHARED / "specs"
    if not specs.is_dir():
        pytest.skip(f"the shared specs folder {specs} is absent (needs ../shared)")
    return PhysicsSchemaValidator(specs)
