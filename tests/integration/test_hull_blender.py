# SPDX-License-Identifier: GPL-3.0-or-later
"""Blender-side hulls (io/blender/tools/hull.py): evaluated meshes, bmesh hulls, simplification."""

import bmesh
import bpy
import numpy as np
import pytest

from gltf_physics.io import hull as pure_hull
from gltf_physics.io.blender.tools import hull
from scripts.bench import uv_sphere_object

SPHERE_VOLUME = 4 / 3 * np.pi


def bmesh_object(name: str, build, *modifiers: str):
    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    build(bm)
    bm.to_mesh(mesh)
    bm.free()
    obj = _link(name, mesh)
    for kind in modifiers:
        obj.modifiers.new(kind.lower(), kind)
    return obj


def points_object(name: str, points):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(p) for p in points], [], [])
    return _link(name, mesh)


def _link(name: str, data):
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def depsgraph():
    return bpy.context.evaluated_depsgraph_get()


def rows(points) -> set[tuple[float, ...]]:
    return {tuple(row) for row in np.asarray(points, dtype=np.float32).tolist()}


@pytest.fixture
def big_sphere(clean_scene):
    return uv_sphere_object(448, 224)  # about 100,000 vertices


def test_sphere_hull_points_lie_on_the_sphere(big_sphere):
    vertices = hull.evaluated_vertices(big_sphere, depsgraph())
    assert len(vertices) > 99_000
    points = hull.convex_hull_points(big_sphere, depsgraph())
    assert points.shape[1] == 3 and len(points) > 30_000
    assert np.allclose(np.linalg.norm(points, axis=1), 1.0, atol=1e-5)
    assert rows(points) <= rows(vertices)


def test_big_sphere_simplifies_to_the_engine_limit(big_sphere):
    result = hull.simplify_object_hull(big_sphere, depsgraph())
    assert 200 < len(result.points) <= 255
    assert result.volume_before == pytest.approx(SPHERE_VOLUME, rel=1e-3)
    assert result.volume_error <= 0.05
    assert rows(result.points) <= rows(hull.convex_hull_points(big_sphere, depsgraph()))


def test_fast_selection_needs_no_full_hull(big_sphere):
    points = hull.simplified_hull_points(big_sphere, depsgraph(), 255)
    assert len(points) == 255
    assert rows(points) <= rows(hull.evaluated_vertices(big_sphere, depsgraph()))
    assert pure_hull.hull_volume(points) >= 0.95 * SPHERE_VOLUME


@pytest.mark.parametrize("cuts", [0, 5])
def test_cube_stays_eight_points_without_loss(clean_scene, cuts):
    def build(bm):
        bmesh.ops.create_cube(bm, size=2.0)
        if cuts:
            bmesh.ops.subdivide_edges(bm, edges=bm.edges, cuts=cuts, use_grid_fill=True)

    cube = bmesh_object("Cube", build)
    corners = rows([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    assert rows(hull.convex_hull_points(cube, depsgraph())) == corners
    result = hull.simplify_object_hull(cube, depsgraph())
    assert rows(result.points) == corners
    assert result.volume_before == pytest.approx(8.0)
    assert result.volume_error == 0.0


def test_hull_follows_the_evaluated_mesh(clean_scene):
    cube = bmesh_object("Arrayed", lambda bm: bmesh.ops.create_cube(bm, size=2.0), "ARRAY")
    points = hull.convex_hull_points(cube, depsgraph())
    assert points[:, 0].min() == pytest.approx(-1) and points[:, 0].max() == pytest.approx(3)
    assert len(points) == 8


def test_hull_mesh_is_a_closed_triangle_hull(big_sphere):
    kept = hull.simplify_object_hull(big_sphere, depsgraph())
    mesh = hull.hull_mesh("Collider", kept.points)
    assert mesh.name == "Collider"
    assert len(mesh.vertices) == len(kept.points)
    assert all(len(polygon.vertices) == 3 for polygon in mesh.polygons)
    bm = bmesh.new()
    bm.from_mesh(mesh)
    assert all(edge.is_manifold for edge in bm.edges)
    assert bm.calc_volume() == pytest.approx(kept.volume_after, rel=1e-5)
    bm.free()


def test_no_scratch_meshes_are_left_behind(big_sphere):
    before = len(bpy.data.meshes)
    hull.convex_hull_points(big_sphere, depsgraph())
    hull.simplify_object_hull(big_sphere, depsgraph())
    assert len(bpy.data.meshes) == before


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([], 0),
        ([(0, 0, 0)], 1),
        ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], 3),
        ([(0, 0, 0)] * 5, 1),
        ([(x, 0, 0) for x in range(10)], 10),
        ([(x, y, 0) for x in range(20) for y in range(20)], 4),
    ],
    ids=["empty", "one", "triangle", "duplicates", "line", "plane"],
)
def test_degenerate_meshes_do_not_crash(clean_scene, points, expected):
    obj = points_object("Flat", points)
    hull_points = hull.convex_hull_points(obj, depsgraph())
    assert len(hull_points) == expected
    result = hull.simplify_object_hull(obj, depsgraph())
    assert result.degenerate and result.volume_error == 0.0
    assert len(result.points) == expected


