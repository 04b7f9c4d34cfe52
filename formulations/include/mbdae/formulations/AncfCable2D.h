#pragma once
/// @file AncfCable2D.h
/// The planar ANCF cable element (absolute nodal coordinate formulation), as Exudyn's
/// ANCFCable2D. Sources: J. Gerstmayr, H. Irschik, "On the correct representation of bending
/// and axial deformation in the absolute nodal coordinate formulation with an elastic line
/// approach", J. Sound Vib. 318 (2008) 461–487; D. Berzeri, A. A. Shabana, "Development of simple
/// models for the elastic forces in the absolute nodal co-ordinate formulation", J. Sound Vib. 235
/// (2000) 539–565.
///
/// Coordinates of an element of reference length L (x ∈ [0, L] the arc length of the straight,
/// unstressed reference line, ξ = x/L), 8 per element, the two nodes' positions and slopes:
///
///     e = [r₀ (2), r₀' (2), r₁ (2), r₁' (2)],  r' = ∂r/∂x (world x, y)
///     r(x) = S₁ r₀ + S₂ r₀' + S₃ r₁ + S₄ r₁'   (cubic Hermite)
///     S₁ = 1 − 3ξ² + 2ξ³,  S₂ = L (ξ − 2ξ² + ξ³),  S₃ = 3ξ² − 2ξ³,  S₄ = L (ξ³ − ξ²)
///
/// Strains (an elastic line, Euler–Bernoulli: no shear, no rotary inertia):
///
///     ε = |r'| − 1                       axial strain of the centre line
///     κ = (r' × r'')/(r' · r')          bending: the rate dθ/dx of the tangent's angle θ per
///                                        unit reference length (Gerstmayr & Irschik 2008)
///
/// Energy and forces (N = EA (ε + d ε̇), M = EI (κ + d κ̇); d ≥ 0 Kelvin–Voigt damping, s):
///
///     U = ∫ ½ EA ε² + ½ EI κ² dx,   Q_e = ∫ N ∂ε/∂e + M ∂κ/∂e dx
///     M_e = ρA ∫ Sᵀ S dx  (consistent, constant),   Q_ext = ∫ Sᵀ (ρA g + f) dx
///
/// Gauss–Legendre quadrature over each element: 5 points for the axial term, 4 for bending, 4
/// for the mass matrix (exact: Sᵀ S is of degree 6) and the loads. The tangent (stiffness and
/// damping matrices) is analytic: differences of the axial force EA (|r'| − 1), whose round-off
/// is EA ε, would spoil the bending stiffness of a slender cable.

#include <Eigen/Dense>

namespace mbdae::ancf {

using Vec2 = Eigen::Vector2d;                 ///< a planar vector (x, y)
using Vec8 = Eigen::Matrix<double, 8, 1>;     ///< an element's coordinates e (or forces)
using Mat8 = Eigen::Matrix<double, 8, 8>;     ///< an element's mass, stiffness or damping matrix

/// A cable's section: stiffnesses, mass per length and damping.
struct Section {
  double EA = 0;       ///< N
  double EI = 0;       ///< N m²
  double rhoA = 0;     ///< kg/m
  double damping = 0;  ///< s
};

/// The four shape functions (row 0), their x-derivatives (row 1) and second x-derivatives (row 2)
/// at ξ ∈ [0, 1] of an element of length L (m).
Eigen::Matrix<double, 3, 4> shape(double xi, double L);
/// r, r' or r'' (derivative 0, 1, 2) of element coordinates e at ξ.
Vec2 interpolate(const Vec8& e, double xi, double L, int derivative);
/// Axial strain ε = |r'| − 1 at ξ.
double axial_strain(const Vec8& e, double xi, double L);
/// Curvature κ = (r' × r'')/(r' · r') at ξ, 1/m.
double curvature(const Vec8& e, double xi, double L);
/// Strain energy U of the element, J.
double strain_energy(const Vec8& e, double L, const Section& s);
/// Generalized elastic and damping forces Q_e = ∂U/∂e + damping terms (e_dot may be null: none).
Vec8 internal_forces(const Vec8& e, const Vec8* e_dot, double L, const Section& s);
/// The tangent of internal_forces(): K = ∂Q_e/∂e and D = ∂Q_e/∂ė (e_dot may be null: no damping
/// terms), analytic: with B₁, B₂ the maps e ↦ r', r'' at a point,
///     K = ∫ B₁ᵀ(t ∂Nᵀ/∂r' + N (I − t tᵀ)/|r'|)B₁ + EI κ-terms (∂κ/∂e ∂Mᵀ/∂e + M ∂²κ/∂e²) dx,
///     D = d ∫ EA ∂ε/∂e ∂εᵀ/∂e + EI ∂κ/∂e ∂κᵀ/∂e dx.
void tangent(const Vec8& e, const Vec8* e_dot, double L, const Section& s, Mat8& K, Mat8& D);
/// Consistent mass matrix ρA ∫ Sᵀ S dx.
Mat8 mass_matrix(double L, double rhoA);
/// Generalized force ∫ Sᵀ f dx of a constant load f per unit reference length (N/m).
Vec8 distributed_load(double L, const Vec2& f);

}  // namespace mbdae::ancf
