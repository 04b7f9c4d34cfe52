#pragma once
/// @file ConvexHull.h
/// A convex polyhedron as the convex hull of a set of points (the vertices of an OBJ or STL mesh),
/// its faces merged into polygons, and its mass properties. Used by the `convex_mesh` contact
/// shape (Contact.h) and by a body whose mass properties come from a mesh.
///
/// Hull: incremental (beneath–beyond, the construction of Quickhull without its conflict lists;
/// Barber, Dobkin & Huhdanpaa, ACM TOMS 22, 1996): a first tetrahedron of extreme points, then
/// each point outside the current hull by more than a tolerance (1e-10 of the points' extent)
/// replaces the faces it sees by a fan from their horizon. Coplanar triangles are merged into one
/// face (normals within 1e-9), so a box gives 6 quadrilaterals and 12 edges.
/// Mass properties: the divergence theorem over the faces' triangles (Eberly, "Polyhedral Mass
/// Properties (Revisited)", Geometric Tools 2002, after Mirtich, J. Graphics Tools 1, 1996).

#include <array>
#include <span>
#include <stdexcept>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// Most vertices of one face of a hull that the contact geometry takes (a convex_mesh with a larger
/// face is refused by contact_problems()).
inline constexpr int kMaxHullFaceVertices = 120;

/// A convex polyhedron in its own axes (m). Faces are convex polygons, their vertex loops
/// counter-clockwise seen from outside.
struct ConvexHull {
  std::vector<Vec3> vertices;        ///< the hull's vertices (corners only), in the order of the input points
  std::vector<int> source_index;     ///< index of each vertex among the input points
  std::vector<Vec3> face_normals;    ///< outward unit normal of each face
  std::vector<double> face_offsets;  ///< n·x = offset on each face, m
  std::vector<int> face_start;       ///< face f's loop: face_vertices[face_start[f] .. face_start[f + 1])
  std::vector<int> face_vertices;    ///< vertex indices of the loops
  std::vector<std::array<int, 2>> edges;       ///< each edge once (vertex indices)
  std::vector<std::array<int, 2>> edge_faces;  ///< the two faces of each edge

  /// The number of faces.
  int num_faces() const { return static_cast<int>(face_normals.size()); }
  /// Largest distance of a vertex from the origin of the hull's axes, m.
  double bounding_radius() const;
  /// Smallest distance of the centroid to a face (the half thickness), m.
  double inner_radius() const;
};

/// The convex hull of `points` (m). @throws std::invalid_argument if there are fewer than 4
/// points, a point is not finite, or all lie in a plane (no volume).
ConvexHull convex_hull(std::span<const Vec3> points);

/// Volume, centroid and inertia of a solid of uniform density 1.
struct PolyhedronMass {
  double volume = 0;              ///< m³
  Vec3 centroid = Vec3::Zero();   ///< m, the polyhedron's axes
  Mat3 inertia = Mat3::Zero();    ///< about the centroid, per unit density (kg m² per kg/m³)
};

/// Mass properties of the hull (see the file comment). No throw.
PolyhedronMass mass_properties(const ConvexHull& hull);
/// Volume (m³) of a closed triangle mesh (each triangle counter-clockwise seen from outside), by
/// the divergence theorem; negative if the triangles face inward. No throw.
double mesh_volume(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> triangles);

}  // namespace mbdae