def test_object_without_geometry_has_no_hull(clean_scene):
    empty = _link("Empty", None)
    assert hull.convex_hull_points(empty, depsgraph()).shape == (0, 3)
    assert hull.simplify_object_hull(empty, depsgraph()).degenerate


def test_nan_vertices_raise_a_clear_error(clean_scene):
    obj = points_object("Broken", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (np.nan, 0, 0)])
    with pytest.raises(ValueError, match="NaN or infinite"):
        hull.convex_hull_points(obj, depsgraph())


def _solid(triangles):
    from gltf_physics.io import mass_properties

    return mass_properties.mesh_part(triangles)


@pytest.mark.parametrize("count", [12, 500, 5000])
def test_hull_triangles_hold_the_pure_hulls_solid(count):
    """Blender's hull (the export's Auto centre of mass) encloses the solid of the pure one,
    interior points and all; above UNFILTERED_POINTS the exact prefilter runs first."""
    rng = np.random.default_rng(count)
    points = (rng.normal(size=(count, 3)) * (1.0, 2.0, 0.5) + (3.0, -1.0, 2.0)).astype(np.float32)
    meshes = len(bpy.data.meshes)
    ours, pure = _solid(hull.hull_triangles(points)), _solid(pure_hull.hull_triangles(points))
    assert len(bpy.data.meshes) == meshes  # made no data-block
    assert ours.volume == pytest.approx(pure.volume, rel=1e-9)
    assert np.allclose(ours.centroid, pure.centroid, rtol=1e-9, atol=1e-12)
    assert np.allclose(ours.second_moment, pure.second_moment, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("offset", [0.0, 1.0, 100.0])
def test_hull_triangles_of_flat_points_are_empty(offset):
    """Flat inputs away from the origin too (an open surface would enclose a false volume
    with it), tilted ones rounded to float32 included."""
    square = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]) + np.array([0, 0, offset])
    rng = np.random.default_rng(3)
    u, v = rng.uniform(-5, 5, size=(2, 200, 1))
    tilted = (np.array([offset, 2.0, -1.0]) + u * np.array([1.0, 0.3, 0.7])
              + v * np.array([-0.2, 1.0, 0.5])).astype(np.float32)
    for flat in (square, square[:3], tilted):
        assert hull.hull_triangles(flat).shape == (0, 3, 3)
        assert pure_hull.hull_triangles(flat).shape == (0, 3, 3)


def test_hull_triangles_of_tiny_or_bad_points():
    assert hull.hull_triangles(np.empty((0, 3))).shape == (0, 3, 3)
    assert hull.hull_triangles(np.ones((5, 3))).shape == (0, 3, 3)
    with pytest.raises(ValueError):
        hull.hull_triangles(np.array([[0, 0, np.nan]] * 4))


def test_hull_triangles_of_coplanar_grids_hold_the_box():
    """Many points on each face: the box's solid."""
    ticks = np.linspace(-1.0, 1.0, 9)
    grid = np.array([(x, y, z) for x in ticks for y in ticks for z in ticks
                     if max(abs(x), abs(y), abs(z)) == 1.0]) * (1.0, 2.0, 3.0) + (0.5, 0, 0)
    solid = _solid(hull.hull_triangles(grid))
    assert solid.volume == pytest.approx(48.0)
    assert np.allclose(solid.centroid, (0.5, 0.0, 0.0), atol=1e-9)


def test_generate_convex_hull_makes_nothing_for_a_mesh_without_volume(clean_scene):
    """A flat mesh has no hull: the operator says so and makes no proxy (it reported a hull
    and made a flat one). With a solid object selected too, that one gets its hull."""
    flat = points_object("Flat", [(x, y, 0) for x in range(3) for y in range(3)])
    for other in bpy.context.view_layer.objects:
        other.select_set(other == flat)
    bpy.context.view_layer.objects.active = flat
    before = {o.name for o in bpy.data.objects}, {m.name for m in bpy.data.meshes}
    with pytest.raises(RuntimeError, match="Flat's mesh has no volume"):
        bpy.ops.gltf_physics.simplify_hull()
    assert ({o.name for o in bpy.data.objects}, {m.name for m in bpy.data.meshes}) == before
    assert flat.gltf_physics.shape_type == "NONE"
    solid = points_object("Solid", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)])
    solid.select_set(True)
    assert bpy.ops.gltf_physics.simplify_hull() == {"FINISHED"}
    assert solid.gltf_physics.shape_type == "CONVEX" and solid.gltf_physics.mesh_object
    assert flat.gltf_physics.shape_type == "NONE"
