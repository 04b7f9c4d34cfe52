#pragma once
/// @file YamlNodes.h
/// What the readers of mbdae's YAML files (models, studies) share about yaml-cpp's nodes; the
/// other public headers of mbdae::io do not include yaml-cpp.

namespace YAML {
class Node;
}

namespace mbdae::io {

/// What a node is, for messages ("expected a list, got a mapping"): "a scalar", "a list",
/// "a mapping", "nothing (null)" or "nothing". No throw.
const char* kind_of(const YAML::Node& n);

}  // namespace mbdae::io
