# SPDX-License-Identifier: GPL-3.0-or-later
"""One module per extension family: model ↔ JSON. Pure."""
