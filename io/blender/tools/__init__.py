# SPDX-License-Identifier: GPL-3.0-or-later
"""What the operators share: whether a target may be edited (`editable`) and which objects
the tools made (`ownership`)."""
