//! sierra_gltf
