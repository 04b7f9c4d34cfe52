// Flexible cables and their supports in the implicit formulation (Cables.h).

#include "Cables.h"

#include <algorithm>
#include <cmath>

#include "../FiniteDifference.h"  // the supports' q-derivatives

namespace mbdae::units {

namespace {
ancf::Vec8 element(ConstVecRef x, int c0) { return x.segment<8>(c0); }
double cross2(const Vec3& a, const Vec3& b) { return a.x() * b.y() - a.y() * b.x(); }
}  // namespace

// ---- Cables -------------------------------------------------------------------------------------
Cables::Cables(UnitContext& cx) : cx_(cx) {
  for (const Cable& c : cx.model().cables()) {
    CableData d;
    const Vec3 span = c.end - c.start;
    const double length = span.norm();
    d.elements = c.segments;
    d.L = length / c.segments;
    d.section = {c.E * c.A, c.E * c.I, c.rho * c.A, c.damping};
    d.M = ancf::mass_matrix(d.L, d.section.rhoA);
    const Vec3 f = d.section.rhoA * cx.model().gravity + c.load;
    d.load = ancf::distributed_load(d.L, Vec2d(f.x(), f.y()));
    d.t0 = Vec2d(span.x(), span.y()) / length;
    d.r0 = Vec2d(c.start.x(), c.start.y());
    d.v0 = Vec2d(c.velocity.x(), c.velocity.y());
    data_.push_back(std::move(d));
  }
}

void Cables::claim(UnitLayout& layout) {
  for (CableData& d : data_) d.first = layout.add_coordinates(4 * (d.elements + 1));
}

void Cables::add_pattern(PatternBuilder& tp, PatternBuilder&) const {
  for (const CableData& d : data_)
    for (int k = 0; k < d.elements; ++k) tp.add_block(d.first + 4 * k, 8, d.first + 4 * k, 8);
}

void Cables::make_maps(const SparseMatrix& tangent, const SparseMatrix&) {
  for (CableData& d : data_) {
    d.maps.clear();
    for (int k = 0; k < d.elements; ++k) {
      std::vector<int> c(8);
      for (int i = 0; i < 8; ++i) c[static_cast<size_t>(i)] = d.first + 4 * k + i;
      d.maps.push_back(BlockMap::make(tangent, c, c));
    }
  }
}

void Cables::initial_state(VecRef q0, VecRef v0) const {
  for (const CableData& d : data_)
    for (int i = 0; i <= d.elements; ++i) {
      const int c = d.first + 4 * i;
      q0.segment<2>(c) = d.r0 + (i * d.L) * d.t0;
      q0.segment<2>(c + 2) = d.t0;
      v0.segment<2>(c) = d.v0;
      v0.segment<2>(c + 2).setZero();
    }
}

void Cables::add_forces(const UnitState& s, double sign, VecRef out) const {
  const auto& cables = cx_.model().cables();
  for (size_t ci = 0; ci < data_.size(); ++ci) {
    const CableData& d = data_[ci];
    for (int k = 0; k < d.elements; ++k) {
      const int c0 = d.first + 4 * k;
      const ancf::Vec8 e = element(s.q, c0);
      ancf::Vec8 ed;
      if (s.v.size()) ed = element(s.v, c0);
      const ancf::Vec8 Q = ancf::internal_forces(e, s.v.size() ? &ed : nullptr, d.L, d.section);
      out.segment<8>(c0) += sign * (d.load - Q);
    }
    for (const CableNodeForce& f : cables[ci].node_forces)
      out.segment<2>(d.first + 4 * f.node) += sign * Vec2d(f.force.x(), f.force.y());
  }
}

void Cables::residual(UnitScratch*, const UnitState& s, VecRef r) const {
  for (const CableData& d : data_) {
    r.segment(d.first, 4 * (d.elements + 1)).setZero();
    if (s.a.size())
      for (int k = 0; k < d.elements; ++k) {
        const int c0 = d.first + 4 * k;
        r.segment<8>(c0) += d.M * element(s.a, c0);
      }
  }
  add_forces(s, -1.0, r);
}

void Cables::forces(UnitScratch*, const UnitState& s, VecRef f) const {
  for (const CableData& d : data_) f.segment(d.first, 4 * (d.elements + 1)).setZero();
  add_forces(s, 1.0, f);
}

void Cables::add_tangent(UnitScratch*, const UnitState& s, double c_q, double c_v, double c_a,
                         SparseMatrix& A) const {
  for (const CableData& d : data_)
    for (int k = 0; k < d.elements; ++k) {
      const int c0 = d.first + 4 * k;
      const ancf::Vec8 e = element(s.q, c0);
      ancf::Vec8 ed = ancf::Vec8::Zero();
      if (s.v.size()) ed = element(s.v, c0);
      ancf::Mat8 K, D;
      ancf::tangent(e, s.v.size() ? &ed : nullptr, d.L, d.section, K, D);
      d.maps[static_cast<size_t>(k)].scatter_add(A, (c_a * d.M + c_q * K + c_v * D).eval());
    }
}

void Cables::add_mass(UnitScratch*, const UnitState&, SparseMatrix& M) const {
  for (const CableData& d : data_)
    for (int k = 0; k < d.elements; ++k) d.maps[static_cast<size_t>(k)].scatter_add(M, d.M);
}

void Cables::add_kinetic_energy(const UnitState& s, double& E) const {
  for (const CableData& d : data_)
    for (int k = 0; k < d.elements; ++k) {
      const ancf::Vec8 ed = element(s.v, d.first + 4 * k);
      E += 0.5 * ed.dot(d.M * ed);
    }
}

void Cables::add_potential_energy(UnitScratch*, const UnitState& s, double& V) const {
  const auto& cables = cx_.model().cables();
  for (size_t ci = 0; ci < data_.size(); ++ci) {
    const CableData& d = data_[ci];
    for (int k = 0; k < d.elements; ++k) {
      const ancf::Vec8 e = element(s.q, d.first + 4 * k);
      V += ancf::strain_energy(e, d.L, d.section) - d.load.dot(e);  // constant loads: V = −Q_extᵀ e
    }
    for (const CableNodeForce& f : cables[ci].node_forces)
      V -= Vec2d(f.force.x(), f.force.y()).dot(s.q.segment<2>(d.first + 4 * f.node));
  }
}

CablePoint Cables::point(int cable, double s, ConstVecRef q, ConstVecRef v) const {
  const CableData& d = data_.at(static_cast<size_t>(cable));
  const double x = std::clamp(s, 0.0, d.L * d.elements);
  const int k = std::min(static_cast<int>(x / d.L), d.elements - 1);
  const double xi = std::clamp(x / d.L - k, 0.0, 1.0);
  const int c0 = d.first + 4 * k;
  const ancf::Vec8 e = element(q, c0);
  CablePoint p;
  const Vec2d r = ancf::interpolate(e, xi, d.L, 0), rs = ancf::interpolate(e, xi, d.L, 1);
  p.position = Vec3(r.x(), r.y(), cx_.model().cables()[static_cast<size_t>(cable)].start.z());
  p.slope = Vec3(rs.x(), rs.y(), 0);
  p.curvature = ancf::curvature(e, xi, d.L);
  p.axial_strain = rs.norm() - 1;
  double rate = 0;  // ε̇ = (r'/|r'|) · ṙ'
  if (v.size()) rate = rs.normalized().dot(ancf::interpolate(element(v, c0), xi, d.L, 1));
  p.axial_force = d.section.EA * (p.axial_strain + d.section.damping * rate);
  return p;
}

std::string Cables::coordinate_label(int i) const {
  const auto& cables = cx_.model().cables();
  for (size_t ci = 0; ci < data_.size(); ++ci) {
    const CableData& d = data_[ci];
    const int local = i - d.first;
    if (local < 0 || local >= 4 * (d.elements + 1)) continue;
    static const char* const what[4] = {"x", "y", "slope x", "slope y"};
    return "cable '" + cables[ci].name + "' node " + std::to_string(local / 4) + " " + what[local % 4];
  }
  return {};
}

// ---- CableSupports ------------------------------------------------------------------------------
CableSupports::CableSupports(UnitContext& cx, const Cables& cables) : cx_(cx), cables_(cables) {
  const System& sys = cx.model();
  for (size_t ci = 0; ci < sys.cables().size(); ++ci) {
    const Cable& c = sys.cables()[ci];
    const Vec3 span = c.end - c.start;
    const Vec3 t0 = span / span.norm();
    for (const CableSupport& cs : c.supports) {
      Support u;
      u.cable = static_cast<int>(ci);
      u.node = cs.node;
      u.rows = cs.kind == CableSupport::Kind::Clamped ? 3 : 2;
      u.body = sys.body_index(cs.body);
      u.label = "cable '" + c.name + "' node " + std::to_string(cs.node) + " " +
                (cs.kind == CableSupport::Kind::Clamped ? "clamped" : "pinned") + " to '" + cs.body + "'";
      const Vec3 r0 = c.start + (static_cast<double>(cs.node) / c.segments) * span;
      if (u.body == kGround) {
        u.rho = r0;
        u.d = t0;
      } else {
        const RigidBody& b = sys.bodies()[static_cast<size_t>(u.body)];
        u.rho = b.orientation.transpose() * (r0 - b.position);
        u.d = b.orientation.transpose() * t0;
      }
      list_.push_back(std::move(u));
    }
  }
}

void CableSupports::claim(UnitLayout& layout) {
  int n = 0;
  for (Support& u : list_) {
    u.first_row = n;
    n += u.rows;
  }
  layout.add_rows(n);
}

void CableSupports::make_maps(const SparseMatrix& tangent, const SparseMatrix& jacobian) {
  for (Support& u : list_) {
    u.coords.clear();
    const int c0 = cables_.node_coordinate(u.cable, u.node);
    for (int k = 0; k < 4; ++k) u.coords.push_back(c0 + k);
    cx_.bodies.append_coords(u.body, u.coords);
    u.active.clear();
    u.row_maps.clear();
    for (int k = 0; k < u.rows; ++k) {
      const int a = active_row(u.first_row + k);
      u.active.push_back(a);
      u.row_maps.push_back(a >= 0 ? BlockMap::make(jacobian, {a}, u.coords) : BlockMap{});
    }
    u.tangent_map = BlockMap::make(tangent, u.coords, u.coords);
  }
}

void CableSupports::add_pattern(PatternBuilder& tp, PatternBuilder& jp) const {
  for (const Support& u : list_) {
    std::vector<int> coords;
    const int c0 = cables_.node_coordinate(u.cable, u.node);
    for (int k = 0; k < 4; ++k) coords.push_back(c0 + k);
    cx_.bodies.append_coords(u.body, coords);
    std::vector<int> rows;
    for (int k = 0; k < u.rows; ++k)
      if (active_row(u.first_row + k) >= 0) rows.push_back(active_row(u.first_row + k));
    if (!rows.empty()) jp.add_block(rows, coords);
    if (u.body != kGround) tp.add_block(coords, coords);
  }
}

void CableSupports::gather(const Support& u, ConstVecRef x, LocalVec& out) const {
  out.resize(static_cast<int>(u.coords.size()));
  for (size_t k = 0; k < u.coords.size(); ++k) out[static_cast<int>(k)] = x[u.coords[k]];
}

void CableSupports::eval(const Support& u, const double* q, const double* v, RowLevel level, double* c,
                         Grad* G) const {
  const Kin k = cx_.bodies.kin(u.body, u.body == kGround ? nullptr : q + 4, v && u.body != kGround ? v + 4 : nullptr);
  const Vec3 r(q[0], q[1], 0), rs(q[2], q[3], 0);
  const Vec3 rho = k.R * u.rho, d = k.R * u.d;  // world
  if (level == RowLevel::Position) {
    const Vec3 e = k.p + rho - r;
    c[0] = e.x();
    c[1] = e.y();
    if (u.rows == 3) c[2] = cross2(rs, d);
  } else {
    const Vec3 rd(v[0], v[1], 0), rsd(v[2], v[3], 0);
    const Vec3 wr = k.w.cross(rho), wd = k.w.cross(d);
    if (level == RowLevel::Velocity) {
      const Vec3 e = k.v + wr - rd;
      c[0] = e.x();
      c[1] = e.y();
      if (u.rows == 3) c[2] = cross2(rsd, d) + cross2(rs, wd);
    } else {  // γ = −C̈ without the coordinates' second derivatives
      const Vec3 e = k.ah.cross(rho) + k.w.cross(wr);
      c[0] = -e.x();
      c[1] = -e.y();
      if (u.rows == 3) c[2] = -(2 * cross2(rsd, wd) + cross2(rs, k.ah.cross(d) + k.w.cross(wd)));
    }
  }
  if (!G) return;
  const int nc = static_cast<int>(u.coords.size());
  G->setZero(u.rows, nc);
  (*G)(0, 0) = -1;
  (*G)(1, 1) = -1;
  if (u.rows == 3) {
    (*G)(2, 2) = d.y();
    (*G)(2, 3) = -d.x();
  }
  if (u.body == kGround) return;
  // δ(R ρ) = δφ × Rρ = −[Rρ]× δφ, δφ = R G δθ; δC₃ = u·(δφ × d) with u = (−r'_y, r'_x, 0).
  const auto skew = [](const Vec3& a) {
    Mat3 S;
    S << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
    return S;
  };
  const int nr = static_cast<int>(k.RG.cols());
  const Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 4> Jr = -skew(rho) * k.RG;
  for (int i = 0; i < 2; ++i) {
    (*G)(i, 4 + i) = 1;
    for (int j = 0; j < nr; ++j) (*G)(i, 7 + j) = Jr(i, j);
  }
  if (u.rows == 3) {
    const Vec3 uu(-rs.y(), rs.x(), 0);
    const Eigen::Matrix<double, 1, Eigen::Dynamic, 1, 1, 4> Jd = -uu.transpose() * skew(d) * k.RG;
    for (int j = 0; j < nr; ++j) (*G)(2, 7 + j) = Jd(0, j);
  }
}

void CableSupports::residual(UnitScratch*, const UnitState& s, VecRef r) const {
  LocalVec q;
  Grad G;
  double c[3];
  for (const Support& u : list_) {
    gather(u, s.q, q);
    eval(u, q.data(), nullptr, RowLevel::Position, c, &G);
    for (int k = 0; k < u.rows; ++k) {
      const int a = u.active[static_cast<size_t>(k)];
      if (a < 0) continue;
      for (size_t j = 0; j < u.coords.size(); ++j) r[u.coords[j]] += s.lambda[a] * G(k, static_cast<int>(j));
    }
  }
}

void CableSupports::rows(UnitScratch*, const UnitState& s, RowLevel level, VecRef out) const {
  LocalVec q, v;
  double c[3];
  for (const Support& u : list_) {
    gather(u, s.q, q);
    if (level != RowLevel::Position) gather(u, s.v, v);
    eval(u, q.data(), level == RowLevel::Position ? nullptr : v.data(), level, c, nullptr);
    for (int k = 0; k < u.rows; ++k)
      if (u.active[static_cast<size_t>(k)] >= 0) out[u.active[static_cast<size_t>(k)]] = c[k];
  }
}

void CableSupports::add_tangent(UnitScratch*, const UnitState& s, double c_q, double, double, SparseMatrix& A) const {
  // ∂(C_qᵀλ)/∂q, local to each support to a body (a ground support's C_q is constant).
  if (c_q == 0) return;
  LocalVec q;
  Grad G;
  double c[3];
  for (const Support& u : list_) {
    if (u.body == kGround) continue;
    const int nc = static_cast<int>(u.coords.size());
    gather(u, s.q, q);
    Eigen::Matrix<double, 3, 1> l = Eigen::Matrix<double, 3, 1>::Zero();
    for (int k = 0; k < u.rows; ++k) {
      const int a = u.active[static_cast<size_t>(k)];
      l[k] = a < 0 ? 0.0 : s.lambda[a];
    }
    Eigen::Matrix<double, kMaxCoords, kMaxCoords> B = Eigen::Matrix<double, kMaxCoords, kMaxCoords>::Zero();
    LocalVec fp(nc), fm(nc);
    detail::central_differences(
        q, 0, nc, fp, fm,
        [&](int, LocalVec& out) {
          eval(u, q.data(), nullptr, RowLevel::Position, c, &G);
          out = G.topRows(u.rows).transpose() * l.head(u.rows);
        },
        [&](int j, const LocalVec& p, const LocalVec& m, double h2) { B.col(j).head(nc) = c_q * (p - m) / h2; });
    u.tangent_map.scatter_add(A, B.topLeftCorner(nc, nc));
  }
}

void CableSupports::add_jacobian(UnitScratch*, const UnitState& s, RowLevel level, SparseMatrix& J) const {
  LocalVec q, v;
  Grad G;
  double c[3];
  for (const Support& u : list_) {
    const int nc = static_cast<int>(u.coords.size());
    gather(u, s.q, q);
    if (level == RowLevel::Position) {
      eval(u, q.data(), nullptr, RowLevel::Position, c, &G);
      scatter_rows(u, G, J);
      continue;
    }
    if (u.body == kGround) continue;  // Ċ = C_q v with C_q constant: ∂Ċ/∂q = 0
    gather(u, s.v, v);
    Grad B;
    B.setZero(u.rows, nc);
    double cp[3], cm[3];
    for (int j = 0; j < nc; ++j) {
      const double h = detail::fd_step(q[j]), x0 = q[j];
      q[j] = x0 + h;
      eval(u, q.data(), v.data(), RowLevel::Velocity, cp, nullptr);
      q[j] = x0 - h;
      eval(u, q.data(), v.data(), RowLevel::Velocity, cm, nullptr);
      q[j] = x0;
      for (int k = 0; k < u.rows; ++k) B(k, j) = (cp[k] - cm[k]) / (2 * h);
    }
    scatter_rows(u, B, J);
  }
}

void CableSupports::scatter_rows(const Support& u, const Grad& G, SparseMatrix& J) {
  for (int k = 0; k < u.rows; ++k)
    if (u.active[static_cast<size_t>(k)] >= 0) u.row_maps[static_cast<size_t>(k)].scatter_add(J, G.row(k));
}

std::string CableSupports::row_label(int local) const {
  static const char* const what[3] = {"x", "y", "slope direction"};
  for (const Support& u : list_)
    if (local >= u.first_row && local < u.first_row + u.rows) return u.label + " " + what[local - u.first_row];
  return {};
}

}  // namespace mbdae::units
