/// @file Sdf.cpp
/// SDFormat → model file, read by libsdformat (Debian's libsdformat-dev, 12.x), which checks the
/// file against the specification, resolves the frame semantics (poses relative_to, expressed_in)
/// and keeps each element's line. Links' poses come from the file, not from a walk over the joints,
/// so closed loops are imported as they are: every joint joins its two links.

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <sdf/sdf.hh>

#include <mbdae/import/Import.h>

#include "ImportCommon.h"

namespace mbdae::import {
namespace {

using Eigen::Isometry3d;
using Eigen::Matrix3d;
using Eigen::Vector3d;

Isometry3d to_iso(const ignition::math::Pose3d& p) {
  Isometry3d X = Isometry3d::Identity();
  X.linear() = Eigen::Quaterniond(p.Rot().W(), p.Rot().X(), p.Rot().Y(), p.Rot().Z()).normalized().toRotationMatrix();
  X.translation() = Vector3d(p.Pos().X(), p.Pos().Y(), p.Pos().Z());
  return X;
}
Vector3d to_vec(const ignition::math::Vector3d& v) { return {v.X(), v.Y(), v.Z()}; }
int line_of(const sdf::ElementPtr& e) { return e && e->LineNumber() ? *e->LineNumber() : 0; }

class SdfImporter {
 public:
  SdfImporter(const std::string& file, const ImportOptions& o) : file_(file), opt_(o) {}
  ImportResult run();

 private:
  void warn(int line, const std::string& element, const std::string& message) {
    warnings_.push_back({file_, line, 0, element, message});
  }
  void error(int line, const std::string& element, const std::string& message) {
    errors_.push_back({file_, line, 0, element, message});
  }
  /// Elements of `e` given in the file that are in `unmapped`: a warning each.
  void list_unmapped(const sdf::ElementPtr& e, const std::string& where, const std::set<std::string>& unmapped,
                     const std::string& why) {
    if (!e) return;
    for (sdf::ElementPtr c = e->GetFirstElement(); c; c = c->GetNextElement())
      if (unmapped.count(c->GetName()) && c->GetExplicitlySetInFile())
        warn(line_of(c), where + " <" + c->GetName() + ">", why);
  }

  std::string file_;
  ImportOptions opt_;
  std::vector<io::Diagnostic> warnings_, errors_;
};

ImportResult SdfImporter::run() {
  sdf::Root root;
  const sdf::Errors load_errors = root.Load(file_);
  for (const sdf::Error& e : load_errors)
    error(e.LineNumber() ? *e.LineNumber() : 0, "", "libsdformat: " + e.Message());
  if (!errors_.empty()) throw io::LoadError(errors_);

  const sdf::Model* model = root.Model();
  Vector3d gravity(0, 0, -9.8);  // SDFormat's default <gravity> of a world
  if (!model) {
    const sdf::World* world = root.WorldCount() == 1 ? root.WorldByIndex(0) : nullptr;
    if (!world || world->ModelCount() != 1) {
      error(1, "<sdf>", "expected one <model>, or one <world> with one <model>");
      throw io::LoadError(errors_);
    }
    model = world->ModelByIndex(0);
    gravity = to_vec(world->Gravity());
    list_unmapped(world->Element(), "<world>", {"light", "plugin", "actor", "include", "population", "road", "scene"},
                  "not mapped");
  }
  const std::string mwhere = "model '" + model->Name() + "'";
  const int mline = line_of(model->Element());
  if (model->Static()) error(mline, mwhere, "a static model is not mapped (every link would be fixed)");
  if (model->ModelCount() > 0) error(mline, mwhere, "nested models are not mapped");
  list_unmapped(model->Element(), mwhere, {"plugin", "gripper", "frame"}, "not mapped");
  // The model's pose places it in the world; every link and joint is resolved in the model frame.
  const Isometry3d X_WM = to_iso(model->RawPose());

  ModelWriter w(model->Name(),
                "imported from " + std::filesystem::path(file_).filename().string() + " (SDFormat)", gravity);
  std::map<std::string, Isometry3d> X_WL;
  std::map<std::string, int> link_line;
  for (uint64_t i = 0; i < model->LinkCount(); ++i) {
    const sdf::Link* l = model->LinkByIndex(i);
    const std::string where = "link '" + l->Name() + "'";
    const int line = line_of(l->Element());
    link_line[l->Name()] = line;
    ignition::math::Pose3d p;
    const sdf::Errors pe = l->SemanticPose().Resolve(p, "__model__");
    for (const sdf::Error& e : pe) error(line, where, e.Message());
    X_WL[l->Name()] = X_WM * to_iso(p);
    if (l->Name() == "ground") error(line, where, "'ground' is mbdae's fixed body: rename the link");
    const ignition::math::Inertiald& in = l->Inertial();
    const double mass = in.MassMatrix().Mass();
    if (!(mass > 0)) {
      error(line, where, "mass must be > 0");
      continue;
    }
    const Isometry3d X_LI = to_iso(in.Pose());
    const auto& moi = in.MassMatrix().Moi();
    Matrix3d I_I;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) I_I(r, c) = moi(static_cast<size_t>(r), static_cast<size_t>(c));
    w.body(l->Name(), mass, X_LI.translation(), X_LI.linear() * I_I * X_LI.linear().transpose(), X_WL[l->Name()]);
    const sdf::ElementPtr le = l->Element();
    if (le->HasElement("gravity") && !le->Get<bool>("gravity")) error(line, where + " <gravity>", "false is not mapped");
    if (le->HasElement("kinematic") && le->Get<bool>("kinematic")) error(line, where + " <kinematic>", "true is not mapped");
    list_unmapped(le, where, {"visual"}, "not mapped: the viewer draws contact shapes and inertia boxes");
    list_unmapped(le, where, {"sensor", "light", "projector", "audio_source", "audio_sink", "battery",
                              "particle_emitter", "velocity_decay"},
                  "not mapped");

    for (uint64_t k = 0; k < l->CollisionCount(); ++k) {
      const sdf::Collision* c = l->CollisionByIndex(k);
      const int cline = line_of(c->Element());
      const std::string cwhere = where + " <collision name='" + c->Name() + "'>";
      if (!opt_.collision) {
        warn(cline, cwhere, "not mapped (import with --collision to map collision geometry to contact shapes)");
        continue;
      }
      ignition::math::Pose3d cp;
      for (const sdf::Error& e : c->SemanticPose().Resolve(cp, l->Name())) error(cline, cwhere, e.Message());
      const Isometry3d X_LS = to_iso(cp);
      const sdf::Geometry& g = *c->Geom();
      const std::string name = l->Name() + "_" + c->Name();
      switch (g.Type()) {
        case sdf::GeometryType::BOX: {
          const auto s = g.BoxShape()->Size();
          w.contact(name, "box", l->Name(), X_LS, "size: [" + fmt17(s.X()) + ", " + fmt17(s.Y()) + ", " + fmt17(s.Z()) + "]");
          break;
        }
        case sdf::GeometryType::SPHERE:
          w.contact(name, "sphere", l->Name(), X_LS, "radius: " + fmt17(g.SphereShape()->Radius()));
          break;
        case sdf::GeometryType::CYLINDER:
          w.contact(name, "cylinder", l->Name(), X_LS,
                    "radius: " + fmt17(g.CylinderShape()->Radius()) + ", length: " + fmt17(g.CylinderShape()->Length()));
          break;
        case sdf::GeometryType::CAPSULE:
          w.contact(name, "capsule", l->Name(), X_LS,
                    "radius: " + fmt17(g.CapsuleShape()->Radius()) + ", length: " + fmt17(g.CapsuleShape()->Length()));
          break;
        default:
          error(cline, cwhere, "only box, sphere, cylinder and capsule geometry is mapped to contact shapes");
      }
    }
  }

