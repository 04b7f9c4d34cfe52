#pragma once
/// @file mbdae.h
/// Umbrella header of the mbdae library: the model, the formulations and every solver (IDA's own
/// header only in a build with SUNDIALS, where MBDAE_WITH_IDA is 1).
///
/// A minimal program (see docs/cpp-api.md):
/// @code
///   mbdae::System sys;
///   sys.gravity = {0, 0, -9.81};
///   mbdae::RigidBody rod;  /* mass, inertia, position ... */
///   sys.add_body(rod);
///   sys.add_revolute("pivot", "ground", "rod", {0, 0, 0}, {0, 1, 0});
///   mbdae::PreparedSystem p = mbdae::prepare(sys);
///   mbdae::SimulationSettings s;
///   mbdae::simulate(*p.system, 0.0, p.q0, p.v0, s, [](const mbdae::StateView& x) { return true; });
/// @endcode

#include <mbdae/model/Contact.h>
#include <mbdae/model/Inertia.h>
#include <mbdae/model/System.h>
#include <mbdae/model/Types.h>
#include <mbdae/model/math/LieGroup.h>
#include <mbdae/model/math/Rotation.h>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>

#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/GeneralizedAlpha.h>
#if MBDAE_WITH_IDA
#include <mbdae/solvers/Ida.h>
#endif
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/InverseDynamics.h>
#include <mbdae/solvers/Kinematics.h>
#include <mbdae/solvers/Linearization.h>
#include <mbdae/solvers/Mobility.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/SolverCommon.h>
#include <mbdae/solvers/SolverRegistry.h>
#include <mbdae/solvers/Statics.h>
