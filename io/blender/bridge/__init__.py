# SPDX-License-Identifier: GPL-3.0-or-later
"""Object properties ↔ the neutral model, both ways (shapes, joints, vehicles)."""
