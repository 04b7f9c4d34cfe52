#pragma once
/// @file Types.h
/// Eigen types used throughout mbdae. Units are SI; quaternions (Euler parameters) are stored
/// as Vec4 [w, x, y, z]; rotation matrices rotate body -> world (p_W = R_WB p_B).

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products everywhere
#include <Eigen/SparseCore>

namespace mbdae {

using Vec3 = Eigen::Vector3d;
using Vec4 = Eigen::Vector4d;  ///< Euler parameters [w, x, y, z]
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat34 = Eigen::Matrix<double, 3, 4>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
/// Compressed-column sparse matrix with int indices (the layout KLU and SUNDIALS expect).
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

}  // namespace mbdae
