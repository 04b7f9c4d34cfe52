// The force element types, one line each (no include guard: read with MBDAE_FORCE_TYPE defined).
// MBDAE_FORCE_TYPE(Enumerator, factory): `ForceType::Enumerator` and the function
// `forces::factory()` of model/src/forces/ that returns its ForceTypeInfo. This list makes the
// enumerators of ForceType, the factories' declarations and the registry's table, in this order:
// adding a force element type is its source file and one line here (docs/architecture.md).
MBDAE_FORCE_TYPE(SpringDamper, spring_damper)                      // point-to-point spring-damper
MBDAE_FORCE_TYPE(TorsionalSpringDamper, torsional_spring_damper)   // torque about an axis
MBDAE_FORCE_TYPE(RigidBodySpringDamper, rigid_body_spring_damper)  // 6 × 6 stiffness and damping in a joint frame
MBDAE_FORCE_TYPE(CartesianSpringDamper, cartesian_spring_damper)   // per world axis
MBDAE_FORCE_TYPE(User, user)                                       // user function of the bodies' motions
MBDAE_FORCE_TYPE(EndStop, end_stop)                                // one-sided penalty stops on the slide along an axis
MBDAE_FORCE_TYPE(JointMotor, joint_motor)                          // torque or force on a joint's coordinate
MBDAE_FORCE_TYPE(JointFriction, joint_friction)                    // Coulomb (regularized), Stribeck and viscous friction of a joint
MBDAE_FORCE_TYPE(JointLimit, joint_limit)                          // one-sided penalty stops on a joint's angle or slide
