#pragma once
/// @file Types.h
/// Eigen types used throughout mbdae. Units are SI; quaternions (Euler parameters) are stored
/// as Vec4 [w, x, y, z]; rotation matrices rotate body -> world (p_W = R_WB p_B).

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products everywhere
#include <Eigen/SparseCore>

namespace mbdae {

using Vec3 = Eigen::Vector3d;  ///< Point, vector or 3-component quantity (unit per use)
using Vec4 = Eigen::Vector4d;  ///< Euler parameters [w, x, y, z]
using Vec6 = Eigen::Matrix<double, 6, 1>;  ///< Twist/wrench or inertia 6-vector
using Mat3 = Eigen::Matrix3d;  ///< Rotation matrix (R_WB) or inertia tensor
using Mat34 = Eigen::Matrix<double, 3, 4>;  ///< E.g. the 3 × 4 map G(p) of Euler parameters
using Mat6 = Eigen::Matrix<double, 6, 6>;  ///< Spatial inertia or 6 × 6 stiffness/damping
using VecX = Eigen::VectorXd;  ///< Dynamic-size vector (coordinates, residuals)
using MatX = Eigen::MatrixXd;  ///< Dynamic-size dense matrix
/// Compressed-column sparse matrix with int indices (the layout KLU and SUNDIALS expect).
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

}  // namespace mbdae
