# SPDX-License-Identifier: GPL-3.0-or-later
"""Stored settings: the registered properties and reading them fast."""
