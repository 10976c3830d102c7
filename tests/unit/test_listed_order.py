# SPDX-License-Identifier: GPL-3.0-or-later
"""The order an import gives a file's new collision layers keeps every filter's list in its
own order, so the export (which lists systems in layer order) writes the lists back as the
file had them, and a second round trip changes nothing."""

import random

from gltf_physics.io.layer_names import listed_order


def test_one_list_keeps_its_order_whatever_is_met_first() -> None:
    """The KHR WaterWheel sample: a node filter naming System_2 alone was met first, so its
    lists came back turned (System_2, System_0, System_1)."""
    assert listed_order([("System_2",), ("System_0", "System_1", "System_2")]) == [
        "System_0", "System_1", "System_2"]


def test_lists_agreeing_on_parts_make_one_order() -> None:
    assert listed_order([("B", "D"), ("A", "B"), ("C", "D"), ("B", "C")]) == [
        "A", "B", "C", "D"]


def test_names_the_lists_disagree_on_come_last_in_the_order_first_met() -> None:
    assert listed_order([("A", "B"), ("B", "A"), ("C",)]) == ["C", "A", "B"]


def test_any_lists_in_the_order_given_back_are_written_the_same() -> None:
    """Written back sorted by the order found, then read again in any order: the same
    lists (a second round trip changes nothing), for random consistent and clashing lists."""
    rng = random.Random(7)
    names = [f"S{i}" for i in range(12)]
    for _ in range(200):
        lists = [tuple(rng.sample(names, rng.randint(1, 5))) for _ in range(rng.randint(1, 6))]
        order = listed_order(lists)
        assert sorted(order) == sorted({n for names_ in lists for n in names_})
        written = [tuple(sorted(names_, key=order.index)) for names_ in lists]
        shuffled = written[:]
        rng.shuffle(shuffled)
        again = listed_order(shuffled)
        assert [tuple(sorted(names_, key=again.index)) for names_ in written] == written

