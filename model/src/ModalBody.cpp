// The modes of a finite-element model and the inertia invariants of the floating frame of
// reference formulation (ModalBody.h; Zwölfer & Gerstmayr 2020 for the nodal form, Shabana,
// Dynamics of Multibody Systems, ch. 5, for the invariants).

#include <mbdae/model/ModalBody.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include <mbdae/model/math/Rotation.h>

namespace mbdae {

namespace {

constexpr int kMaxDofs = 3000;  // dense eigenproblem: about 3000³ flops

std::invalid_argument bad(const std::string& s) { return std::invalid_argument(s); }

/// T_t and T_r for node positions x (N × 3 each), nodes of `dpn` degrees of freedom.
void rigid_modes(const std::vector<Vec3>& x, int dpn, MatX& Tt, MatX& Tr) {
  const int N = static_cast<int>(x.size()) * dpn;
  Tt = MatX::Zero(N, 3);
  Tr = MatX::Zero(N, 3);
  for (size_t i = 0; i < x.size(); ++i) {
    const int o = static_cast<int>(i) * dpn;
    Tt.block<3, 3>(o, 0).setIdentity();
    Tr.block<3, 3>(o, 0) = -math::skew(x[i]);
    if (dpn == 6) Tr.block<3, 3>(o + 3, 0).setIdentity();
  }
}

/// T_rk: the rows of node translations −[φ_k,i]~ (rotations 0).
MatX rotation_coupling(const VecX& phi, int nodes, int dpn) {
  MatX T = MatX::Zero(phi.size(), 3);
  for (int i = 0; i < nodes; ++i) T.block<3, 3>(i * dpn, 0) = -math::skew(Vec3(phi.segment<3>(i * dpn)));
  return T;
}

}  // namespace

Vec3 ModalReduction::node_displacement(int i, const double* q) const {
  Vec3 u = Vec3::Zero();
  for (int k = 0; k < n; ++k) u += q[k] * phi.block<3, 1>(i * dofs_per_node, k);
  return u;
}

ModalReduction reduce_modal(const FeModel& fe, const ModalChoice& choice) {
  const int dpn = fe.dofs_per_node;
  if (dpn != 3 && dpn != 6) throw bad("dofs_per_node must be 3 or 6, got " + std::to_string(dpn));
  const int nodes = static_cast<int>(fe.nodes.size());
  const int N = nodes * dpn;
  if (nodes == 0) throw bad("the finite-element model has no nodes");
  if (fe.mass.rows() != N || fe.mass.cols() != N || fe.stiffness.rows() != N || fe.stiffness.cols() != N)
    throw bad("the mass matrix is " + std::to_string(fe.mass.rows()) + " x " + std::to_string(fe.mass.cols()) +
              " and the stiffness matrix " + std::to_string(fe.stiffness.rows()) + " x " +
              std::to_string(fe.stiffness.cols()) + "; " + std::to_string(nodes) + " nodes of " +
              std::to_string(dpn) + " degrees of freedom need " + std::to_string(N) + " x " + std::to_string(N));
  if (N > kMaxDofs)
    throw bad(std::to_string(N) + " degrees of freedom: the dense eigenproblem takes at most " +
              std::to_string(kMaxDofs) + " (reduce the model first)");
  for (const auto* m : {&fe.mass, &fe.stiffness}) {
    const double asym = (*m - m->transpose()).cwiseAbs().maxCoeff(), scale = m->cwiseAbs().maxCoeff();
    if (!(asym <= 1e-10 * scale))
      throw bad(std::string(m == &fe.mass ? "the mass" : "the stiffness") + " matrix is not symmetric (largest |A - A^T| " +
                std::to_string(asym) + ", largest |A| " + std::to_string(scale) + ")");
  }
  const int nm = choice.modes;
  if (nm < 0) throw bad("the number of modes must be >= 0");
  if (!choice.damping_ratio.empty() && choice.damping_ratio.size() != 1 &&
      static_cast<int>(choice.damping_ratio.size()) != nm)
    throw bad("damping_ratio has " + std::to_string(choice.damping_ratio.size()) + " values for " +
              std::to_string(nm) + " modes (give one for all or one per mode)");

  ModalReduction r;
  r.n = nm;
  r.nodes = fe.nodes;
  r.dofs_per_node = dpn;
  const MatX& M = fe.mass;
  MatX Tt, Tr0;
  rigid_modes(fe.nodes, dpn, Tt, Tr0);
  const MatX MTt = M * Tt, MTr0 = M * Tr0;
  const Mat3 mtt = Tt.transpose() * MTt;
  r.mass = mtt.trace() / 3.0;
  if (!(r.mass > 0) || (mtt - r.mass * Mat3::Identity()).cwiseAbs().maxCoeff() > 1e-9 * r.mass)
    throw bad("the mass matrix does not give one mass for the three rigid translations (T_t^T M T_t is not m I)");
  r.A0 = Tt.transpose() * MTr0;  // = −m [c̄]~
  r.com = Vec3(r.A0(2, 1), r.A0(0, 2), r.A0(1, 0)) / -r.mass;
  r.inertia = Tr0.transpose() * MTr0;
  r.inertia = 0.5 * (r.inertia + r.inertia.transpose()).eval();

  // ---- modes
  r.phi = MatX::Zero(N, nm);
  r.frequency.assign(static_cast<size_t>(nm), 0.0);
  if (nm > 0) {
    std::vector<int> keep;  // the degrees of freedom of the eigenproblem
    if (choice.interface_node) {
      const int b = *choice.interface_node;
      if (b < 0 || b >= nodes)
        throw bad("interface_node " + std::to_string(b) + " is not a node (0 to " + std::to_string(nodes - 1) + ")");
      if (dpn != 6)
        throw bad("clamped modes at an interface node need 6 degrees of freedom per node (a node of 3 does not "
                  "hold the rotations)");
      for (int d = 0; d < N; ++d)
        if (d / dpn != b) keep.push_back(d);
    } else {
      for (int d = 0; d < N; ++d) keep.push_back(d);
    }
    const int Nk = static_cast<int>(keep.size());
    MatX Mk(Nk, Nk), Kk(Nk, Nk);
    for (int a = 0; a < Nk; ++a)
      for (int b = 0; b < Nk; ++b) {
        Mk(a, b) = M(keep[static_cast<size_t>(a)], keep[static_cast<size_t>(b)]);
        Kk(a, b) = fe.stiffness(keep[static_cast<size_t>(a)], keep[static_cast<size_t>(b)]);
      }
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> es(Kk, Mk);
    if (es.info() != Eigen::Success)
      throw bad("the generalized eigenproblem K x = w^2 M x failed (is the mass matrix positive definite?)");
    int rigid = 0;
    if (!choice.interface_node) {
      // The rigid-body modes: as many as T = [T_t T_r0] has independent columns in M's norm.
      MatX T(N, 6);
      T << Tt, Tr0;
      Eigen::SelfAdjointEigenSolver<MatX> g(T.transpose() * M * T);
      const double gmax = g.eigenvalues().maxCoeff();
      for (int k = 0; k < 6; ++k) rigid += g.eigenvalues()[k] > 1e-10 * gmax;
    }
    if (rigid + nm > Nk)
      throw bad(std::to_string(nm) + " modes asked for; the model has " + std::to_string(Nk - rigid) + " elastic modes");
    const VecX& lam = es.eigenvalues();
    const double first = lam[rigid];
    if (!(first > 0)) throw bad("the lowest elastic mode has eigenvalue " + std::to_string(first) +
                                " (the model has a mechanism or more rigid-body modes than a free body)");
    for (int k = 0; k < rigid; ++k)
      if (std::abs(lam[k]) > 1e-6 * first)
        throw bad("free-free modes: the " + std::to_string(rigid) + " lowest eigenvalues should be the rigid-body modes' zeros, "
                  "but eigenvalue " + std::to_string(k) + " is " + std::to_string(lam[k]) + " (the lowest elastic one " +
                  std::to_string(first) + "): is the model supported somewhere?");
    MatX T(N, 6);
    T << Tt, Tr0;
    const MatX MT = M * T;
    const Eigen::CompleteOrthogonalDecomposition<MatX> TMT(T.transpose() * MT);
    for (int k = 0; k < nm; ++k) {
      VecX x = VecX::Zero(N);
      for (int a = 0; a < Nk; ++a) x[keep[static_cast<size_t>(a)]] = es.eigenvectors()(a, rigid + k);
      if (!choice.interface_node) x -= T * TMT.solve(MT.transpose() * x);  // M-orthogonal to the rigid modes
      x /= std::sqrt(x.dot(M * x));
      r.phi.col(k) = x;
    }
  }
  const MatX MPhi = M * r.phi;
  r.m_ff = r.phi.transpose() * MPhi;
  r.stiffness = r.phi.transpose() * fe.stiffness * r.phi;
  r.stiffness = 0.5 * (r.stiffness + r.stiffness.transpose()).eval();
  r.damping = MatX::Zero(nm, nm);
  for (int k = 0; k < nm; ++k) {
    r.frequency[static_cast<size_t>(k)] = std::sqrt(std::max(0.0, r.stiffness(k, k) / r.m_ff(k, k)));
    const double zeta = choice.damping_ratio.empty()       ? 0.0
                        : choice.damping_ratio.size() == 1 ? choice.damping_ratio[0]
                                                           : choice.damping_ratio[static_cast<size_t>(k)];
    r.damping(k, k) = 2.0 * zeta * r.frequency[static_cast<size_t>(k)] * r.m_ff(k, k);
  }
  r.m_tf = Tt.transpose() * MPhi;
  r.C0 = Tr0.transpose() * MPhi;
  std::vector<MatX> Trk, MTrk;
  for (int k = 0; k < nm; ++k) {
    Trk.push_back(rotation_coupling(r.phi.col(k), nodes, dpn));
    MTrk.push_back(M * Trk.back());
  }
  for (int k = 0; k < nm; ++k) {
    r.A.push_back(MTt.transpose() * Trk[static_cast<size_t>(k)]);
    r.J.push_back(MTr0.transpose() * Trk[static_cast<size_t>(k)]);
    r.C.push_back(MTrk[static_cast<size_t>(k)].transpose() * r.phi);
  }
  for (int k = 0; k < nm; ++k)
    for (int l = 0; l < nm; ++l) r.Jkl.push_back(Trk[static_cast<size_t>(k)].transpose() * MTrk[static_cast<size_t>(l)]);
  return r;
}

}  // namespace mbdae
