#pragma once
/// @file ModalBody.h
/// A modally reduced flexible body in the floating frame of reference (FFRF): a reference frame
/// that moves as a rigid body (the System's body of the same name: position and Euler parameters)
/// plus modal coordinates q of modes Φ of a finite-element model (mass matrix M, stiffness K,
/// nodal coordinates x̄ in the frame's axes).
///
/// Kinematics (nodal form, Zwölfer & Gerstmayr, "A concise nodal-based derivation of the floating
/// frame of reference formulation for displacement-based solid finite elements", Multibody Syst.
/// Dyn. 49 (2020)): the vector ξ of the FE degrees of freedom's velocities in the frame's axes is
///
///     ξ = T_t v_B + T_r(q) ω_B + Φ q̇,   T_r(q) = T_r0 + Σ_k q_k T_rk,
///
/// where for a node i's translations T_t = I, T_r = −[x̄_i + u_i]~ (u = Φ q), and for a node's
/// rotations (6 degrees of freedom per node) T_t = 0, T_r = I: a nodal rotation adds to the
/// frame's angular velocity (first order in the nodal rotation, as the FE model is). The kinetic
/// energy is T = ½ ξᵀ M ξ = ½ wᵀ 𝕄(q) w with w = (v_B, ω_B, q̇) and the inertia invariants
/// (Shabana, Dynamics of Multibody Systems, 3rd ed., ch. 5: the mass m, the moment of mass m c̄,
/// the inertia tensor, the modal mass and the coupling shape integrals S̄, Ī_k, Ī_kl written as
/// products with the FE mass matrix):
///
///     m_tt = T_tᵀ M T_t = m I        m_tr(q) = T_tᵀ M T_r(q) = A0 + Σ q_k A_k     m_tf = T_tᵀ M Φ
///     m_rr(q) = T_r(q)ᵀ M T_r(q) = J0 + Σ q_k (J_k + J_kᵀ) + Σ q_k q_l J_kl
///     m_rf(q) = T_r(q)ᵀ M Φ = C0 + Σ q_k C_k                 m_ff = Φᵀ M Φ
///
/// The equations (Kirchhoff's form of the frame's Lagrange equations, P_B = ∂T/∂v_B,
/// H_B = ∂T/∂ω_B, P_f = ∂T/∂q̇; formulations/src/units/ModalBodies.cpp):
///
///     R (Ṗ_B + ω_B × P_B) = F,   Ḣ_B + ω_B × H_B + v_B × P_B = τ_B,
///     Ṗ_f − ∂T/∂q + K_m q + D_m q̇ = Q_f,
///
/// with the quadratic velocity terms from the time derivatives of 𝕄(q); gravity is the
/// consistent load M T_t Rᵀ g. Without modes it is the rigid body of mass m, centre of mass c̄
/// and inertia J0 about the frame's origin.
///
/// Modes: free-free (the FE model's lowest elastic modes; the rigid-body modes, zero frequency,
/// are removed) or fixed-interface modes clamped at one interface node with 6 degrees of freedom
/// (Craig–Bampton with one interface node: its six constraint modes are the rigid-body modes,
/// carried by the reference frame, which must then sit at that node for joints to act there).
/// Modes are mass-normalised (m_ff = I, K_m = diag(ω_k²)); modal damping D_m = diag(2 ζ_k ω_k).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// A finite-element model's matrices and nodes, as read (frame axes, SI units).
struct FeModel {
  MatX mass;                 ///< N × N, symmetric positive semi-definite, kg (kg m² for rotations)
  MatX stiffness;            ///< N × N, symmetric positive semi-definite
  std::vector<Vec3> nodes;   ///< undeformed nodal coordinates in the reference frame's axes, m
  int dofs_per_node = 3;     ///< 3 (translations) or 6 (translations, then rotations)
};

/// Which modes a modal body keeps.
struct ModalChoice {
  int modes = 0;                       ///< number of elastic modes kept (0: the rigid body alone)
  std::optional<int> interface_node;   ///< clamped at this node (0-based), else free-free
  std::vector<double> damping_ratio;   ///< one per mode, or one for all, or empty (undamped)
};

/// The reduced body: its modes and the inertia invariants (see the top of this file).
struct ModalReduction {
  int n = 0;                        ///< number of modes
  double mass = 0;                  ///< m, kg
  Vec3 com = Vec3::Zero();          ///< c̄, frame axes, m
  Mat3 inertia = Mat3::Zero();      ///< J0, about the frame's origin, kg m²
  std::vector<double> frequency;    ///< ω_k, rad/s (fixed-interface or free-free)
  MatX stiffness;                   ///< K_m = Φᵀ K Φ, n × n (diagonal up to rounding)
  MatX damping;                     ///< D_m = diag(2 ζ_k ω_k), n × n
  MatX m_ff;                        ///< n × n
  Eigen::Matrix<double, 3, Eigen::Dynamic> m_tf;  ///< T_tᵀ M Φ, 3 × n
  Eigen::Matrix<double, 3, Eigen::Dynamic> C0;    ///< T_r0ᵀ M Φ, 3 × n
  Mat3 A0 = Mat3::Zero();           ///< m_tr at q = 0
  std::vector<Mat3> A;              ///< A_k = T_tᵀ M T_rk (n)
  std::vector<Mat3> J;              ///< J_k = T_r0ᵀ M T_rk (n)
  std::vector<Mat3> Jkl;            ///< J_kl, k·n + l
  std::vector<Eigen::Matrix<double, 3, Eigen::Dynamic>> C;  ///< C_k, 3 × n (n of them)
  MatX phi;                         ///< N × n, the modes
  std::vector<Vec3> nodes;          ///< x̄_i
  int dofs_per_node = 3;            ///< as FeModel::dofs_per_node

  /// The displacement of node i in the frame's axes for modal coordinates q (size n).
  Vec3 node_displacement(int i, const double* q) const;
};

/// The modes and invariants of `fe` for `choice`.
/// @throws std::invalid_argument naming what is wrong (sizes, asymmetry, a mass matrix that is
/// not positive definite on the rigid-body modes, too few modes, an interface node out of range
/// or with 3 degrees of freedom, more modes than the model has).
ModalReduction reduce_modal(const FeModel& fe, const ModalChoice& choice);

/// A modal body of a System: its reference frame is the System's body `body` (whose mass, centre
/// of mass and inertia are the reduction's rigid part), and its initial modal state.
struct ModalBody {
  std::string name;   ///< the body's name
  int body = 0;       ///< the reference frame's body (its BodyIndex)
  std::shared_ptr<const ModalReduction> modes;  ///< its modes and inertia invariants
  VecX q0;            ///< initial modal coordinates (size modes->n)
  VecX v0;            ///< initial modal rates (size modes->n)
};

}  // namespace mbdae
