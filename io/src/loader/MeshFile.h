#pragma once
/// @file MeshFile.h
/// Reading the vertices and triangles of a mesh file: Wavefront OBJ (`v x y z` lines and `f`
/// polygons, 1-based or negative indices, `v/vt/vn` forms; a polygon becomes a fan of triangles)
/// and STL (ASCII `solid ... vertex x y z ...`, or binary: an 80-byte header, a 32-bit triangle
/// count and 50 bytes per triangle; equal vertices are merged). Internal to the model loader.

#include <array>
#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae::io::loader {

struct MeshData {
  std::vector<Vec3> vertices;                 ///< in the file's units
  std::vector<std::array<int, 3>> triangles;  ///< 0-based vertex indices
};

/// The mesh in the file at `path` (OBJ if its name ends in .obj, STL if .stl, any case).
/// @throws std::runtime_error with a message that names the file (and the line for OBJ) if it
/// cannot be read, has another extension, or a value or an index is bad.
MeshData read_mesh_file(const std::string& path);

}  // namespace mbdae::io::loader
