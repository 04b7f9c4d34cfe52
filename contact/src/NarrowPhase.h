#pragma once
// The narrow-phase function of each contact pair kind (ContactPairs.h), registered in
// ContactPairs.cpp: shape a of the kind's type a, shape b of its type b, the points with depth <
// margin into out (normal from a to b); returns their count. Internal to mbdae::contact.

#include <mbdae/contact/ContactGeometry.h>

namespace mbdae::pairs {

int plane_sphere(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int plane_capsule(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int plane_box(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int plane_cylinder(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int box_box(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int box_cylinder(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int box_capsule(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int box_sphere(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int cylinder_cylinder(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int cylinder_capsule(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int cylinder_sphere(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int capsule_capsule(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int capsule_sphere(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int sphere_sphere(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);

int plane_convex_mesh(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int convex_mesh_cylinder(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int convex_mesh_box(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int convex_mesh_capsule(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int convex_mesh_sphere(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);
int convex_mesh_convex_mesh(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);

}  // namespace mbdae::pairs