  for (uint64_t i = 0; i < model->JointCount(); ++i) {
    const sdf::Joint* j = model->JointByIndex(i);
    const std::string where = "joint '" + j->Name() + "'";
    const int line = line_of(j->Element());
    std::string parent = j->ParentLinkName(), child = j->ChildLinkName();
    if (parent == "world") parent = "ground";
    if (child == "world" || !X_WL.count(child) || (parent != "ground" && !X_WL.count(parent))) {
      error(line, where, "joins '" + j->ParentLinkName() + "' and '" + j->ChildLinkName() +
                             "': only links of the model (and the world as the parent) are mapped");
      continue;
    }
    ignition::math::Pose3d jp;
    for (const sdf::Error& e : j->SemanticPose().Resolve(jp, "__model__")) error(line, where, e.Message());
    const Isometry3d X_WJ = X_WM * to_iso(jp);
    auto axis = [&](unsigned k) {
      ignition::math::Vector3d v;
      for (const sdf::Error& e : j->Axis(k)->ResolveXyz(v, "__model__")) error(line, where, e.Message());
      return Vector3d(X_WM.linear() * to_vec(v));
    };
    std::string type;
    unsigned axes = 0;
    switch (j->Type()) {
      case sdf::JointType::REVOLUTE:
      case sdf::JointType::CONTINUOUS: type = "revolute", axes = 1; break;
      case sdf::JointType::PRISMATIC: type = "prismatic", axes = 1; break;
      case sdf::JointType::FIXED: type = "fixed"; break;
      case sdf::JointType::BALL: type = "spherical"; break;
      default:
        error(line, where, "joint type not mapped (universal, screw, revolute2, gearbox)");
        continue;
    }
    w.joint(j->Name(), type, parent, child, X_WJ.translation(),
            axes ? std::optional<Vector3d>(axis(0)) : std::optional<Vector3d>());
    for (unsigned k = 0; k < axes; ++k) {
      const sdf::JointAxis* a = j->Axis(k);
      if (!a) continue;
      const bool revolute = type == "revolute";
      w.sensor(j->Name(), revolute);
      const bool has_lower = std::abs(a->Lower()) < 1e15, has_upper = std::abs(a->Upper()) < 1e15;
      if (j->Type() != sdf::JointType::CONTINUOUS && has_lower && has_upper && a->Lower() < a->Upper())
        w.limit(j->Name(), a->Lower(), a->Upper(), opt_);
      else if (j->Type() != sdf::JointType::CONTINUOUS && (has_lower || has_upper))
        warn(line, where + " <limit>", "a one-sided or empty range is not mapped");
      if (a->Damping() > 0 || a->Friction() > 0) w.friction(j->Name(), revolute, a->Damping(), a->Friction());
      if (a->SpringStiffness() != 0)
        error(line, where + " <dynamics>", "spring_stiffness is not mapped (write a spring-damper)");
      if (a->Effort() > 0 && std::isfinite(a->Effort()))
        warn(line, where + " <limit>", "effort " + fmt_num(a->Effort()) + " is not enforced: mbdae has no actuator limits");
    }
    list_unmapped(j->Element(), where, {"sensor", "physics"}, "not mapped");
  }
  return finish_import(w, file_, opt_, warnings_, errors_);
}

}  // namespace

ImportResult import_sdf_file(const std::string& path, const ImportOptions& options) {
  return SdfImporter(path, options).run();
}

}  // namespace mbdae::import
